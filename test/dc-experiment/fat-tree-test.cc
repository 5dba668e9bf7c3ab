// Fat-tree topologies: SRNIC's five scales and k-ary shapes have the right
// switch, link and port counts; every host reaches every other host along
// every ECMP branch, and the ECMP groups of a tier all have the same size.
#include "topology-config.h"

#include "ns3/dcb-channel.h"
#include "ns3/dcb-net-device.h"
#include "ns3/dcb-switch.h"
#include "ns3/experiment-config-error.h"
#include "ns3/experiment-config.h"
#include "ns3/fat-tree-topology.h"
#include "ns3/simulator.h"
#include "ns3/topology-builder.h"

#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

ExperimentConfig
Load(const std::string& topology)
{
    return test::LoadTopology(topology, "fat.json");
}

std::string
ErrorOf(const std::string& topology)
{
    return test::TopologyError(topology, "fat.json");
}

/** Degree of every node of \p t. */
std::vector<uint32_t>
Degrees(const ExperimentTopology& t)
{
    std::vector<uint32_t> d(t.GetNNodes(), 0);
    for (const auto& l : t.links)
    {
        ++d[l.a];
        ++d[l.b];
    }
    return d;
}

struct Scale
{
    uint32_t servers;
    uint32_t tors;
    uint32_t aggs;
    uint32_t cores;
};

TEST(FatTreeExperimentTest, SrnicScalesHavePaperCountsAndFullBisection)
{
    // SRNIC §6.3: (ToR, Agg, Core) for 16 .. 4096 servers.
    const std::vector<Scale> scales = {
        {16, 1, 0, 0}, {64, 4, 4, 0}, {256, 8, 8, 0}, {1024, 64, 64, 16}, {4096, 128, 128, 64}};
    for (const Scale& s : scales)
    {
        SCOPED_TRACE(s.servers);
        const ExperimentConfig c =
            Load(R"({"type": "fat_tree", "srnic_servers": )" + std::to_string(s.servers) + "}");
        const ExperimentTopology& t = c.GetTopology();
        ASSERT_EQ(t.hosts.size(), s.servers);
        ASSERT_EQ(t.switches.size(), s.tors + s.aggs + s.cores);
        std::map<std::string, uint32_t> kinds;
        for (const auto& name : t.switches)
        {
            ++kinds[name.substr(0, name.find_first_of("0123456789"))];
        }
        EXPECT_EQ(kinds["tor"], s.tors);
        EXPECT_EQ(kinds["agg"], s.aggs);
        EXPECT_EQ(kinds["core"], s.cores);

        // Capacity per switch: down == up at every ToR and Agg (1:1), host
        // links 100G, fabric 400G, 1 us everywhere.
        const uint32_t n = s.servers;
        std::vector<double> down(t.GetNNodes(), 0);
        std::vector<double> up(t.GetNNodes(), 0);
        for (const auto& l : t.links)
        {
            EXPECT_EQ(l.delay, MicroSeconds(1));
            const bool hostLink = l.a < n;
            EXPECT_EQ(l.rate.GetBitRate(), hostLink ? 100e9 : 400e9);
            // Lower tier first: hosts < tors < aggs < cores in node order.
            ASSERT_LT(l.a, l.b);
            up[l.a] += l.rate.GetBitRate();
            down[l.b] += l.rate.GetBitRate();
        }
        // ToRs (when there is an Agg tier) and Aggs (when there is a core tier).
        const uint32_t lastBelowTop = n + (s.cores ? s.tors + s.aggs : (s.aggs ? s.tors : 0));
        for (uint32_t i = n; i < lastBelowTop; ++i)
        {
            EXPECT_GT(up[i], 0) << t.GetNodeName(i);
            EXPECT_DOUBLE_EQ(up[i], down[i]) << t.GetNodeName(i);
        }
        const auto d = Degrees(t);
        const uint32_t pods = s.cores ? 16 : 1;
        const uint32_t perTor = n / s.tors;
        for (uint32_t i = n; i < n + s.tors; ++i)
        {
            EXPECT_EQ(d[i], perTor + s.aggs / pods) << t.GetNodeName(i);
        }
        for (uint32_t i = n + s.tors + s.aggs; i < t.GetNNodes(); ++i)
        {
            EXPECT_EQ(d[i], 16u) << t.GetNodeName(i); // one Agg per pod, 16 pods
        }
        // Links: hosts + ToR-Agg (full bipartite per pod) + Agg-Core.
        const uint64_t torAgg = uint64_t{pods} * (s.tors / pods) * (s.aggs / pods);
        const uint64_t aggCore = s.cores ? uint64_t{s.aggs} * (s.cores / (s.aggs / pods)) : 0;
        EXPECT_EQ(t.links.size(), n + torAgg + aggCore);
    }
}

TEST(FatTreeExperimentTest, KaryAndExplicitShapes)
{
    const ExperimentConfig c = Load(R"({"type": "fat_tree", "k": 4})");
    const ExperimentTopology& t = c.GetTopology();
    EXPECT_EQ(t.hosts.size(), 16u);             // k^3/4
    EXPECT_EQ(t.switches.size(), 20u);          // 5k^2/4
    EXPECT_EQ(t.links.size(), 16u + 16u + 16u); // host, ToR-Agg, Agg-Core
    for (uint32_t d : Degrees(t))
    {
        EXPECT_TRUE(d == 1 || d == 4);
    }
    const auto& eff = c.EffectiveJson()["topology"];
    EXPECT_EQ(eff["pods"], 4);
    EXPECT_EQ(eff["tors_per_pod"], 2);
    EXPECT_EQ(eff["aggs_per_pod"], 2);
    EXPECT_EQ(eff["hosts_per_tor"], 2);
    EXPECT_EQ(eff["cores"], 4);
    EXPECT_EQ(eff["fabric_link_rate"], "100Gbps");
    // The effective form is explicit and loads to the same links.
    const ExperimentConfig again = Load(eff.dump());
    ASSERT_EQ(again.GetTopology().links.size(), t.links.size());
    for (std::size_t i = 0; i < t.links.size(); ++i)
    {
        EXPECT_EQ(again.GetTopology().links[i].a, t.links[i].a);
        EXPECT_EQ(again.GetTopology().links[i].b, t.links[i].b);
    }

    // 3:1 oversubscribed explicit shape: 6 x 100G down, 2 x 100G up per ToR.
    const ExperimentConfig o = Load(R"({"type": "fat_tree", "tors_per_pod": 3,
        "aggs_per_pod": 2, "hosts_per_tor": 6})");
    EXPECT_EQ(o.GetTopology().hosts.size(), 18u);
    EXPECT_EQ(o.GetTopology().links.size(), 18u + 6u);
}

TEST(FatTreeExperimentTest, ShapeErrorsNameTheField)
{
    EXPECT_NE(ErrorOf(R"({"type": "fat_tree", "k": 5})").find("/topology/k"), std::string::npos);
    EXPECT_NE(ErrorOf(R"({"type": "fat_tree", "srnic_servers": 100})")
                  .find("/topology/srnic_servers: SRNIC's fat-trees have 16, 64"),
              std::string::npos);
    EXPECT_NE(ErrorOf(R"({"type": "fat_tree", "k": 4, "srnic_servers": 16})").find("exactly one"),
              std::string::npos);
    EXPECT_NE(ErrorOf(R"({"type": "fat_tree", "pods": 2, "tors_per_pod": 2, "aggs_per_pod": 2,
                          "hosts_per_tor": 2})")
                  .find("cores = 0"),
              std::string::npos);
    EXPECT_NE(ErrorOf(R"({"type": "fat_tree", "pods": 2, "tors_per_pod": 2, "aggs_per_pod": 2,
                          "hosts_per_tor": 2, "cores": 3})")
                  .find("multiple of aggs_per_pod"),
              std::string::npos);
    EXPECT_NE(ErrorOf(R"({"type": "fat_tree", "k": 4, "spines": 2})").find("spines"),
              std::string::npos);
}

/** The node at the other end of \p port of \p node. */
Ptr<Node>
PeerOf(Ptr<Node> node, uint32_t port)
{
    Ptr<DcbNetDevice> dev = DynamicCast<DcbNetDevice>(node->GetDevice(port));
    return dev->GetDcbChannel()->GetPeer(dev)->GetNode();
}

TEST(FatTreeExperimentTest, EcmpReachesEveryHostAlongEveryBranch)
{
    // k = 4: every pair of hosts in different pods has 4 shortest paths.
    const ExperimentConfig c = Load(R"({"type": "fat_tree", "k": 4})");
    {
        TopologyBuilder b(c);
        b.Build();
        const uint32_t n = b.GetNHosts();
        std::map<uint32_t, uint32_t> switchIndexOfNode;
        for (uint32_t s = 0; s < b.GetNSwitches(); ++s)
        {
            switchIndexOfNode[b.GetSwitchNodes().Get(s)->GetId()] = s;
        }
        // Group sizes per (tier of switch, tier of destination relation).
        std::map<std::string, std::set<std::size_t>> groupSizes;
        for (uint32_t src = 0; src < n; ++src)
        {
            for (uint32_t dst = 0; dst < n; ++dst)
            {
                if (src == dst)
                {
                    continue;
                }
                // Follow every branch from src's ToR; count the distinct paths.
                uint32_t paths = 0;
                std::vector<std::pair<Ptr<Node>, uint32_t>> stack = {
                    {PeerOf(b.GetHost(src), 0), 1}};
                while (!stack.empty())
                {
                    auto [node, hops] = stack.back();
                    stack.pop_back();
                    if (node == b.GetHost(dst))
                    {
                        ++paths;
                        EXPECT_LE(hops, 6u);
                        continue;
                    }
                    ASSERT_TRUE(switchIndexOfNode.count(node->GetId()))
                        << "reached a host other than the destination";
                    ASSERT_LE(hops, 6u);
                    const uint32_t s = switchIndexOfNode[node->GetId()];
                    const auto& group =
                        b.GetSwitch(s)->GetRoute(TopologyBuilder::GetHostAddress(dst));
                    ASSERT_FALSE(group.empty()) << "no route at " << c.GetTopology().switches[s];
                    const std::string& name = c.GetTopology().switches[s];
                    const char* relation =
                        src / 2 == dst / 2 ? "tor" : (src / 4 == dst / 4 ? "pod" : "far");
                    groupSizes[name.substr(0, name.find_first_of("0123456789")) + "/" +
                               std::to_string(hops) + "/" + relation]
                        .insert(group.size());
                    for (uint32_t port : group)
                    {
                        stack.emplace_back(PeerOf(node, port), hops + 1);
                    }
                }
                const bool sameTor = src / 2 == dst / 2;
                const bool samePod = src / 4 == dst / 4;
                EXPECT_EQ(paths, sameTor ? 1u : (samePod ? 2u : 4u)) << src << "->" << dst;
            }
        }
        // Every switch of a tier, at the same distance from the source and for
        // destinations in the same relation, has an ECMP group of the same size:
        // up-links from ToRs (2) and Aggs (2) toward other pods, one port down.
        const std::map<std::string, std::size_t> expected = {
            {"tor/1/tor", 1},  {"tor/1/pod", 2}, {"tor/1/far", 2},
            {"agg/2/pod", 1},  {"tor/3/pod", 1}, {"agg/2/far", 2},
            {"core/3/far", 1}, {"agg/4/far", 1}, {"tor/5/far", 1}};
        ASSERT_EQ(groupSizes.size(), expected.size());
        for (const auto& [key, sizes] : groupSizes)
        {
            ASSERT_TRUE(expected.count(key)) << key;
            EXPECT_EQ(sizes, (std::set<std::size_t>{expected.at(key)})) << key;
        }
    }
    Simulator::Destroy();
}

} // namespace
} // namespace ns3
