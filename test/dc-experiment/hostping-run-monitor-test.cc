// Hostping's hardware monitor in an experiment run ("monitors"/"hostping"): a host with a
// degraded host model (NIC PCIe at x4, +200 ns; Hostping NSDI'23) receiving incast makes its
// RNIC pause the switch, and its monitor triggers by the Tx pause ratio; the control (the
// same run on healthy hosts) gives no abnormal trigger. Also: GPU idleness from the host
// model, the section's reader and its effective record.
#include "output-file-reader.h"
#include "shipped-experiment-run.h"

#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/simulator.h"

#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

using Json = nlohmann::json;
using test::Fields;
using test::Lines;
using test::LoadAsShipped;
using test::OutputDir;
using test::ReadFile;
using test::RunAsShipped;
using test::Shipped;

/** Loaded under the shipped configs' directory, so that profile names resolve. */
ExperimentConfig
Load(const Json& j)
{
    return LoadAsShipped(j, "hostping-test.json");
}

/** One row of hostping.csv, by column name. */
using Row = std::map<std::string, std::string>;

std::vector<Row>
ReadHostping(const std::string& dir)
{
    const std::vector<std::string> lines = Lines(ReadFile(dir + "/hostping.csv"));
    EXPECT_FALSE(lines.empty());
    if (lines.empty())
    {
        return {};
    }
    EXPECT_EQ(lines[0], "time_us,host,reason,rnic,throughput_share,pause_ratio,drops");
    const std::vector<std::string> header = Fields(lines[0]);
    std::vector<Row> rows;
    for (std::size_t i = 1; i < lines.size(); ++i)
    {
        const std::vector<std::string> f = Fields(lines[i]);
        EXPECT_EQ(f.size(), header.size()) << lines[i];
        Row r;
        for (std::size_t c = 0; c < header.size() && c < f.size(); ++c)
        {
            r[header[c]] = f[c];
        }
        rows.push_back(r);
    }
    return rows;
}

class HostpingRunMonitorTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /** Run \p j into \p dir; \return its hostping.csv rows. */
    static std::vector<Row> Run(const Json& j, const std::string& dir)
    {
        EXPECT_EQ(RunAsShipped(j, "hostping-test.json", dir), 0u);
        return ReadHostping(dir);
    }
};

// The degraded host h0 pauses the switch while it receives the incast: its monitor triggers
// by pause ratio, above PauseRatio (3%), at metrics checks (every 100 us); no healthy host
// gives an abnormal trigger, and nothing is dropped (lossless). Control: h0 healthy too, no
// abnormal trigger anywhere.
TEST_F(HostpingRunMonitorTest, DegradedHostTriggersByPauseRatioControlDoesNot)
{
    const Json j = Shipped("hostping-degraded.json");
    const std::string dir = OutputDir("degraded");
    const std::vector<Row> rows = Run(j, dir);
    uint32_t pauses = 0;
    uint32_t idle = 0;
    for (const Row& r : rows)
    {
        const double time = std::stod(r.at("time_us"));
        if (r.at("reason") == "pause_ratio")
        {
            ++pauses;
            EXPECT_EQ(r.at("host"), "h0");
            EXPECT_EQ(r.at("rnic"), "0");
            EXPECT_GT(std::stod(r.at("pause_ratio")), 0.03) << time;
            EXPECT_LE(std::stod(r.at("pause_ratio")), 1.0) << time;
            EXPECT_EQ(r.at("drops"), "0");
            EXPECT_NEAR(std::fmod(time, 100.0), 0.0, 1e-9) << "not at a metrics check";
        }
        else
        {
            ASSERT_EQ(r.at("reason"), "idle") << "abnormal trigger at " << time;
            ++idle;
            EXPECT_NEAR(std::fmod(time, 200.0), 0.0, 1e-9) << "not at a status check";
            EXPECT_LT(std::stod(r.at("throughput_share")), 0.05);
        }
    }
    EXPECT_GE(pauses, 2u); // 4 MB through a x4 link: several metrics periods
    // The summary and the README agree with the file.
    const Json summary = Json::parse(ReadFile(dir + "/summary.json"));
    EXPECT_EQ(summary["hostping"]["hosts"], Json::array({"h0", "h1", "h2", "h3", "h4"}));
    EXPECT_EQ(summary["hostping"]["triggers"], rows.size());
    EXPECT_EQ(summary["hostping"]["pause_ratio"], pauses);
    EXPECT_EQ(summary["hostping"]["idle"], idle);
    EXPECT_EQ(summary["hostping"]["drops"], 0);
    const std::string readme = ReadFile(dir + "/README");
    EXPECT_NE(readme.find("hostping.csv: Hostping's hardware monitor"), std::string::npos);
    EXPECT_NE(readme.find("columns: time_us,host,reason,rnic,throughput_share,pause_ratio,drops"),
              std::string::npos);
    // The switch port facing h0 was really paused (pfc.csv), the others were not.
    bool h0Paused = false;
    for (const std::string& line : Lines(ReadFile(dir + "/pfc.csv")))
    {
        const std::vector<std::string> f = Fields(line);
        if (f.at(0) == "h0" && f.at(1) != "port")
        {
            h0Paused = h0Paused || std::stoull(f.at(3)) > 0;
        }
        for (const std::string& h : {"h1", "h2", "h3", "h4"})
        {
            EXPECT_TRUE(f.at(0) != h || f.at(3) == "0") << line;
        }
    }
    EXPECT_TRUE(h0Paused);

    // Control: the same run, every host healthy.
    Json control = j;
    control["nodes"].erase(1);
    const std::string controlDir = OutputDir("control");
    for (const Row& r : Run(control, controlDir))
    {
        EXPECT_EQ(r.at("reason"), "idle") << r.at("host") << " at " << r.at("time_us");
    }

    // Same configuration and seed: the same file, byte for byte.
    const std::string again = OutputDir("again");
    Run(j, again);
    EXPECT_EQ(ReadFile(again + "/hostping.csv"), ReadFile(dir + "/hostping.csv"));
}

// GPU idleness: an idle host whose GPU is busy with DMA (a GPUDirect stream of another
// tenant, host_dma_flows) is not probed; the same idle host without the stream is, at every
// status check, and so is an idle host without a host model (no GPUs to ask).
TEST_F(HostpingRunMonitorTest, BusyGpusKeepAnIdleHostFromBeingProbed)
{
    Json j = Json::parse(R"({
      "seed": 1, "stop_time": "5ms", "progress": false,
      "topology": {"type": "incast", "senders": 4},
      "flows": [{"src": "h1", "dst": "h0", "bytes": 5000000}],
      "nodes": [{"hosts": ["h2", "h3"], "host_model": "dgx-like"}],
      "host_dma_flows": [{"hosts": "h2", "target": "gpu0", "attributes": {"Kind": "Write"}}],
      "monitors": {"hostping": {"hosts": ["h2", "h3", "h4"], "StatusPeriod": "100us",
                                "MetricsPeriod": "50us"}}
    })");
    const std::vector<Row> rows = Run(j, OutputDir("gpu"));
    std::map<std::string, uint32_t> idle;
    for (const Row& r : rows)
    {
        EXPECT_EQ(r.at("reason"), "idle");
        ++idle[r.at("host")];
    }
    EXPECT_EQ(idle.count("h2"), 0u);
    // 5 MB at 100 Gb/s: the run lasts over 400 us, so at least 4 status checks.
    EXPECT_GE(idle["h3"], 4u);
    EXPECT_EQ(idle["h4"], idle["h3"]);
}

TEST_F(HostpingRunMonitorTest, SectionDefaultsAndEffectiveRecord)
{
    // Absent: off, recorded with the attributes' sourced defaults.
    Json j = Shipped("hostping-degraded.json");
    j.erase("monitors");
    const ExperimentConfig off = Load(j);
    EXPECT_FALSE(off.GetMonitors().hostping.enabled);
    const Json offEff = Json::parse(off.EffectiveJson().dump())["monitors"]["hostping"];
    EXPECT_EQ(offEff["enabled"], false);
    EXPECT_EQ(offEff["StatusPeriod"], "300s");
    EXPECT_EQ(offEff["MetricsPeriod"], "1s");
    EXPECT_EQ(offEff["PauseRatio"], 0.03);
    EXPECT_EQ(offEff["IdleThroughput"], 0.05);

    // Given: on the hosts with a host model, by name, with the file's attributes; loading
    // the record again gives the same section.
    j = Shipped("hostping-degraded.json");
    j["nodes"] = Json::array({{{"hosts", "h1-h2"}, {"host_model", "plain"}}});
    j["monitors"]["hostping"]["PauseRatio"] = 0.1;
    const ExperimentConfig on = Load(j);
    EXPECT_TRUE(on.GetMonitors().hostping.enabled);
    EXPECT_EQ(on.GetMonitors().hostping.hosts, (std::vector<uint32_t>{1, 2}));
    const Json eff = Json::parse(on.EffectiveJson().dump())["monitors"]["hostping"];
    EXPECT_EQ(eff["enabled"], true);
    EXPECT_EQ(eff["hosts"], Json::array({"h1", "h2"}));
    EXPECT_EQ(eff["StatusPeriod"], "200us");
    EXPECT_EQ(eff["PauseRatio"], 0.1);
    const ExperimentConfig again = Load(Json::parse(on.EffectiveJson().dump()));
    EXPECT_EQ(again.EffectiveJson()["monitors"]["hostping"].dump(),
              on.EffectiveJson()["monitors"]["hostping"].dump());

    // "enabled": false keeps the monitor off whatever else the section says.
    j["monitors"]["hostping"]["enabled"] = false;
    EXPECT_FALSE(Load(j).GetMonitors().hostping.enabled);
}

} // namespace
} // namespace ns3
