// DFabric racks in an experiment ("nodes" "dfabric_rack", DfabricRackReader) and the ring
// allreduce between them (collectives "over": "dfabric": RingAllreduce over DfabricRackHops):
// DFabric Fig. 2 as roce-run's experiment file configs/dfabric-pool{,-small}.json.
// The numbers are those of the host-level ring run alone (and of the scratch program
// dfabric-pool this file replaced), so the figure keeps its values.
#include "output-file-reader.h"
#include "shipped-experiment-run.h"

#include "ns3/dfabric-rack-helper.h"
#include "ns3/dfabric-rack-hop.h"
#include "ns3/enum.h"
#include "ns3/experiment-config-error.h"
#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/ring-allreduce.h"
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
using test::Fields;
using test::Lines;
using test::OutputDir;
using test::ReadFile;
using test::RunAsShipped;
using test::Shipped;

class DfabricCollectiveTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    static Json Small(uint32_t nics)
    {
        Json j = Shipped("dfabric-pool-small.json");
        j["progress"] = false;
        j["nodes"][0]["dfabric_rack"]["nic_pool_size"] = nics;
        return j;
    }

    /** Run \p j into \p dir; \return summary.json. */
    static Json Run(const Json& j, const std::string& dir)
    {
        RunAsShipped(j, "dfabric-test.json", dir);
        return Json::parse(ReadFile(dir + "/summary.json"));
    }

    /** One allreduce of \p bytes over two racks of \p helper alone (the old program's run). */
    static Time Direct(const DfabricRackHelper& helper, uint64_t bytes)
    {
        Ptr<RingAllreduce> ring = CreateObject<RingAllreduce>();
        ring->SetAttribute("Schedule", EnumValue(RingAllreduce::LOCKSTEP));
        ring->SetAttribute("ModelSize", UintegerValue(bytes));
        ring->SetHops(DfabricRackHop::MakeRing({helper.Create(), helper.Create()}));
        ring->Start();
        Simulator::Run();
        const Time took = ring->GetCommunicationTimes().at(0);
        Simulator::Destroy();
        return took;
    }
};

TEST_F(DfabricCollectiveTest, ExperimentFileGivesTheHostLevelRingsNumbers)
{
    // dfabric-pool-small.json: three scenarios side by side (two racks each), 4 MB.
    // Before (scratch/dfabric-pool on dfabric-pool-small.json, main at a38c47a), time in us:
    // pool 1: 596.456, 596.456, 597.576; pool 10: 82.642, 295.974, 83.762. That program ran
    // at ns-3's default time resolution (1 ns), roce-run runs at 1 ps: the fluid model's
    // events round to the resolution, so the old times are a few ns to 0.15 us (at most
    // 1.3e-4 of the time over the whole figure) longer; the same code at 1 ps (Direct,
    // below: this test binary's resolution) gives the new numbers exactly.
    const std::map<uint32_t, std::vector<double>> before = {{1, {596.456, 596.456, 597.576}},
                                                            {10, {82.642, 295.974, 83.762}}};
    for (const auto& [nics, expected] : before)
    {
        const Json summary = Run(Small(nics), OutputDir("dfabric-small-" + std::to_string(nics)));
        const Json& list = summary.at("collectives");
        ASSERT_EQ(list.size(), 3u);
        for (uint32_t s = 0; s < 3; ++s)
        {
            ASSERT_EQ(list[s].at("finished_iterations"), 1);
            EXPECT_EQ(list[s].at("over"), "dfabric");
            const double us = list[s].at("communication_us")[0].get<double>();
            EXPECT_NEAR(us, expected[s], 2e-4 * expected[s]) << list[s].at("name") << " " << nics;
            EXPECT_LE(us, expected[s]) << list[s].at("name") << " " << nics;
            // "optimal": 2 (P - 1) (S / P) at 960 Gb/s, P = 8, S = 4 MiB.
            EXPECT_NEAR(list[s].at("optimal_us").get<double>(), 61.16693, 1e-4);
            EXPECT_NEAR(list[s].at("normalized")[0].get<double>(),
                        us / list[s].at("optimal_us").get<double>(), 1e-9);
        }
        // The same racks run alone at the host level, to the picosecond.
        DfabricRackHelper full;
        full.SetNicAttribute("LineRate", DataRateValue(DataRate("100Gbps")));
        full.SetNicPoolAttribute("ChunkSize", UintegerValue(16384));
        full.SetNicPoolAttribute("MaxQueuedChunks", UintegerValue(4));
        full.SetNicPoolSize(nics);
        DfabricRackHelper reduced = full;
        reduced.SetLocalMemoryAttribute("Channels", UintegerValue(1));
        DfabricRackHelper pooled = reduced;
        pooled.SetMemoryPoolDevices(4);
        const DfabricRackHelper* helpers[] = {&full, &reduced, &pooled};
        for (uint32_t s = 0; s < 3; ++s)
        {
            const Time t = Direct(*helpers[s], 4194304);
            EXPECT_NEAR(list[s].at("communication_us")[0].get<double>(), t.GetSeconds() * 1e6, 1e-6)
                << list[s].at("name");
        }
    }
}

TEST_F(DfabricCollectiveTest, StepsAndIterationsLandInCollectivesCsv)
{
    Json j = Small(10);
    j["collectives"] = Json::array({j["collectives"][0]});
    j["collectives"][0]["iterations"] = 2;
    j["collectives"][0]["compute_time"] = "10us";
    j["collectives"][0]["start"] = "5us";
    const std::string dir = OutputDir("dfabric-iterations");
    const Json summary = Run(j, dir);
    const std::vector<std::string> lines = Lines(ReadFile(dir + "/collectives.csv"));
    // Header, 2 x (14 steps + 1 iteration): 2 (P - 1) steps of 8 ranks.
    ASSERT_EQ(lines.size(), 1u + 2 * 15);
    std::vector<std::vector<std::string>> iterations;
    for (std::size_t i = 1; i < lines.size(); ++i)
    {
        const std::vector<std::string> f = Fields(lines[i]);
        EXPECT_EQ(f.at(1), "ring_allreduce");
        EXPECT_EQ(f.at(2), "dfabric");
        EXPECT_EQ(f.at(3), "8");
        if (f.at(4) == "iteration")
        {
            iterations.push_back(f);
        }
        else
        {
            EXPECT_EQ(f.at(7), "524288"); // 4 MiB / 8 ranks
        }
    }
    ASSERT_EQ(iterations.size(), 2u);
    // The first communication starts after start + compute_time, the second compute_time
    // after the first ended; both take the same time (nothing else runs).
    EXPECT_EQ(iterations[0].at(8), "15.000000");
    const double end0 = std::stod(iterations[0].at(9));
    EXPECT_NEAR(std::stod(iterations[1].at(8)), end0 + 10, 1e-6);
    EXPECT_EQ(iterations[0].at(10), iterations[1].at(10));
    EXPECT_EQ(summary.at("collectives")[0].at("communication_us").size(), 2u);
}

TEST_F(DfabricCollectiveTest, RacksComposeFieldByFieldAndConfigJsonReloads)
{
    // The effective config.json records "dfabric_rack" as given; loading it again gives the
    // same numbers.
    const std::string dir = OutputDir("dfabric-reload");
    const Json first = Run(Small(4), dir);
    const Json effective = Json::parse(ReadFile(dir + "/config.json"));
    EXPECT_EQ(effective.at("nodes")[1].at("dfabric_rack"),
              Json::parse(R"({"local_memory": {"Channels": 1}})"));
    EXPECT_EQ(effective.at("collectives")[2].at("over"), "dfabric");
    const Json second = Run(effective, OutputDir("dfabric-reload-2"));
    EXPECT_EQ(first.at("collectives"), second.at("collectives"));
    // The reduced-memory racks (entry 1 adds one channel to entry 0's rack) plateau at the
    // memory's 204.8 Gb/s while the full ones keep gaining from pool 4 on.
    const Json& c = first.at("collectives");
    EXPECT_GT(c[1].at("normalized")[0].get<double>(), 1.5 * c[0].at("normalized")[0].get<double>());
}

TEST_F(DfabricCollectiveTest, CollectivesSharingARackShareItsNicPool)
{
    // Two allreduces over the same two racks at once take longer than one alone: they share
    // the racks' NIC pools (a control for the independence of the three scenarios).
    Json j = Small(1);
    j["collectives"] = Json::array({j["collectives"][0], j["collectives"][0]});
    j["collectives"][1]["name"] = "second";
    const Json both = Run(j, OutputDir("dfabric-shared"));
    const double alone = 596.456;
    for (const Json& c : both.at("collectives"))
    {
        EXPECT_GT(c.at("communication_us")[0].get<double>(), 1.8 * alone) << c.at("name");
    }
}

} // namespace
} // namespace ns3
