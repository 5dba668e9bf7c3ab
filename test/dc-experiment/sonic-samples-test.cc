// SONiC's own config_db test vectors (test/data/sonic-samples, copied from
// sonic-utilities) as an experiment's "config_db": each buffer file drives a
// 2-switch run whose pools, thresholds and headroom are checked against values
// worked out here from the file's numbers; the QoS-map sample classifies beside a
// buffer file; unmodelled tables give one warning line, malformed files a located error.
#include "ns3/dcb-switch.h"
#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/simulator.h"
#include "ns3/sonic-buffer-manager.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <limits>
#include <string>

namespace ns3
{
namespace
{

const std::string SAMPLES = std::string(ROCE_LAB_SOURCE_DIR) + "/test/data/sonic-samples/";
const std::string NESTED = SAMPLES + "qos-config-nested.json";
const std::string TRADITIONAL = SAMPLES + "buffer-traditional-double-pools-redis-keys.json";
const std::string DYNAMIC = SAMPLES + "buffer-dynamic-single-pool-redis-keys.json";
const std::string QOS_GLOBAL = SAMPLES + "port-qos-map-global-redis-keys.json";
constexpr uint64_t UNLIMITED = std::numeric_limits<uint64_t>::max();

/** alpha x free space of a dynamic_th profile on an empty pool: 2^dynamic_th x size. */
uint64_t
DynamicThreshold(int32_t dynamicTh, uint64_t poolSize)
{
    return static_cast<uint64_t>(std::ldexp(static_cast<double>(poolSize), dynamicTh));
}

struct Headroom
{
    uint64_t xon;
    uint64_t xoff;
    uint64_t size;
};

/**
 * SONiC's headroom (buffer_headroom_mellanox.lua) worked out by hand with
 * HeadroomCalculator's defaults: cell 144 B (worst-case factor ceil(144/64) = 3),
 * pipeline latency 19456 B, MAC/PHY 819.2 B, port MTU 9100 B, lossless MTU 1024 B,
 * 50 % small packets, peer response = 802.3 pause quanta x 64 B.
 */
Headroom
ByHand(uint64_t mbps, double metres, bool sharedHeadroomPool)
{
    const double wcf = 3;
    const double smallPacketBytes = 100.0 * 64 / ((50.0 * 64 + 50.0 * 1024) / 100); // 11.76
    const double occupancy = (100 - smallPacketBytes + smallPacketBytes * wcf) / 100;
    const double cable = 2 * metres * mbps * 1e9 / 198e6 / 8000; // round trip, bytes
    const double quanta = mbps == 100000 ? 394 : mbps == 50000 ? 147 : mbps == 10000 ? 67 : 0;
    const double propagation = 9100 + cable + 819.2 + quanta * 64;
    auto ceil1024 = [](double b) { return static_cast<uint64_t>(std::ceil(b / 1024)) * 1024; };
    uint64_t xoff = ceil1024(1024 + propagation * occupancy);
    if (!sharedHeadroomPool && xoff + 2048 < ceil1024(1024 + propagation * wcf))
    {
        xoff += 2048;
    }
    const uint64_t xon = ceil1024(19456);
    return Headroom{xon, xoff, sharedHeadroomPool ? xon : xon + xoff};
}

class SonicSamplesTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /** A dumbbell, one host per side: switch port 0 faces its host, port 1 the other switch. */
    static std::string Experiment(const std::string& buffer, const std::string& qp = "")
    {
        return R"({"progress": false, "stop_time": "3ms",
                   "topology": {"type": "dumbbell", "hosts_per_side": 1},
                   "buffer": )" +
               buffer + (qp.empty() ? "" : R"(, "qp": )" + qp) + R"(,
                   "flows": [{"src": "h0", "dst": "h1", "bytes": 200000}]})";
    }

    /** Load and run \p text; the runner keeps the fabric for inspection. */
    static std::unique_ptr<ExperimentRunner> Run(const std::string& text, const std::string& name,
                                                 std::vector<std::string>* warnings = nullptr)
    {
        return Run(ExperimentConfig::LoadString(text, name + ".json"), name, warnings);
    }

    static std::unique_ptr<ExperimentRunner> Run(const ExperimentConfig& config,
                                                 const std::string& name,
                                                 std::vector<std::string>* warnings)
    {
        if (warnings)
        {
            *warnings = config.GetWarnings();
        }
        const std::string dir = std::string(ROCE_LAB_BINARY_DIR) + "/test-output/sonic-" + name;
        std::filesystem::remove_all(dir);
        auto runner = std::make_unique<ExperimentRunner>(config, dir);
        runner->Run();
        EXPECT_EQ(runner->GetFinishedFlows(), 1u) << name;
        return runner;
    }

    static Ptr<SonicBufferManager> Buffer(const ExperimentRunner& runner, uint32_t sw)
    {
        return DynamicCast<SonicBufferManager>(
            runner.GetTopology().GetSwitch(sw)->GetBufferManager());
    }

    static const SonicBufferPool& Pool(Ptr<SonicBufferManager> bm, const std::string& name)
    {
        const int32_t i = bm->GetConfig().FindPool(name);
        EXPECT_GE(i, 0) << name;
        return bm->GetConfig().pools.at(i);
    }

    static const SonicBufferProfile& PgProfile(Ptr<SonicBufferManager> bm, uint32_t port,
                                               uint8_t pg)
    {
        const int32_t i = bm->GetConfig().ports.at(port).pgProfile[pg];
        EXPECT_GE(i, 0) << "port " << port << " PG " << +pg;
        return bm->GetConfig().profiles.at(i);
    }
};

TEST_F(SonicSamplesTest, HeadroomByHandMatchesWorkedNumbers)
{
    // 100G, 5 m: cable 631.3 B, peer 394 x 64 = 25216 B, propagation 35766.5 B,
    // x 1.2353 + 1024 -> 46080, + 2048 without SHP.
    EXPECT_EQ(ByHand(100000, 5, false).xoff, 48128u);
    EXPECT_EQ(ByHand(100000, 5, false).size, 67584u);
    EXPECT_EQ(ByHand(10000, 5, false).xoff, 21504u);
    EXPECT_EQ(ByHand(100000, 5, true).xoff, 46080u);
    EXPECT_EQ(ByHand(100000, 5, true).size, 19456u);
}

TEST_F(SonicSamplesTest, DynamicModelSizesHeadroomAndPoolsFromSpeedAndCable)
{
    // Flat Redis keys; BUFFER_PG|Ethernet0|3-4 and |Ethernet4|3-4 have profile NULL.
    // Default naming: Ethernet0 (PORT speed 100000) is switch port 0, Ethernet4
    // (speed 10000) port 1; CABLE_LENGTH 5m for both.
    std::vector<std::string> warnings;
    auto runner =
        Run(Experiment(R"({"type": "ns3::SonicBufferManager", "config_db": ")" + DYNAMIC + R"("})"),
            "dynamic", &warnings);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("buffer-dynamic-single-pool-redis-keys.json: tables"),
              std::string::npos)
        << warnings[0];
    EXPECT_NE(warnings[0].find("BUFFER_PORT_INGRESS_PROFILE_LIST"), std::string::npos);
    EXPECT_NE(warnings[0].find("VERSIONS"), std::string::npos);
    EXPECT_NE(warnings[0].find("PORT.lanes"), std::string::npos);
    const Headroom h100 = ByHand(100000, 5, false); // ingress_lossless_pool has no xoff
    const Headroom h10 = ByHand(10000, 5, false);
    // Every PG and queue profile of the file on these ports has size 0; the
    // calculated lossless PGs 3-4 reserve xon + xoff each.
    const uint64_t reserved = 2 * h100.size + 2 * h10.size;
    const uint64_t mmu = 13945824; // egress_lossless_pool, the largest size given
    for (uint32_t s = 0; s < 2; ++s)
    {
        Ptr<SonicBufferManager> bm = Buffer(*runner, s);
        ASSERT_TRUE(bm);
        for (uint8_t pg : {3, 4})
        {
            const SonicBufferProfile& p0 = PgProfile(bm, 0, pg);
            EXPECT_EQ(p0.name, "pg_lossless_100000_5m_profile");
            EXPECT_EQ(p0.xon, h100.xon);
            EXPECT_EQ(p0.xoff, h100.xoff);
            EXPECT_EQ(p0.size, h100.size);
            const SonicBufferProfile& p1 = PgProfile(bm, 1, pg);
            EXPECT_EQ(p1.name, "pg_lossless_10000_5m_profile");
            EXPECT_EQ(p1.xoff, h10.xoff);
            EXPECT_EQ(p1.size, h10.size);
        }
        EXPECT_EQ(Pool(bm, "egress_lossless_pool").size, mmu);
        EXPECT_EQ(Pool(bm, "ingress_lossless_pool").size, mmu - reserved);
        EXPECT_EQ(Pool(bm, "egress_lossy_pool").size, mmu - reserved);
        // Thresholds on the drained buffer: alpha = 2^dynamic_th times the pool.
        const int32_t ingress = bm->GetConfig().FindPool("ingress_lossless_pool");
        ASSERT_EQ(bm->GetPoolSharedBytes(ingress), 0u);
        EXPECT_EQ(bm->GetIngressThreshold(0, 0), DynamicThreshold(3, mmu - reserved));
        EXPECT_EQ(bm->GetIngressThreshold(1, 3), DynamicThreshold(0, mmu - reserved));
        EXPECT_EQ(bm->GetEgressThreshold(1, 0), DynamicThreshold(3, mmu - reserved));
        EXPECT_EQ(bm->GetEgressThreshold(1, 3), UNLIMITED); // dynamic_th 7: no limit (SAI)
    }
    // No DSCP map in the file: the WRITE (priority 3, DSCP 26) is TC 26 >> 3 = 3.
    EXPECT_GT(Buffer(*runner, 0)->GetQueueWatermark(1, 3), 0u);
    EXPECT_EQ(Buffer(*runner, 0)->GetQueueWatermark(1, 0), 0u);
}

TEST_F(SonicSamplesTest, TraditionalDoublePoolsOnExplicitPorts)
{
    // Flat Redis keys, ingress lossless + lossy pools, shared headroom pool (xoff).
    // config_db_ports: switch port 0 (host) is Ethernet28, port 1 (other switch) Ethernet16.
    auto runner =
        Run(Experiment(R"({"type": "ns3::SonicBufferManager", "config_db": ")" + TRADITIONAL +
                       R"(", "config_db_ports": ["Ethernet28", "Ethernet16"]})"),
            "traditional");
    for (uint32_t s = 0; s < 2; ++s)
    {
        Ptr<SonicBufferManager> bm = Buffer(*runner, s);
        ASSERT_TRUE(bm);
        EXPECT_EQ(bm->GetConfig().ports[0].name, "Ethernet28");
        EXPECT_EQ(bm->GetConfig().ports[1].name, "Ethernet16");
        EXPECT_EQ(Pool(bm, "ingress_lossless_pool").size, 5088768u);
        EXPECT_EQ(Pool(bm, "ingress_lossless_pool").xoff, 688128u);
        EXPECT_EQ(Pool(bm, "ingress_lossy_pool").size, 5088768u);
        EXPECT_EQ(Pool(bm, "egress_lossless_pool").size, 13945824u);
        EXPECT_EQ(Pool(bm, "egress_lossy_pool").size, 5088768u);
        EXPECT_EQ(Pool(bm, "ingress_zero_pool").size, 0u);
        // Headroom as the file's profiles give it (speed/cable lookup already done).
        const SonicBufferProfile& l100 = PgProfile(bm, 0, 3);
        EXPECT_EQ(l100.name, "pg_lossless_100000_5m_profile");
        EXPECT_EQ(l100.xon, 19456u);
        EXPECT_EQ(l100.xoff, 23552u);
        EXPECT_EQ(l100.size, 19456u);
        EXPECT_EQ(PgProfile(bm, 1, 4).name, "pg_lossless_50000_5m_profile");
        EXPECT_EQ(PgProfile(bm, 1, 4).xoff, 22528u);
        EXPECT_EQ(bm->GetIngressThreshold(0, 3), DynamicThreshold(0, 5088768));
        EXPECT_EQ(bm->GetIngressThreshold(0, 0), DynamicThreshold(3, 5088768));
        EXPECT_EQ(bm->GetIngressThreshold(1, 1), DynamicThreshold(3, 5088768));
        EXPECT_EQ(bm->GetEgressThreshold(0, 0), DynamicThreshold(3, 5088768));
        EXPECT_EQ(bm->GetEgressThreshold(0, 3), UNLIMITED);
        EXPECT_EQ(bm->GetEgressThreshold(1, 3), UNLIMITED); // Ethernet16 binds no queue 3
    }
}

TEST_F(SonicSamplesTest, CableLengthDrivesHeadroomThroughTheCalculator)
{
    // The traditional file, PFC on priorities 3-4 of both ports (a third file, flat
    // keys), and CableHeadroom: the file's xoff (23552 B at 100G, 22528 B at 50G) is below
    // what 5 m of CABLE_LENGTH needs with the shared headroom pool, so lossless PGs 3 and 4
    // get calculated profiles and the pool's SHP grows by the difference.
    const std::string dir = std::string(ROCE_LAB_BINARY_DIR) + "/test-output/sonic-pfc";
    std::filesystem::create_directories(dir);
    const std::string pfc = dir + "/pfc-enable.json";
    std::ofstream(pfc) << R"({"PORT_QOS_MAP|Ethernet28": {"pfc_enable": "3,4"},
                              "PORT_QOS_MAP|Ethernet16": {"pfc_enable": "3,4"}})";
    auto runner = Run(Experiment(R"({"type": "ns3::SonicBufferManager", "CableHeadroom": true,
                                     "config_db": [")" +
                                 TRADITIONAL + R"(", ")" + pfc + R"("],
                                     "config_db_ports": ["Ethernet28", "Ethernet16"]})"),
                      "cable");
    const Headroom h100 = ByHand(100000, 5, true);
    const Headroom h50 = ByHand(50000, 5, true);
    for (uint32_t s = 0; s < 2; ++s)
    {
        Ptr<SonicBufferManager> bm = Buffer(*runner, s);
        ASSERT_TRUE(bm);
        EXPECT_EQ(bm->GetConfig().ports[0].cableMetres, 5);
        EXPECT_TRUE(bm->IsLosslessPriority(0, 3));
        for (uint8_t pg : {3, 4})
        {
            EXPECT_EQ(PgProfile(bm, 0, pg).xoff, h100.xoff);
            EXPECT_EQ(PgProfile(bm, 1, pg).xoff, h50.xoff);
            EXPECT_EQ(PgProfile(bm, 0, pg).xon, 19456u); // the file's profile, kept
        }
        EXPECT_EQ(Pool(bm, "ingress_lossless_pool").xoff,
                  688128 + 2 * (h100.xoff - 23552) + 2 * (h50.xoff - 22528));
    }
}

TEST_F(SonicSamplesTest, NestedQosConfigLoadsAndWarnsOnce)
{
    std::vector<std::string> warnings;
    auto runner =
        Run(Experiment(R"({"type": "ns3::SonicBufferManager", "config_db": ")" + NESTED + R"("})"),
            "nested", &warnings);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("qos-config-nested.json"), std::string::npos) << warnings[0];
    EXPECT_NE(warnings[0].find("MPLS_TC_TO_TC_MAP"), std::string::npos) << warnings[0];
    EXPECT_NE(warnings[0].find("WRED_PROFILE.yellow_max_threshold"), std::string::npos);
    for (uint32_t s = 0; s < 2; ++s)
    {
        Ptr<SonicBufferManager> bm = Buffer(*runner, s);
        ASSERT_TRUE(bm);
        EXPECT_EQ(Pool(bm, "ingress_lossless_pool").size, 12766208u);
        EXPECT_EQ(Pool(bm, "egress_lossy_pool").size, 7326924u);
        EXPECT_EQ(Pool(bm, "egress_lossless_pool").size, 12766208u);
        EXPECT_FALSE(Pool(bm, "egress_lossless_pool").dynamic);
        EXPECT_EQ(bm->GetIngressThreshold(0, 0), DynamicThreshold(3, 12766208));
        EXPECT_EQ(bm->GetEgressThreshold(1, 0), DynamicThreshold(3, 7326924));
        EXPECT_EQ(bm->GetEgressThreshold(1, 3), 12766208u); // static_th
        const SonicBufferConfig& c = bm->GetConfig();
        EXPECT_EQ(c.profiles[c.ports[1].queueProfile[5]].size, 1518u);
        EXPECT_EQ(c.ports[0].cableMetres, 300);
        EXPECT_EQ(c.schedulers.size(), 2u);
        // PORT_QOS_MAP is empty: the AZURE maps bind no port, the switch keeps DSCP >> 3.
        EXPECT_EQ(runner->GetTopology().GetSwitch(s)->GetDscpToTc(0, 46), 46 >> 3);
    }
}

TEST_F(SonicSamplesTest, GlobalDscpMapBesideABufferFileClassifies)
{
    // configs/sonic-dynamic-sample.json (the command of dcb.md): the dynamic
    // file and beside it PORT_QOS_MAP|global dscp_to_tc_map AZURE = {0: 0, 1: 1}; other
    // DSCPs go to TC 0 (SAI). The WRITE's DSCP 26 (priority 3) -> TC 0 -> PG 0 (SONiC's
    // default TC -> PG map), queue 0, where without the map it is TC 3.
    std::vector<std::string> warnings;
    auto runner = Run(ExperimentConfig::LoadFile(std::string(ROCE_LAB_SOURCE_DIR) +
                                                 "/configs/sonic-dynamic-sample.json"),
                      "qos-global", &warnings);
    ASSERT_EQ(warnings.size(), 1u); // one line for both files
    EXPECT_NE(warnings[0].find("buffer-dynamic-single-pool-redis-keys.json: tables"),
              std::string::npos)
        << warnings[0];
    EXPECT_NE(warnings[0].find("port-qos-map-global-redis-keys.json: tables VERSIONS"),
              std::string::npos)
        << warnings[0];
    Ptr<DcbSwitch> sw = runner->GetTopology().GetSwitch(0);
    for (uint32_t p = 0; p < 2; ++p)
    {
        EXPECT_EQ(sw->GetDscpToTc(p, 0), 0);
        EXPECT_EQ(sw->GetDscpToTc(p, 1), 1);
        EXPECT_EQ(sw->GetDscpToTc(p, 26), 0); // unmapped: TC 0, not 26 >> 3
    }
    Ptr<SonicBufferManager> bm = Buffer(*runner, 0);
    EXPECT_GT(bm->GetQueueWatermark(1, 0), 0u); // data to the other switch in queue 0
    EXPECT_EQ(bm->GetQueueWatermark(1, 3), 0u);
    EXPECT_GT(bm->GetPgSharedWatermark(0, 0), 0u); // and in PG 0 of the host's port
    EXPECT_EQ(bm->GetPgSharedWatermark(0, 3), 0u);
    EXPECT_EQ(bm->GetPgHeadroomWatermark(0, 3), 0u);
}

TEST_F(SonicSamplesTest, MalformedAndMisnamedFilesGiveLocatedErrors)
{
    const std::string dir = std::string(ROCE_LAB_BINARY_DIR) + "/test-output/sonic-errors";
    std::filesystem::create_directories(dir);
    const std::string bad = dir + "/bad-flat.json";
    std::ofstream(bad) << R"({"BUFFER_POOL|p": {"type": "ingress", "size": "12MB"}})";
    auto error = [](const std::string& buffer)
    {
        try
        {
            ExperimentConfig::LoadString(Experiment(buffer), "exp.json");
        }
        catch (const ExperimentConfigError& e)
        {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    std::string e = error(R"({"type": "ns3::SonicBufferManager", "config_db": ")" + bad + R"("})");
    EXPECT_NE(e.find("exp.json: /buffer/config_db"), std::string::npos) << e;
    EXPECT_NE(e.find(bad + ": /BUFFER_POOL|p/size: '12MB'"), std::string::npos) << e;
    e = error(R"({"type": "ns3::SonicBufferManager", "config_db": ")" + TRADITIONAL +
              R"(", "config_db_ports": ["Ethernet28", "Ethernet99"]})");
    EXPECT_NE(e.find("/buffer/config_db_ports/1"), std::string::npos) << e;
    EXPECT_NE(e.find("Ethernet99"), std::string::npos) << e;
    e = error(R"({"type": "ns3::SonicBufferManager", "config_db": ")" + TRADITIONAL +
              R"(", "config_db_ports": ["Ethernet28", "Ethernet28"]})");
    EXPECT_NE(e.find("/buffer/config_db_ports/1"), std::string::npos) << e;
    e = error(R"({"type": "ns3::SonicBufferManager", "config_db": [")" + TRADITIONAL + R"(", 7]})");
    EXPECT_NE(e.find("/buffer/config_db/1"), std::string::npos) << e;
    e = error(R"({"type": "ns3::SonicBufferManager", "config_db_ports": ["Ethernet0"]})");
    EXPECT_NE(e.find("/buffer/config_db_ports"), std::string::npos) << e;
}

} // namespace
} // namespace ns3
