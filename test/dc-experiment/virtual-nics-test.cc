// Per-host virtual NICs ("nodes"/"virtual_nics"): read, recorded in config.json,
// installed by TopologyBuilder as routed IP aliases (RdmaFabricBuilder), reachable
// by a QP between two aliases, and used by a Maestro endpoint's address pairs.
#include "output-file-reader.h"

#include "ns3/dcb-switch.h"
#include "ns3/experiment-config-error.h"
#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/maestro-helper.h"
#include "ns3/rdma-helper.h"
#include "ns3/simulator.h"
#include "ns3/topology-builder.h"

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

/** 2 leaves x 2 spines, 2 hosts per leaf (h0, h1 on s0; h2, h3 on s1) plus \p nodes. */
std::string
LeafSpine(const std::string& nodes)
{
    return R"({"progress": false,
               "topology": {"type": "leaf_spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 2},
               "flows": [{"src": "h0", "dst": "h3", "bytes": 1000}],
               "nodes": )" +
           nodes + "}";
}

const std::string FOUR_ON_H0_H3 = R"([{"hosts": ["h0", "h3"], "virtual_nics": 4}])";

class VirtualNicsTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    static std::vector<std::string> Addresses(Ptr<RdmaNic> nic)
    {
        std::vector<std::string> out;
        for (const Ipv4Address& a : nic->GetAddresses())
        {
            std::ostringstream s;
            s << a;
            out.push_back(s.str());
        }
        return out;
    }
};

TEST_F(VirtualNicsTest, ReadOverriddenAndRecordedInConfigJson)
{
    const ExperimentConfig config =
        ExperimentConfig::LoadString(LeafSpine(R"([{"hosts": "all", "virtual_nics": 4},
                      {"hosts": "h1", "host_model": "plain"},
                      {"hosts": "h3", "virtual_nics": 2}])"),
                                     "vnics.json");
    const NodeComposition& nodes = config.GetNodes();
    ASSERT_EQ(nodes.hosts.size(), 4u);
    EXPECT_EQ(nodes.hosts[0].virtualNics, 4u);
    EXPECT_EQ(nodes.hosts[1].virtualNics, 4u); // the second entry gives no virtual_nics
    EXPECT_EQ(nodes.hosts[3].virtualNics, 2u); // a later entry overrides
    const auto& eff = config.EffectiveJson()["nodes"];
    EXPECT_EQ(eff[0]["virtual_nics"], 4);
    EXPECT_FALSE(eff[1].contains("virtual_nics"));
    EXPECT_EQ(eff[2]["virtual_nics"], 2);
    // config.json loads again to the same composition.
    const ExperimentConfig again =
        ExperimentConfig::LoadString(config.EffectiveJson().dump(), "config.json");
    for (uint32_t h = 0; h < 4; ++h)
    {
        EXPECT_EQ(again.GetNodes().hosts[h].virtualNics, nodes.hosts[h].virtualNics);
    }
}

TEST_F(VirtualNicsTest, OutOfRangeIsALocatedError)
{
    try
    {
        ExperimentConfig::LoadString(LeafSpine(R"([{"hosts": "h0", "virtual_nics": 65}])"),
                                     "bad.json");
        FAIL() << "no error";
    }
    catch (const ExperimentConfigError& e)
    {
        EXPECT_EQ(e.GetPointer(), "/nodes/0/virtual_nics");
        EXPECT_NE(e.GetReason().find("out of range"), std::string::npos) << e.GetReason();
    }
}

TEST_F(VirtualNicsTest, AliasesAboveEveryPrimaryAndOnlyWhereGiven)
{
    const ExperimentConfig config = ExperimentConfig::LoadString(LeafSpine(FOUR_ON_H0_H3), "v");
    TopologyBuilder topo(config);
    topo.Build();
    // Alias v of host h: 10.0.0.1 + v * 4 + h.
    EXPECT_EQ(Addresses(topo.GetNic(0)),
              (std::vector<std::string>{"10.0.0.1", "10.0.0.5", "10.0.0.9", "10.0.0.13"}));
    EXPECT_EQ(Addresses(topo.GetNic(1)), (std::vector<std::string>{"10.0.0.2"}));
    EXPECT_EQ(Addresses(topo.GetNic(3)),
              (std::vector<std::string>{"10.0.0.4", "10.0.0.8", "10.0.0.12", "10.0.0.16"}));
    const RdmaFabricBuilder& fabric = topo.GetFabric();
    EXPECT_EQ(fabric.FindHost(Ipv4Address("10.0.0.13")), 0);
    EXPECT_EQ(fabric.FindHost(Ipv4Address("10.0.0.6")), -1); // h1 has no alias
    EXPECT_EQ(fabric.FindHost(Ipv4Address("10.0.0.17")), -1);
    // Every switch routes every alias.
    for (uint32_t s = 0; s < topo.GetNSwitches(); ++s)
    {
        for (const char* a : {"10.0.0.5", "10.0.0.13", "10.0.0.8", "10.0.0.16"})
        {
            EXPECT_FALSE(topo.GetSwitch(s)->GetRoute(Ipv4Address(a)).empty()) << s << " " << a;
        }
    }
}

TEST_F(VirtualNicsTest, QueuePairBetweenTwoAliasesCompletes)
{
    const ExperimentConfig config = ExperimentConfig::LoadString(LeafSpine(FOUR_ON_H0_H3), "v");
    TopologyBuilder topo(config);
    topo.Build();
    auto [qa, qb] = RdmaHelper::Connect(topo.GetNic(0), Ipv4Address("10.0.0.9"), topo.GetNic(3),
                                        Ipv4Address("10.0.0.16"));
    EXPECT_EQ(qa->GetLocalAddress(), Ipv4Address("10.0.0.9"));
    EXPECT_EQ(qa->GetRemoteAddress(), Ipv4Address("10.0.0.16"));
    std::vector<RdmaCompletion> done;
    topo.GetNic(0)->TraceConnectWithoutContext(
        "Completion",
        MakeBoundCallback(
            +[](std::vector<RdmaCompletion>* d, const RdmaCompletion& c) { d->push_back(c); },
            &done));
    RdmaWorkRequest wr;
    wr.wrId = 7;
    wr.verb = RdmaVerb::Write;
    wr.length = 100000;
    qa->PostSend(wr);
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    ASSERT_EQ(done.size(), 1u);
    EXPECT_EQ(done[0].wrId, 7u);
    EXPECT_EQ(done[0].status, RdmaWcStatus::Success);
    EXPECT_EQ(done[0].bytes, 100000u);
}

TEST_F(VirtualNicsTest, MaestroEndpointUsesTheAliases)
{
    const ExperimentConfig config = ExperimentConfig::LoadString(LeafSpine(FOUR_ON_H0_H3), "v");
    TopologyBuilder topo(config);
    topo.Build();
    topo.AssignStreams(1);
    Ptr<MaestroEndpoint> ep = MaestroHelper().Install(topo.GetNic(0), topo.GetNic(3));
    Ptr<MaestroQpManager> qm = ep->GetQpManager();
    EXPECT_EQ(qm->GetNAddressPairs(), 16u); // 4 x 4 (vNIC, vNIC) pairs
    ASSERT_GT(qm->GetNPaths(), 0u);
    std::set<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t vp = 0; vp < qm->GetNPaths(); ++vp)
    {
        Ptr<RdmaQueuePair> qp = qm->GetPath(vp).qp;
        EXPECT_EQ(topo.GetFabric().FindHost(qp->GetLocalAddress()), 0);
        EXPECT_EQ(topo.GetFabric().FindHost(qp->GetRemoteAddress()), 3);
        pairs.insert({qp->GetLocalAddress().Get(), qp->GetRemoteAddress().Get()});
    }
    // The virtual paths run over more than the primary pair.
    EXPECT_GT(pairs.size(), 1u);
    Time done;
    ep->TraceConnectWithoutContext(
        "MessageCompleted",
        MakeBoundCallback(
            +[](Time* t, const MaestroMessageCompletion& c) { *t = c.completionTime; }, &done));
    RdmaWorkRequest wr;
    wr.length = 1000000;
    ep->PostSend(wr);
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    EXPECT_GT(done, Time(0)); // the message arrived over the alias paths
}

// A link fault removes the dead port from the ECMP routes to every address, aliases
// included: leaf s0 then reaches h2 (under s1) and its alias only through spine s3.
TEST_F(VirtualNicsTest, LinkDownPrunesTheAliasesRoutesToo)
{
    const ExperimentConfig config = ExperimentConfig::LoadString(
        R"({"progress": false, "stop_time": "50us",
            "topology": {"type": "leaf_spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 2},
            "flows": [{"src": "h0", "dst": "h3", "bytes": 10000000}],
            "nodes": [{"hosts": "all", "virtual_nics": 2}],
            "faults": {"events": [{"time": "10us", "kind": "link_down", "link": ["s0", "s2"]}]}})",
        "vnics.json");
    ExperimentRunner runner(config, test::OutputDir("link-down"));
    Ptr<DcbSwitch> s0;
    std::vector<uint32_t> before;
    Simulator::Schedule(MicroSeconds(5),
                        [&]()
                        {
                            s0 = runner.GetTopology().GetSwitch(0);
                            before = s0->GetRoute(Ipv4Address("10.0.0.7"));
                        });
    runner.Run();
    ASSERT_TRUE(s0);
    EXPECT_EQ(before.size(), 2u);                                // alias 1 of h2: both spines
    EXPECT_EQ(s0->GetRoute(Ipv4Address("10.0.0.3")).size(), 1u); // h2
    EXPECT_EQ(s0->GetRoute(Ipv4Address("10.0.0.7")), s0->GetRoute(Ipv4Address("10.0.0.3")));
}

// End to end: a ring allreduce over Maestro between h0 and h3 (different leaves) with
// a hash that ignores the UDP source port. One address pair puts every virtual path on
// one 50 Gb/s spine; 4 virtual NICs per host give pairs the hash spreads over both.
TEST_F(VirtualNicsTest, ExperimentCollectiveOverMaestroSpreadsOverAliases)
{
    auto finish = [](uint32_t vnics)
    {
        const std::string text =
            R"({"progress": false, "stop_time": "20ms",
                "topology": {"type": "leaf_spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 2,
                             "fabric_link_rate": "50Gbps"},
                "switch": {"EcmpHashSourcePort": false},
                "nodes": [{"hosts": ["h0", "h3"], "virtual_nics": )" +
            std::to_string(vnics) + R"(}],
                "collectives": [{"name": "ar", "type": "ring_allreduce", "hosts": ["h0", "h3"],
                                 "bytes": 4000000, "over": "maestro"}]})";
        const ExperimentConfig config = ExperimentConfig::LoadString(text, "vnics.json");
        const std::string dir = test::OutputDir("vnics" + std::to_string(vnics));
        {
            ExperimentRunner runner(config, dir);
            runner.Run();
        }
        Simulator::Destroy();
        double end = 0;
        const auto lines = test::Lines(test::ReadFile(dir + "/collectives.csv"));
        EXPECT_GT(lines.size(), 1u);
        for (std::size_t i = 1; i < lines.size(); ++i)
        {
            const auto f = test::Fields(lines[i]);
            EXPECT_FALSE(f.at(9).empty()) << lines[i]; // every step finished
            end = std::max(end, f.at(9).empty() ? 1e9 : std::stod(f.at(9)));
        }
        EXPECT_TRUE(std::filesystem::exists(dir + "/nodes.csv"));
        return end;
    };
    const double one = finish(1);
    const double four = finish(4);
    std::cout << "4 MB allreduce h0-h3 over 2 x 50 Gb/s spines: 1 address " << one
              << " us, 4 virtual NICs " << four << " us" << std::endl;
    EXPECT_LT(four, 0.75 * one);
}

} // namespace
} // namespace ns3
