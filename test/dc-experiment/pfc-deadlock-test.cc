// Scenario tests of the PFC deadlock monitor and the watchdog from the experiment file
// (configs/pfc-deadlock-ring.json): five switches in a ring, host i sends to
// host i+2 without congestion control. The clockwise ring queues deadlock and the monitor
// reports the cycle within 1 ms; with the watchdog every flow completes, with drops; with
// one flow fewer there is no cycle and no report. pfc.csv counts the pauses in force.
#include "output-file-reader.h"

#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/simulator.h"

#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace ns3
{
namespace
{

using test::Fields;
using test::Lines;
using test::ReadFile;

class PfcDeadlockTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    static nlohmann::json Ring()
    {
        return nlohmann::json::parse(
            ReadFile(std::string(ROCE_LAB_SOURCE_DIR) + "/configs/pfc-deadlock-ring.json"));
    }

    /** Run \p config; \return the output directory. */
    static std::string Run(const nlohmann::json& config, const std::string& leaf)
    {
        const std::string dir = test::OutputDir("pfc-deadlock-" + leaf);
        const ExperimentConfig c = ExperimentConfig::LoadString(config.dump(), "ring.json");
        {
            ExperimentRunner runner(c, dir);
            runner.Run();
        }
        Simulator::Destroy();
        return dir;
    }

    /** The rows of a CSV file as maps from column name to value. */
    static std::vector<std::map<std::string, std::string>> Rows(const std::string& path)
    {
        const std::vector<std::string> lines = Lines(ReadFile(path));
        std::vector<std::map<std::string, std::string>> rows;
        const std::vector<std::string> header = Fields(lines.at(0));
        for (std::size_t i = 1; i < lines.size(); ++i)
        {
            const std::vector<std::string> f = Fields(lines[i]);
            std::map<std::string, std::string> row;
            for (std::size_t k = 0; k < header.size() && k < f.size(); ++k)
            {
                row[header[k]] = f[k];
            }
            rows.push_back(row);
        }
        return rows;
    }
};

TEST_F(PfcDeadlockTest, RingDeadlockIsReportedWithin1msAndStopsTheRun)
{
    const std::string dir = Run(Ring(), "ring");
    const auto rows = Rows(dir + "/deadlocks.csv");
    ASSERT_EQ(rows.size(), 5u) << "one deadlock of the five clockwise ring queues";
    std::set<std::string> nodes;
    for (const auto& r : rows)
    {
        EXPECT_EQ(r.at("deadlock"), "0");
        EXPECT_EQ(r.at("class"), "3");
        nodes.insert(r.at("node"));
        const double formed = std::stod(r.at("formed_us"));
        const double detected = std::stod(r.at("detected_us"));
        EXPECT_GE(detected, formed);
        EXPECT_LT(detected - formed, 1000.0) << "reported within 1 ms of forming";
        EXPECT_GT(std::stoull(r.at("queued_bytes")), 0u);
    }
    EXPECT_EQ(nodes, (std::set<std::string>{"s0", "s1", "s2", "s3", "s4"}));

    const auto summary = nlohmann::json::parse(ReadFile(dir + "/summary.json"));
    EXPECT_EQ(summary["deadlocks"]["count"], 1);
    EXPECT_EQ(summary["finished"], 0);
    // StopOnDeadlock: the run ends at the detecting check, long before stop_time (20 ms).
    EXPECT_DOUBLE_EQ(summary["end_time_us"].get<double>(), std::stod(rows[0].at("detected_us")));
    EXPECT_LT(summary["end_time_us"].get<double>(), 2000.0);
}

// pfc.csv paused_us counts the pause still in force at the end: each deadlocked queue has
// been paused (once) from paused_since_us to the end of the run.
TEST_F(PfcDeadlockTest, PausedTimeCountsPausesInForceAtTheEnd)
{
    const std::string dir = Run(Ring(), "paused");
    const auto deadlocked = Rows(dir + "/deadlocks.csv");
    ASSERT_FALSE(deadlocked.empty());
    const double end =
        nlohmann::json::parse(ReadFile(dir + "/summary.json"))["end_time_us"].get<double>();
    const auto pfc = Rows(dir + "/pfc.csv");
    for (const auto& q : deadlocked)
    {
        bool found = false;
        for (const auto& p : pfc)
        {
            if (p.at("node") == q.at("node") && p.at("port") == q.at("port") &&
                p.at("class") == q.at("class"))
            {
                found = true;
                ASSERT_EQ(p.at("xoff_received"), "1") << "paused once, never resumed";
                EXPECT_NEAR(std::stod(p.at("paused_us")), end - std::stod(q.at("paused_since_us")),
                            1e-6)
                    << q.at("node") << " port " << q.at("port");
            }
        }
        EXPECT_TRUE(found) << q.at("node") << " port " << q.at("port") << " not in pfc.csv";
    }
}

TEST_F(PfcDeadlockTest, WatchdogBreaksTheDeadlockAndEveryFlowCompletes)
{
    nlohmann::json config = Ring();
    config["pfc_watchdog"]["enabled"] = true;
    config["monitors"]["deadlock"]["StopOnDeadlock"] = false;
    config["stop_time"] = "200ms";
    const std::string dir = Run(config, "watchdog");
    const auto summary = nlohmann::json::parse(ReadFile(dir + "/summary.json"));
    EXPECT_EQ(summary["finished"], 5);
    EXPECT_GE(summary["deadlocks"]["count"].get<int>(), 1) << "it deadlocks before the storm";
    EXPECT_TRUE(summary["pfc_watchdog"]["enabled"].get<bool>());
    EXPECT_GE(summary["pfc_watchdog"]["storms_detected"].get<int>(), 5);
    EXPECT_GT(summary["pfc_watchdog"]["dropped_packets"].get<uint64_t>(), 0u);
    EXPECT_EQ(summary["pfc_watchdog"]["dropped_packets"],
              summary["drops"]["switch"]["pfc-watchdog"]);
    EXPECT_GT(summary["retransmitted_packets"].get<uint64_t>(), 0u);
}

// Negative control: without h4's flow the link s4 -> s0 carries only one flow, so the
// dependency chain s0 -> s1 -> ... -> s4 does not close: no deadlock, every flow finishes.
TEST_F(PfcDeadlockTest, BrokenCycleIsNotReported)
{
    nlohmann::json config = Ring();
    config["flows"].erase(4);
    config["monitors"]["deadlock"]["StopOnDeadlock"] = false;
    const std::string dir = Run(config, "broken");
    EXPECT_EQ(Rows(dir + "/deadlocks.csv").size(), 0u);
    const auto summary = nlohmann::json::parse(ReadFile(dir + "/summary.json"));
    EXPECT_EQ(summary["deadlocks"]["count"], 0);
    EXPECT_EQ(summary["finished"], 4);
}

TEST_F(PfcDeadlockTest, SectionsAreCheckedAndRecorded)
{
    nlohmann::json config = Ring();
    config["monitors"]["deadlock"]["CheckInterval"] = "0ns";
    try
    {
        ExperimentConfig::LoadString(config.dump(), "ring.json");
        FAIL() << "a zero CheckInterval was accepted";
    }
    catch (const ExperimentConfigError& e)
    {
        EXPECT_EQ(e.GetPointer(), "/monitors/deadlock/CheckInterval");
    }
    config = Ring();
    config["pfc_watchdog"]["Bogus"] = 1;
    try
    {
        ExperimentConfig::LoadString(config.dump(), "ring.json");
        FAIL() << "an unknown watchdog attribute was accepted";
    }
    catch (const ExperimentConfigError& e)
    {
        EXPECT_EQ(e.GetPointer(), "/pfc_watchdog/Bogus");
    }
    // The effective configuration records both sections, also when absent, and loads again.
    config = Ring();
    config.erase("pfc_watchdog");
    const auto effective = ExperimentConfig::LoadString(config.dump(), "ring.json").EffectiveJson();
    EXPECT_EQ(effective["pfc_watchdog"]["enabled"], false);
    EXPECT_EQ(effective["monitors"]["deadlock"]["enabled"], true);
    EXPECT_EQ(effective["monitors"]["deadlock"]["CheckInterval"], "100us");
    const auto again = ExperimentConfig::LoadString(effective.dump(), "config.json");
    EXPECT_TRUE(again.GetPfcSafety().deadlockMonitor);
    EXPECT_FALSE(again.GetPfcSafety().watchdog);
}

} // namespace
} // namespace ns3
