// FabricBisection (max-flow min-cut between the two host halves) on the
// built-in topologies, and the Poisson workload's "load_reference":
// "bisection" option: its arrival rate against the formula and the flow
// counts it produces on a non-blocking and an oversubscribed fabric.
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/experiment-config-error.h"
#include "ns3/experiment-config.h"
#include "ns3/fabric-bisection.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/poisson-flow-generator.h"
#include "ns3/simulator.h"

#include <cmath>
#include <gtest/gtest.h>
#include <string>

namespace ns3
{
namespace
{

const std::string CDF = std::string(ROCE_LAB_SOURCE_DIR) + "/traces/fb-cachefollower-srnic.cdf";

class BisectionTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    static ExperimentConfig Load(const std::string& topology, const std::string& workload)
    {
        return ExperimentConfig::LoadString("{\"stop_time\": \"10ms\", \"topology\": " + topology +
                                                ", \"workload\": " + workload + "}",
                                            "b.json");
    }

    static std::string Workload(double load, const std::string& reference)
    {
        return "{\"type\": \"poisson\", \"cdf\": \"" + CDF +
               "\", \"load\": " + std::to_string(load) +
               ", \"duration\": \"2ms\", \"load_reference\": \"" + reference + "\"}";
    }

    static double BisectionGbps(const std::string& topology)
    {
        const ExperimentConfig c = Load(topology, Workload(0.1, "host_link"));
        return FabricBisection::Compute(c.GetTopology()).GetBitRate() / 1e9;
    }
};

const std::string LEAF_SPINE_4_TO_1 =
    R"({"type": "leaf_spine", "leaves": 4, "spines": 2, "hosts_per_leaf": 8,
        "host_link_rate": "100Gbps", "fabric_link_rate": "100Gbps"})";
const std::string LEAF_SPINE_1_TO_1 =
    R"({"type": "leaf_spine", "leaves": 4, "spines": 8, "hosts_per_leaf": 8,
        "host_link_rate": "100Gbps", "fabric_link_rate": "100Gbps"})";

TEST_F(BisectionTest, MinCutOfBuiltInTopologies)
{
    // SRNIC's 1:1 fat-trees: n/2 host links of 100 Gb/s.
    EXPECT_DOUBLE_EQ(BisectionGbps(R"({"type": "fat_tree", "srnic_servers": 16})"), 800);
    EXPECT_DOUBLE_EQ(BisectionGbps(R"({"type": "fat_tree", "srnic_servers": 64})"), 3200);
    EXPECT_DOUBLE_EQ(BisectionGbps(R"({"type": "fat_tree", "srnic_servers": 256})"), 12800);
    // Non-blocking leaf-spine: the hosts' half, 16 x 100 Gb/s.
    EXPECT_DOUBLE_EQ(BisectionGbps(LEAF_SPINE_1_TO_1), 1600);
    // 4:1 oversubscribed leaves: the two leaves' uplinks, 2 x 2 x 100 Gb/s.
    EXPECT_DOUBLE_EQ(BisectionGbps(LEAF_SPINE_4_TO_1), 400);
    // Odd host count: 2 hosts against 3 on one switch.
    EXPECT_DOUBLE_EQ(BisectionGbps(R"({"type": "incast", "senders": 4})"), 200);
}

TEST_F(BisectionTest, GeneratorRateFollowsTheCrossingShare)
{
    const FlowSizeCdf cdf = FlowSizeCdf::LoadFile(CDF);
    Ptr<PoissonFlowGenerator> gen = CreateObject<PoissonFlowGenerator>();
    gen->SetSizeDistribution(cdf);
    gen->SetAttribute("Load", DoubleValue(0.5));
    const double hostLambda = gen->GetArrivalRatePerHost();
    EXPECT_DOUBLE_EQ(hostLambda, 0.5 * 100e9 / (8 * cdf.GetMean()));
    // 32 hosts, B = 400 Gb/s: all hosts offer 0.5 x 400G x 32 x 31 / (16 x 16).
    gen->SetAttribute("BisectionRate", DataRateValue(DataRate("400Gbps")));
    const double offered = 0.5 * 400e9 * 32 * 31 / (16.0 * 16.0);
    EXPECT_NEAR(gen->GetArrivalRatePerHost(32), offered / 32 / (8 * cdf.GetMean()), 1e-6);
    gen->Dispose();
}

TEST_F(BisectionTest, BisectionLoadScalesTheWorkloadWithTheFabric)
{
    // Same nominal load: on the 4:1 fabric the bisection is a quarter of the
    // non-blocking one, so a quarter of the flows arrive.
    const auto hostFlows = Load(LEAF_SPINE_4_TO_1, Workload(0.5, "host_link")).GetFlows().size();
    const auto fullFlows = Load(LEAF_SPINE_1_TO_1, Workload(0.5, "bisection")).GetFlows().size();
    const auto overFlows = Load(LEAF_SPINE_4_TO_1, Workload(0.5, "bisection")).GetFlows().size();
    // Non-blocking: B = n r / 2, so the hosts offer 2 (n-1)/n x load; Poisson, 5 sigma.
    const double expectFull = hostFlows * 2.0 * 31 / 32;
    EXPECT_NEAR(fullFlows, expectFull, 5 * std::sqrt(expectFull));
    const double expectOver = expectFull / 4;
    EXPECT_NEAR(overFlows, expectOver, 5 * std::sqrt(expectOver));
    EXPECT_GT(overFlows, 20u);
}

TEST_F(BisectionTest, UnknownLoadReferenceNamesTheField)
{
    try
    {
        Load(LEAF_SPINE_4_TO_1, Workload(0.5, "core"));
        FAIL() << "no error";
    }
    catch (const ExperimentConfigError& e)
    {
        const std::string what = e.what();
        EXPECT_NE(what.find("/workload/load_reference"), std::string::npos) << what;
    }
}

} // namespace
} // namespace ns3
