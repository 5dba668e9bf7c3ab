// FabricPartitioner: fat-trees split by pod and by rack, leaf-spines by rack,
// contiguous balanced blocks, the top tier spread over the partitions, and clear
// errors for too many partitions or a zero-delay link between partitions.
#include "ns3/experiment-config.h"
#include "ns3/fabric-partitioner.h"
#include "ns3/fat-tree-topology.h"

#include <gtest/gtest.h>
#include <set>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

ExperimentTopology
FatTree(uint32_t k, Time delay = MicroSeconds(1))
{
    ExperimentTopology t;
    FatTreeTopology::Expand(FatTreeShape::FromK(k), DataRate("100Gbps"), DataRate("100Gbps"), delay,
                            t);
    return t;
}

std::vector<uint32_t>
Split(const ExperimentTopology& t, uint32_t n, FabricPartitioner::Mode mode)
{
    std::string error;
    std::vector<uint32_t> p;
    try
    {
        p = FabricPartitioner::Partition(t, n, mode, JsonSchemaReader("exp.json"), "/topology");
    }
    catch (const ConfigError& e)
    {
        error = e.what();
    }
    EXPECT_EQ(error, "");
    EXPECT_EQ(p.size(), t.GetNNodes());
    return p;
}

TEST(FabricPartitioner, TiersOfAKaryFatTree)
{
    const ExperimentTopology t = FatTree(4); // 16 hosts, 8 ToRs, 8 Aggs, 4 cores
    const std::vector<uint32_t> tier = FabricPartitioner::GetTiers(t);
    for (uint32_t v = 0; v < 16; ++v)
    {
        EXPECT_EQ(tier[v], 0u);
    }
    for (uint32_t s = 0; s < 20; ++s)
    {
        EXPECT_EQ(tier[16 + s], s < 8 ? 1u : s < 16 ? 2u : 3u) << t.switches[s];
    }
}

TEST(FabricPartitioner, ByPodKeepsPodsWholeAndSpreadsCores)
{
    const ExperimentTopology t = FatTree(4);
    const std::vector<uint32_t> p = Split(t, 2, FabricPartitioner::Mode::Pod);
    // Pod of host h: h / 4. Pods 0-1 on partition 0, pods 2-3 on partition 1.
    for (uint32_t h = 0; h < 16; ++h)
    {
        EXPECT_EQ(p[h], h / 8) << h;
    }
    // Every link below the cores stays inside a partition; cores split 2 / 2.
    const std::vector<uint32_t> tier = FabricPartitioner::GetTiers(t);
    uint32_t crossing = 0;
    for (const ExperimentLink& l : t.links)
    {
        if (tier[l.a] < 3 && tier[l.b] < 3)
        {
            EXPECT_EQ(p[l.a], p[l.b]);
        }
        crossing += p[l.a] != p[l.b] ? 1 : 0;
    }
    EXPECT_EQ(p[16 + 16], 0u);
    EXPECT_EQ(p[16 + 17], 0u);
    EXPECT_EQ(p[16 + 18], 1u);
    EXPECT_EQ(p[16 + 19], 1u);
    // Each core has one link per pod: half of the 16 core links leave their partition.
    EXPECT_EQ(crossing, 8u);

    const std::vector<uint32_t> four = Split(t, 4, FabricPartitioner::Mode::Pod);
    for (uint32_t h = 0; h < 16; ++h)
    {
        EXPECT_EQ(four[h], h / 4) << h;
    }
}

TEST(FabricPartitioner, ByRackKeepsEachTorWithItsHosts)
{
    const ExperimentTopology t = FatTree(4);
    const std::vector<uint32_t> p = Split(t, 8, FabricPartitioner::Mode::Rack);
    for (uint32_t h = 0; h < 16; ++h)
    {
        EXPECT_EQ(p[h], h / 2) << h;
        EXPECT_EQ(p[16 + h / 2], h / 2) << "ToR of host " << h;
    }
    // Aggs and cores (12) spread in equal blocks; every partition is used.
    EXPECT_EQ(std::set<uint32_t>(p.begin(), p.end()).size(), 8u);
}

TEST(FabricPartitioner, UnevenPodsStillFillEveryPartition)
{
    const ExperimentTopology t = FatTree(4);
    const std::vector<uint32_t> p = Split(t, 3, FabricPartitioner::Mode::Pod);
    EXPECT_EQ(std::set<uint32_t>(p.begin(), p.end()).size(), 3u);
    for (uint32_t h = 1; h < 16; ++h)
    {
        EXPECT_GE(p[h], p[h - 1]) << "pods go to partitions in contiguous blocks";
    }
}

TEST(FabricPartitioner, LeafSpineSplitsByRack)
{
    const ExperimentConfig c = ExperimentConfig::LoadString(
        R"({"topology": {"type": "leaf_spine", "leaves": 4, "spines": 2, "hosts_per_leaf": 2},
            "flows": [{"src": 0, "dst": 1, "bytes": 1000}]})",
        "ls.json");
    const ExperimentTopology& t = c.GetTopology();
    const std::vector<uint32_t> p = Split(t, 2, FabricPartitioner::Mode::Pod);
    for (uint32_t h = 0; h < t.hosts.size(); ++h)
    {
        EXPECT_EQ(p[h], h < t.hosts.size() / 2 ? 0u : 1u) << h;
    }
}

TEST(FabricPartitioner, RegionalNetworkSplitsByDatacenter)
{
    // Two datacenters (T0-T1-T2) joined by a regional hub over 442 us links, as in
    // configs/regional-small.json.
    const ExperimentConfig c = ExperimentConfig::LoadString(
        R"({"topology": {"type": "custom", "link_rate": "40Gbps", "link_delay": "0.5us",
            "hosts": ["A", "C", "B"], "switches": ["t0a", "t1a", "t2a", "rh", "t2b", "t1b", "t0b"],
            "links": [{"a": "A", "b": "t0a"}, {"a": "C", "b": "t0a"}, {"a": "t0a", "b": "t1a"},
                      {"a": "t1a", "b": "t2a"}, {"a": "t2a", "b": "rh", "delay": "442us"},
                      {"a": "rh", "b": "t2b", "delay": "442us"}, {"a": "t2b", "b": "t1b"},
                      {"a": "t1b", "b": "t0b"}, {"a": "t0b", "b": "B"}]},
            "flows": [{"src": "A", "dst": "B", "bytes": 1000}]})",
        "regional.json");
    const std::vector<uint32_t> p = Split(c.GetTopology(), 2, FabricPartitioner::Mode::Pod);
    // Nodes: A C B, then t0a t1a t2a rh t2b t1b t0b. Datacenter a on 0, b on 1; the hub
    // (the only cut node) on 0, so the one link between ranks is rh-t2b (442 us lookahead).
    EXPECT_EQ(p, (std::vector<uint32_t>{0, 0, 1, 0, 0, 0, 0, 1, 1, 1}));
}

TEST(FabricPartitioner, OnePartitionIsEverythingOnSystemZero)
{
    const ExperimentTopology t = FatTree(4);
    const std::vector<uint32_t> p = Split(t, 1, FabricPartitioner::Mode::Pod);
    EXPECT_EQ(std::set<uint32_t>(p.begin(), p.end()), std::set<uint32_t>{0});
}

TEST(FabricPartitioner, Errors)
{
    // The reason, located at the topology's pointer.
    auto refusal = [](const ExperimentTopology& t, uint32_t n)
    {
        try
        {
            FabricPartitioner::Partition(t, n, FabricPartitioner::Mode::Pod,
                                         JsonSchemaReader("exp.json"), "/topology");
        }
        catch (const ConfigError& e)
        {
            return std::string(e.what());
        }
        return std::string();
    };
    std::string error = refusal(FatTree(4), 5);
    EXPECT_NE(error.find("exp.json: /topology: "), std::string::npos) << error;
    EXPECT_NE(error.find("5 partitions, but the network has only 4 pods"), std::string::npos)
        << error;
    EXPECT_NE(error.find("--partition=rack"), std::string::npos) << error;

    error = refusal(FatTree(4, Time(0)), 2);
    EXPECT_NE(error.find("joins two partitions and has no propagation delay"), std::string::npos)
        << error;

    FabricPartitioner::Mode mode;
    EXPECT_TRUE(FabricPartitioner::ParseMode("rack", mode));
    EXPECT_EQ(mode, FabricPartitioner::Mode::Rack);
    EXPECT_FALSE(FabricPartitioner::ParseMode("rank", mode));
}

} // namespace
} // namespace ns3
