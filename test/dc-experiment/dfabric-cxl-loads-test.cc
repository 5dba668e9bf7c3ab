// CPU loads of reduced segments in an experiment file: "nodes" "dfabric_rack" "cpu" gives each
// compute node a CpuSocket, and a collective "over": "dfabric" then holds every reduce-scatter
// hop until the receiver has loaded its segment (CxlReduceGate). configs/
// dfabric-cxl-loads.json is DFabric C2's slowdown with data in the memory pool; its numbers
// are those of the host-level ring with the same gate (test/host/cxl-load-store-test.cc).
#include "output-file-reader.h"
#include "shipped-experiment-run.h"

#include "ns3/cxl-reduce-gate.h"
#include "ns3/dfabric-rack-helper.h"
#include "ns3/dfabric-rack-hop.h"
#include "ns3/enum.h"
#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/ring-allreduce.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{
namespace
{

using Json = nlohmann::json;
using test::OutputDir;
using test::ReadFile;
using test::RunAsShipped;
using test::Shipped;

class DfabricCxlLoadsTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /** Run \p j into \p dir; \return summary.json. */
    static Json Run(const Json& j, const std::string& dir)
    {
        RunAsShipped(j, "dfabric-cxl-loads.json", dir);
        return Json::parse(ReadFile(dir + "/summary.json"));
    }

    /** The same allreduce over two racks of \p helper at the host level, gated. */
    static double Direct(DfabricRackHelper helper)
    {
        helper.SetCpus(true);
        Ptr<RingAllreduce> ring = CreateObject<RingAllreduce>();
        ring->SetAttribute("Schedule", EnumValue(RingAllreduce::LOCKSTEP));
        ring->SetAttribute("ModelSize", UintegerValue(16777216));
        Ptr<CxlReduceGate> gate = CreateObject<CxlReduceGate>();
        std::vector<DfabricRack> racks = {helper.Create(), helper.Create()};
        ring->SetHops(DfabricRackHop::MakeRing(racks));
        gate->AddRacks(racks);
        ring->SetStepGate(gate->GetCallback());
        ring->Start();
        Simulator::Run();
        const Time took = ring->GetCommunicationTimes().at(0);
        Simulator::Destroy();
        return took.GetSeconds() * 1e6;
    }
};

TEST_F(DfabricCxlLoadsTest, PoolOverLocalMatchesTheHostLevelRing)
{
    Json j = Shipped("dfabric-cxl-loads.json");
    j["progress"] = false;
    const std::string dir = OutputDir("dfabric-cxl-loads");
    const Json summary = Run(j, dir);
    const Json& list = summary.at("collectives");
    ASSERT_EQ(list.size(), 2u);
    const double local = list[0].at("communication_us")[0].get<double>();
    const double pool = list[1].at("communication_us")[0].get<double>();
    DfabricRackHelper helper;
    helper.SetNicAttribute("LineRate", DataRateValue(DataRate("100Gbps")));
    helper.SetNicPoolSize(10);
    EXPECT_NEAR(local, Direct(helper), 1e-6);
    helper.SetMemoryPoolDevices(4);
    EXPECT_NEAR(pool, Direct(helper), 1e-6);
    EXPECT_NEAR(pool / local, 1.91, 0.02);
    // The effective configuration records the key.
    const Json effective = Json::parse(ReadFile(dir + "/config.json"));
    EXPECT_EQ(effective.at("nodes").at(0).at("dfabric_rack").at("cpu").at("MaxOutstanding"), 64);
    // Without "cpu" the racks have no CPUs and the ring runs ungated, as before.
    j["nodes"][0]["dfabric_rack"].erase("cpu");
    const Json plain = Run(j, OutputDir("dfabric-cxl-loads-none"));
    EXPECT_LT(plain.at("collectives")[1].at("communication_us")[0].get<double>(), pool / 3);
}

} // namespace
} // namespace ns3
