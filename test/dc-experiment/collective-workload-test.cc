// Collectives in an experiment ("collectives", CollectiveWorkload) and the composite
// experiment (configs/composite-64.json) on a smaller fabric, each effect with a
// control that removes its cause: the ring allreduce completes over Maestro and over QPs
// and takes longer sharing the fabric with Cache_Follower load than alone; the degraded
// hosts originate PFC pauses that their ToR passes upstream, and without them no host
// pauses; NICs with an on-chip memory model report QPC/MTT/WQE misses and without one none.
#include "output-file-reader.h"
#include "shipped-experiment-run.h"

#include "ns3/experiment-config-error.h"
#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{
namespace
{

using Json = nlohmann::json;
using test::CONFIGS;
using test::Lines;
using test::OutputDir;
using test::ReadFile;
using test::RunAsShipped;
using test::Shipped;
using test::Table;

/**
 * composite-64.json on a 16-host fabric of the same shape (4 ToRs of 4 hosts, 4 Aggs,
 * 100G hosts, 400G fabric): h0-h1 degraded, SRNIC memory under tor2 and tor3, the
 * allreduce among h2, h6, h10, h14, h3, h7, h11, h15 (two per ToR, none degraded).
 */
Json
Composite()
{
    Json j = Shipped("composite-64.json");
    j["progress"] = false;
    j["topology"] = {{"type", "fat_tree"},          {"tors_per_pod", 4},
                     {"aggs_per_pod", 4},           {"hosts_per_tor", 4},
                     {"host_link_rate", "100Gbps"}, {"fabric_link_rate", "400Gbps"}};
    j["workload"]["load"] = 0.6;
    j["workload"]["duration"] = "200us";
    j["nodes"][2]["hosts"] = "h0-h1";
    j["collectives"][0]["hosts"] = {"h2", "h6", "h10", "h14", "h3", "h7", "h11", "h15"};
    j["collectives"][0]["bytes"] = 2000000;
    return j;
}

class CollectiveWorkloadTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /** Run \p j into \p dir; \return the collectives' communication times (us), per row. */
    static void Run(const Json& j, const std::string& dir)
    {
        EXPECT_EQ(RunAsShipped(j, "collective-test.json", dir), 0u);
    }

    /** \return the iteration rows' duration_us of collectives.csv in \p dir. */
    static std::vector<double> IterationTimes(const std::string& dir)
    {
        std::vector<double> out;
        for (const auto& row : Table(dir + "/collectives.csv"))
        {
            if (row.at("kind") == "iteration")
            {
                EXPECT_FALSE(row.at("end_us").empty()) << "unfinished iteration in " << dir;
                out.push_back(row.at("end_us").empty() ? 0 : std::stod(row.at("duration_us")));
            }
        }
        return out;
    }

    /** Sum of xoff_sent in pfc.csv over the rows of \p node. */
    static uint64_t XoffSent(const std::string& dir, const std::string& node)
    {
        uint64_t n = 0;
        for (const auto& row : Table(dir + "/pfc.csv"))
        {
            n += row.at("node") == node ? std::stoull(row.at("xoff_sent")) : 0;
        }
        return n;
    }
};

TEST_F(CollectiveWorkloadTest, ReaderRecordsTheSectionAndRingOrder)
{
    Json j = Composite();
    j["collectives"].push_back({{"type", "allgather"},
                                {"hosts", {{"range", {4, 8}}}},
                                {"bytes", 1000},
                                {"over", "qps"},
                                {"iterations", 3},
                                {"compute_time", "5us"}});
    const ExperimentConfig c = ExperimentConfig::LoadString(j.dump(), CONFIGS + "x.json");
    const auto& all = c.GetCollectives();
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].name, "allreduce");
    EXPECT_TRUE(all[0].overMaestro);
    EXPECT_EQ(all[0].hosts, (std::vector<uint32_t>{2, 6, 10, 14, 3, 7, 11, 15}));
    EXPECT_EQ(all[0].start, MicroSeconds(50));
    EXPECT_EQ(all[1].name, "collective1");
    EXPECT_EQ(all[1].type, "allgather");
    EXPECT_FALSE(all[1].overMaestro);
    EXPECT_EQ(all[1].hosts, (std::vector<uint32_t>{4, 5, 6, 7}));
    EXPECT_EQ(all[1].iterations, 3u);
    EXPECT_EQ(all[1].computeTime, MicroSeconds(5));
    // config.json's record loads back to the same section.
    const auto& eff = c.EffectiveJson()["collectives"];
    EXPECT_EQ(eff[1]["hosts"].dump(), R"(["h4","h5","h6","h7"])");
    EXPECT_EQ(eff[0]["maestro"]["qp_manager"]["NumPaths"].dump(), "4");
    const ExperimentConfig again =
        ExperimentConfig::LoadString(c.EffectiveJson().dump(), CONFIGS + "x.json");
    EXPECT_EQ(again.EffectiveJson()["collectives"].dump(), eff.dump());
}

// "bytes" up to 2^40 is legal, but a ring step of more bytes than the
// 24-bit PSN window lets one work request span aborted the run (SIGABRT). Each step now
// goes as WRITEs of at most MaestroRingLink's MaxMessageBytes: the run reaches its stop
// time, moving data, and writes its outputs.
TEST_F(CollectiveWorkloadTest, AStepBeyondThePsnWindowRunsAsSeveralWrites)
{
    const Json j = Json::parse(R"({
      "seed": 1, "stop_time": "40us", "progress": false,
      "topology": {"type": "leaf_spine", "leaves": 1, "spines": 1, "hosts_per_leaf": 2,
                   "host_link_rate": "100Gbps", "fabric_link_rate": "100Gbps",
                   "link_delay": "1us"},
      "collectives": [{"type": "ring_allreduce", "hosts": ["h0", "h1"],
                       "bytes": 1099511627776, "over": "qps"}]})");
    const std::string dir = OutputDir("huge-step");
    {
        const ExperimentConfig config = test::LoadAsShipped(j, "collective-test.json");
        ExperimentRunner runner(config, dir);
        runner.Run();
        EXPECT_EQ(runner.GetEndTime(), MicroSeconds(40));
    }
    Simulator::Destroy();
    const auto rows = Table(dir + "/collectives.csv");
    ASSERT_FALSE(rows.empty());
    EXPECT_TRUE(rows[0].at("end_us").empty()); // 512 GiB per step: far from done at 40 us
}

// Alone on the fabric (no flows), the allreduce completes over Maestro and over one QP
// per hop; every step is in collectives.csv and the time is at least the ring's bound,
// 2(N-1)/N x bytes at the 100G host rate.
TEST_F(CollectiveWorkloadTest, AllreduceAloneCompletesOverMaestroAndOverQps)
{
    Json j = Composite();
    j.erase("workload");
    std::map<std::string, double> time;
    for (const std::string over : {"maestro", "qps"})
    {
        j["collectives"][0]["over"] = over;
        if (over == "qps")
        {
            j["collectives"][0].erase("maestro");
        }
        const std::string dir = OutputDir(over);
        Run(j, dir);
        const auto rows = Table(dir + "/collectives.csv");
        ASSERT_EQ(rows.size(), 15u) << over; // 14 steps, 1 iteration
        for (std::size_t s = 0; s < 14; ++s)
        {
            EXPECT_EQ(rows[s].at("kind"), "step");
            EXPECT_EQ(rows[s].at("step"), std::to_string(s));
            EXPECT_EQ(rows[s].at("bytes"), "250000");
        }
        EXPECT_EQ(rows[14].at("over"), over);
        EXPECT_EQ(rows[14].at("start_us"), "50.000000");
        EXPECT_EQ(rows[14].at("failed_messages"), "0");
        time[over] = IterationTimes(dir).at(0);
        const double bound = 14.0 / 8 * 2e6 * 8 / 100e9 * 1e6; // us
        EXPECT_GT(time[over], bound) << over;
        EXPECT_LT(time[over], 2 * bound) << over;
        EXPECT_NE(ReadFile(dir + "/README").find("collectives.csv"), std::string::npos);
    }
}

// The allreduce takes longer when the Cache_Follower load shares the fabric (control: the
// same collective alone), over Maestro and over QPs; the flows all complete.
TEST_F(CollectiveWorkloadTest, AllreduceSlowsUnderLoadControlAlone)
{
    for (const std::string over : {"maestro", "qps"})
    {
        Json j = Composite();
        j["collectives"][0]["over"] = over;
        if (over == "qps")
        {
            j["collectives"][0].erase("maestro");
        }
        const std::string loaded = OutputDir(over + "-loaded");
        Run(j, loaded);
        j.erase("workload");
        const std::string alone = OutputDir(over + "-alone");
        Run(j, alone);
        EXPECT_GT(IterationTimes(loaded).at(0), 1.05 * IterationTimes(alone).at(0)) << over;
    }
}

// h0 and h1 (x4 PCIe, +200 ns) cannot drain at 100G what the load and a 6-to-1 incast of
// 500 KB WRITEs each (from hosts of tor1..tor3 outside the ring) send them: their NICs pause
// tor0's ports toward them, and tor0 passes the pauses upstream to the Aggs. Control: the
// same run without the degraded host model, where no host pauses and tor0 pauses the Aggs
// less (the incast alone may fill its queues too).
TEST_F(CollectiveWorkloadTest, DegradedHostsOriginatePausesControlHasNone)
{
    Json j = Composite();
    const Json senders = {"h4", "h5", "h8", "h9", "h12", "h13"};
    j["flow_sets"] = Json::array();
    for (const std::string dst : {"h0", "h1"})
    {
        j["flow_sets"].push_back({{"type", "incast"},
                                  {"senders", senders},
                                  {"dst", dst},
                                  {"bytes", 500000},
                                  {"start", "20us"},
                                  {"priority", 3}});
    }
    const std::string dir = OutputDir("degraded");
    Run(j, dir);
    EXPECT_GT(XoffSent(dir, "h0"), 0u);
    EXPECT_GT(XoffSent(dir, "h1"), 0u);
    for (uint32_t h = 2; h < 16; ++h)
    {
        EXPECT_EQ(XoffSent(dir, "h" + std::to_string(h)), 0u) << h;
    }
    // tor0's ports toward h0 and h1 (ports 0 and 1) were paused.
    for (const auto& row : Table(dir + "/pfc.csv"))
    {
        if (row.at("node") == "tor0" && row.at("class") == "3" &&
            (row.at("port") == "0" || row.at("port") == "1"))
        {
            EXPECT_GT(std::stoull(row.at("xoff_received")), 0u) << row.at("port");
            EXPECT_GT(std::stod(row.at("paused_us")), 0.0) << row.at("port");
        }
    }
    const uint64_t spread = XoffSent(dir, "tor0");
    EXPECT_GT(spread, 0u);

    j["nodes"].erase(2);
    const std::string control = OutputDir("control");
    Run(j, control);
    for (uint32_t h = 0; h < 16; ++h)
    {
        EXPECT_EQ(XoffSent(control, "h" + std::to_string(h)), 0u) << h;
    }
    EXPECT_LT(XoffSent(control, "tor0"), spread);
}

// Every NIC has an on-chip memory model (SRNIC's under tor2 and tor3, CX-6's elsewhere):
// nodes.csv reports its QPC, MTT and WQE lookups; the control without "nic_cache" has none.
TEST_F(CollectiveWorkloadTest, CacheModelsReportMissesControlHasNone)
{
    Json j = Composite();
    const std::string dir = OutputDir("cache");
    Run(j, dir);
    uint64_t misses[2] = {0, 0};
    for (const auto& row : Table(dir + "/nodes.csv"))
    {
        const uint32_t h = std::stoul(row.at("node").substr(1));
        EXPECT_EQ(row.at("nic_cache"), h >= 8 ? "srnic" : "cx6") << h;
        ASSERT_FALSE(row.at("qpc_misses").empty());
        misses[h >= 8] += std::stoull(row.at("qpc_misses")) + std::stoull(row.at("mtt_misses")) +
                          std::stoull(row.at("wqe_misses"));
    }
    EXPECT_GT(misses[0], 0u);
    EXPECT_GT(misses[1], 0u);

    j["nodes"][0].erase("nic_cache");
    j["nodes"].erase(1);
    const std::string control = OutputDir("control");
    Run(j, control);
    for (const auto& row : Table(control + "/nodes.csv"))
    {
        EXPECT_EQ(row.at("qpc_misses"), "") << row.at("node");
        EXPECT_EQ(row.at("wqe_misses"), "") << row.at("node");
    }
}

// A collective's work requests have ids of their own (a ring link's WRITE is wr_id 0, a
// Maestro chunk its slot): the runner takes a completion as a flow's only on that flow's
// QP at that flow's host. Flow 0 (h4 -> h5, under tor1) shares nothing with the ring on
// tor0's hosts, so its row of flows.csv is the same with and without the collective.
TEST_F(CollectiveWorkloadTest, CollectiveCompletionsAreNotFlowCompletions)
{
    Json j = Composite();
    j.erase("workload");
    j.erase("nodes");
    j["flows"] = Json::array({{{"src", "h4"}, {"dst", "h5"}, {"bytes", 2000000}}});
    j["collectives"][0]["over"] = "qps";
    j["collectives"][0].erase("maestro");
    j["collectives"][0]["hosts"] = "h0-h3";
    j["collectives"][0]["start"] = "0us";
    j["collectives"][0]["bytes"] = 40000;
    const std::string with = OutputDir("with");
    Run(j, with);
    j.erase("collectives");
    const std::string without = OutputDir("without");
    Run(j, without);
    EXPECT_EQ(Lines(ReadFile(with + "/flows.csv")), Lines(ReadFile(without + "/flows.csv")));
}

} // namespace
} // namespace ns3
