// Azure-style regional topology (NSDI'23 Fig. 2): counts, names and wiring;
// base RTTs from a few us inside a rack to ~1.8 ms across the regional hub;
// configuration errors that name their field; and PFC headroom on its
// long-haul ports: per-queue static headroom vs a chassis' buffer per port,
// and an oversubscribed shared headroom pool (Azure section 7.1).
#include "topology-config.h"

#include "ns3/boolean.h"
#include "ns3/buffer-manager.h"
#include "ns3/dcb-switch.h"
#include "ns3/double.h"
#include "ns3/experiment-config-error.h"
#include "ns3/experiment-config.h"
#include "ns3/headroom-calculator.h"
#include "ns3/queue-size.h"
#include "ns3/regional-topology.h"
#include "ns3/simulator.h"
#include "ns3/topology-builder.h"

#include <cctype>
#include <gtest/gtest.h>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

ExperimentConfig
Load(const std::string& topology)
{
    return test::LoadTopology(topology, "region.json");
}

std::string
ErrorOf(const std::string& topology)
{
    return test::TopologyError(topology, "region.json");
}

/** One-way propagation delay of the lowest-delay path between nodes \p a and \p b. */
Time
PathDelay(const ExperimentTopology& t, uint32_t a, uint32_t b)
{
    const uint32_t n = t.GetNNodes();
    std::vector<int64_t> dist(n, std::numeric_limits<int64_t>::max());
    std::vector<bool> done(n, false);
    dist[a] = 0;
    for (uint32_t iter = 0; iter < n; ++iter)
    {
        uint32_t u = n;
        for (uint32_t v = 0; v < n; ++v)
        {
            if (!done[v] && dist[v] != std::numeric_limits<int64_t>::max() &&
                (u == n || dist[v] < dist[u]))
            {
                u = v;
            }
        }
        if (u == n)
        {
            break;
        }
        done[u] = true;
        for (const auto& l : t.links)
        {
            const uint32_t other = l.a == u ? l.b : (l.b == u ? l.a : n);
            // Hosts forward nothing: only switches relay.
            if (other == n || (u != a && u < t.hosts.size()))
            {
                continue;
            }
            dist[other] = std::min(dist[other], dist[u] + l.delay.GetPicoSeconds());
        }
    }
    return PicoSeconds(dist[b]);
}

uint32_t
HostIndex(const ExperimentTopology& t, const std::string& name)
{
    for (uint32_t i = 0; i < t.hosts.size(); ++i)
    {
        if (t.hosts[i] == name)
        {
            return i;
        }
    }
    ADD_FAILURE() << "no host " << name;
    return 0;
}

TEST(RegionalTopologyTest, Fig2ShapeCountsNamesAndWiring)
{
    // 2 datacenters x 2 clusters x 3 racks x 4 servers, 2 T1 per cluster, 2 T2 per
    // datacenter, 2 hubs.
    const ExperimentConfig c = Load(R"({"type": "regional", "datacenters": 2, "hubs": 2,
        "t2_per_dc": 2, "clusters_per_dc": 2, "t1_per_cluster": 2, "racks_per_cluster": 3,
        "servers_per_rack": 4, "long_haul_km": [40, 120]})");
    const ExperimentTopology& t = c.GetTopology();
    EXPECT_EQ(t.type, "regional");
    ASSERT_EQ(t.hosts.size(), 48u);
    EXPECT_EQ(t.hosts.front(), "dc0-c0-r0-s0");
    EXPECT_EQ(t.hosts.back(), "dc1-c1-r2-s3");
    std::map<std::string, uint32_t> tiers;
    ASSERT_EQ(t.switchRoles.size(), t.switches.size());
    for (std::size_t i = 0; i < t.switches.size(); ++i)
    {
        const std::string& s = t.switches[i];
        const std::string tier = s.rfind("rh", 0) == 0 ? "rh" : s.substr(s.rfind('-') - 2, 2);
        tiers[tier]++;
        // The role is the tier in capitals: "buffer_switches" selects by it.
        std::string role = tier;
        for (char& ch : role)
        {
            ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        }
        EXPECT_EQ(t.switchRoles[i], role) << s;
    }
    EXPECT_EQ(t.GetSwitchRoles(), (std::vector<std::string>{"T0", "T1", "T2", "RH"}));
    const auto isChassis = [&t](uint32_t node)
    {
        if (node < t.hosts.size())
        {
            return false;
        }
        const std::string& role = t.switchRoles[node - t.hosts.size()];
        return role == "T2" || role == "RH";
    };
    EXPECT_EQ(tiers["t0"], 12u);
    EXPECT_EQ(tiers["t1"], 8u);
    EXPECT_EQ(tiers["t2"], 4u);
    EXPECT_EQ(tiers["rh"], 2u);
    // servers + T0-T1 (12 x 2) + T1-T2 (8 x 2) + T2-RH (4 x 2)
    EXPECT_EQ(t.links.size(), 48u + 24u + 16u + 8u);
    uint32_t longHaul = 0;
    for (const auto& l : t.links)
    {
        const std::string& a = t.GetNodeName(l.a);
        const std::string& b = t.GetNodeName(l.b);
        if (b.rfind("rh", 0) == 0)
        {
            ++longHaul;
            EXPECT_TRUE(isChassis(l.a) && isChassis(l.b));
            // 5 us/km: 40 km in dc0, 120 km in dc1.
            EXPECT_EQ(l.delay, MicroSeconds(a.rfind("dc0", 0) == 0 ? 200 : 600)) << a;
        }
        else
        {
            EXPECT_FALSE(isChassis(l.a) && isChassis(l.b));
        }
    }
    EXPECT_EQ(longHaul, 8u);
    EXPECT_EQ(c.EffectiveJson()["topology"]["long_haul_km"].size(), 2u);
}

TEST(RegionalTopologyTest, BaseRttFromARackToAcrossTheRegion)
{
    // Defaults: 0.5 us rack hops, 1.5 us T1-T2 (300 m), 80 km T2-RH (Azure App. B).
    const ExperimentConfig c = Load(R"({"type": "regional", "racks_per_cluster": 2})");
    const ExperimentTopology& t = c.GetTopology();
    const uint32_t a = HostIndex(t, "dc0-c0-r0-s0");
    const Time rack = 2 * PathDelay(t, a, HostIndex(t, "dc0-c0-r0-s1"));
    const Time cluster = 2 * PathDelay(t, a, HostIndex(t, "dc0-c0-r1-s0"));
    const Time region = 2 * PathDelay(t, a, HostIndex(t, "dc1-c0-r0-s0"));
    EXPECT_EQ(rack, MicroSeconds(2));      // A-C of App. B: ~2 us
    EXPECT_EQ(cluster, MicroSeconds(4));   // via T1
    EXPECT_EQ(region, MicroSeconds(1610)); // 4 x 400 us + 2 x 2 x 2.5 us
    // 88.4 km gives App. B's ~1.77 ms.
    const ExperimentConfig fig12 = Load(R"({"type": "regional", "long_haul_km": 88.4})");
    const ExperimentTopology& f = fig12.GetTopology();
    const Time rtt = 2 * PathDelay(f, HostIndex(f, "dc0-c0-r0-s0"), HostIndex(f, "dc1-c0-r0-s0"));
    EXPECT_NEAR(rtt.GetMicroSeconds(), 1778, 2);
}

TEST(RegionalTopologyTest, ShapeErrorsNameTheField)
{
    EXPECT_NE(ErrorOf(R"({"type": "regional", "long_haul_km": [10, 20, 30]})")
                  .find("/topology/long_haul_km: needs one length per datacenter (2), got 3"),
              std::string::npos);
    EXPECT_NE(ErrorOf(R"({"type": "regional", "long_haul_km": -5})")
                  .find("/topology/long_haul_km: a long-haul link must be in (0, 1000] km"),
              std::string::npos);
    EXPECT_NE(ErrorOf(R"({"type": "regional", "long_haul_km": [10, "far"]})")
                  .find("/topology/long_haul_km/1: expected a length in km"),
              std::string::npos);
    EXPECT_NE(ErrorOf(R"({"type": "regional", "hubs": 0})").find("/topology/hubs"),
              std::string::npos);
    EXPECT_NE(ErrorOf(R"({"type": "regional", "spines": 2})").find("spines"), std::string::npos);
}

// Azure section 7.1: "given the high port density (100s) of chassis switches and
// long-haul links, we need to reserve several GB of PFC headroom", hence a
// shared headroom pool with oversubscription. Sizes from the SONiC headroom
// calculator (static per-PG headroom vs SHP); the chassis is a Nokia IXR7250E
// (Jericho2) SONiC configuration: ingress_lossless_pool 6,441,610,000 B with a
// 1,582,033,305 B shared headroom pool (spec section 6). Two lossless queues per
// port (Azure section 7.3); 128 long-haul 400 Gb/s ports stand for "100s".
TEST(RegionalHeadroomTest, StaticPerQueueHeadroomOutgrowsTheChassisWhileAnOversubscribedPoolFits)
{
    const double km = 80.0;
    const uint64_t pool = 6441610000ULL;
    const uint64_t vendorShp = 1582033305ULL;
    const uint32_t ports = 128;
    const uint32_t losslessQueues = 2;
    Ptr<HeadroomCalculator> staticHr = CreateObject<HeadroomCalculator>();
    staticHr->SetAttribute("SharedHeadroomPool", BooleanValue(false));
    const HeadroomCalculator::Result s = staticHr->Calculate(DataRate("400Gbps"), km * 1000);
    // The cable term alone: 2 x 80 km x 400 Gb/s at 1.98e8 m/s = 40.4 MB per PG.
    EXPECT_NEAR(HeadroomCalculator::CableBytes(DataRate("400Gbps"), km * 1000), 40.4e6, 0.1e6);
    EXPECT_GT(s.xoff, 40000000u);

    // Per-queue static headroom of one long-haul port vs the chassis buffer per port.
    const uint64_t perPortStatic = uint64_t{losslessQueues} * s.size;
    const uint64_t perPortBuffer = pool / ports;
    RecordProperty("static_headroom_per_port_bytes", std::to_string(perPortStatic));
    RecordProperty("chassis_buffer_per_port_bytes", std::to_string(perPortBuffer));
    EXPECT_GT(perPortStatic, 1.5 * perPortBuffer);
    // Whole chassis: static headroom for every long-haul port exceeds the pool itself.
    EXPECT_GT(perPortStatic * ports, pool);

    // Shared headroom pool: every PG's xoff may come from one pool sized for the
    // ports expected to be paused at once. The vendor's pool covers
    // vendorShp / xoff PGs at once, an oversubscription of ports x queues / that.
    Ptr<HeadroomCalculator> shp = CreateObject<HeadroomCalculator>();
    shp->SetAttribute("SharedHeadroomPool", BooleanValue(true));
    const HeadroomCalculator::Result h = shp->Calculate(DataRate("400Gbps"), km * 1000);
    EXPECT_LT(h.size, s.size / 100); // only xon is reserved per PG
    const double pgsCovered = static_cast<double>(vendorShp) / h.xoff;
    const double oversubscription = ports * losslessQueues / pgsCovered;
    RecordProperty("shp_pgs_covered", std::to_string(pgsCovered));
    RecordProperty("shp_oversubscription", std::to_string(oversubscription));
    EXPECT_GT(pgsCovered, 30.0);      // ~32 long-haul PGs paused at once
    EXPECT_GT(oversubscription, 5.0); // ~8 : 1
    const uint64_t reservedWithShp = vendorShp + uint64_t{ports} * losslessQueues * h.size;
    EXPECT_LT(reservedWithShp, pool / 3); // leaves > 2/3 of the pool shared
}

} // namespace
} // namespace ns3

namespace ns3
{
namespace
{

TEST(RegionalTopologyTest, ChassisSwitchesTakeTheirOwnBuffer)
{
    const std::string flows =
        R"(, "flows": [{"src": "dc1-c0-r0-s0", "dst": "dc0-c0-r0-s1", "bytes": 1000}]})";
    const ExperimentConfig c = ExperimentConfig::LoadString(
        R"({"topology": {"type": "regional"},
            "buffer": {"type": "ns3::DynamicThresholdBufferManager", "BufferSize": "16MB"},
            "buffer_switches": [{"roles": ["T2", "RH"],
                                 "buffer": {"BufferSize": "2000MB", "Alpha": 0.5}}])" +
            flows,
        "chassis.json");
    {
        TopologyBuilder topo(c);
        topo.Build();
        for (uint32_t s = 0; s < topo.GetNSwitches(); ++s)
        {
            const std::string& name = c.GetTopology().switches[s];
            const std::string& role = c.GetTopology().switchRoles[s];
            Ptr<BufferManager> bm = topo.GetSwitch(s)->GetBufferManager();
            QueueSizeValue size;
            DoubleValue alpha;
            bm->GetAttribute("BufferSize", size);
            bm->GetAttribute("Alpha", alpha);
            const bool chassis = role == "T2" || role == "RH";
            EXPECT_EQ(size.Get(), QueueSize(chassis ? "2000MB" : "16MB")) << name;
            EXPECT_EQ(alpha.Get(), chassis ? 0.5 : 0.125) << name; // not leaked to T0/T1
        }
    }
    Simulator::Destroy();
    // A role the topology lacks is named in the error, with the roles it has.
    const std::string unknownRole =
        ErrorOf(R"({"type": "regional"}, "buffer_switches": [{"roles": ["T3"], "buffer": {}}])");
    EXPECT_NE(unknownRole.find("/buffer_switches/0/roles/0"), std::string::npos) << unknownRole;
    EXPECT_NE(unknownRole.find("T0, T1, T2, RH"), std::string::npos) << unknownRole;
    // The key this mechanism replaced is rejected, not ignored.
    EXPECT_NE(ErrorOf(R"({"type": "regional"}, "buffer_chassis": {})").find("buffer_chassis"),
              std::string::npos);
}

TEST(RegionalTopologyTest, CcHostsGiveANicGenerationMix)
{
    const std::string base = R"({"topology": {"type": "regional"},
        "cc": {"type": "ns3::RdmaDcqcn", "BurstBytes": 16384, "FirmwareCnpTime": "5us", "FirmwareCnpQueue": 16},
        "flows": [{"src": "dc1-c0-r0-s0", "dst": "dc0-c0-r0-s1", "bytes": 1000}], )";
    const ExperimentConfig c = ExperimentConfig::LoadString(
        base + R"("cc_hosts": [{"hosts": ["dc0-c0-r0-s1"], "cc": {"type": "ns3::RdmaDcqcn",
            "CnpInterval": "50us", "RateDecreaseInterval": "0ns", "BurstBytes": 16384}}]})",
        "mix.json");
    // The NIC generations are attribute sets of the one DCQCN TypeId.
    EXPECT_EQ(c.GetCongestionControl(0).typeName, "ns3::RdmaDcqcn");
    EXPECT_EQ(c.GetCongestionControl(0).attributes.size(), 3u);
    EXPECT_EQ(c.GetCongestionControl(1).typeName, "ns3::RdmaDcqcn");
    EXPECT_EQ(c.GetCongestionControl(1).attributes.size(), 3u);
    EXPECT_EQ(c.GetCongestionControl(2).typeName, "ns3::RdmaDcqcn");
    EXPECT_EQ(c.GetCongestionControl(2).attributes.size(), 3u);
    const auto& eff = c.EffectiveJson()["cc_hosts"];
    ASSERT_EQ(eff.size(), 1u);
    EXPECT_EQ(eff[0]["hosts"][0], "dc0-c0-r0-s1");
    EXPECT_EQ(eff[0]["cc"]["BurstBytes"], 16384);

    const auto error = [&base](const std::string& mix)
    {
        try
        {
            ExperimentConfig::LoadString(base + R"("cc_hosts": )" + mix + "}", "mix.json");
        }
        catch (const ExperimentConfigError& e)
        {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_NE(error(R"([{"hosts": ["nowhere"], "cc": {}}])").find("/cc_hosts/0/hosts/0"),
              std::string::npos);
    EXPECT_NE(error(R"([{"hosts": [0], "cc": {}}, {"hosts": [0], "cc": {}}])")
                  .find("/cc_hosts/1/hosts/0: host dc0-c0-r0-s0 already has"),
              std::string::npos);
    EXPECT_NE(error(R"([{"hosts": [0], "cc": {"Bogus": 1}}])").find("/cc_hosts/0/cc/Bogus"),
              std::string::npos);
}

} // namespace
} // namespace ns3
