// SonicBufferManager and SonicConfigLoader with Azure's Listing 1 (NSDI'23 App. A):
// thresholds, shared headroom pool, lossy egress, XON, loader errors. No network.
#include "sonic-loader-probe.h"

#include "ns3/boolean.h"
#include "ns3/simulator.h"
#include "ns3/sonic-buffer-manager.h"
#include "ns3/sonic-config-loader.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const std::string LISTING1 =
    std::string(ROCE_LAB_SOURCE_DIR) + "/topologies/sonic/azure-pizza-box-24MB.json";
constexpr uint32_t CELL = 208; // Broadcom TH2 cell, SonicBufferManager::CellSize default
constexpr uint8_t LOSSLESS = 3;
constexpr uint8_t LOSSY = 0;

struct PfcEvent
{
    uint32_t port;
    uint8_t prio;
    bool xoff;
};

class SonicBufferTest : public ::testing::Test
{
  protected:
    void Build(uint32_t ports, const std::string& file = LISTING1)
    {
        bm = CreateObject<SonicBufferManager>();
        bm->SetAttribute("ConfigFile", StringValue(file));
        bm->SetPfcCallback(MakeCallback(&SonicBufferTest::OnPfc, this));
        std::vector<BufferPortInfo> info(
            ports, BufferPortInfo{DataRate("100Gbps"), MicroSeconds(1), 9216});
        ASSERT_EQ(bm->Setup(info), "");
        ingressPool = bm->GetConfig().FindPool("ingress_pool");
        lossyPool = bm->GetConfig().FindPool("egress_lossy_pool");
        ASSERT_GE(ingressPool, 0);
        ASSERT_GE(lossyPool, 0);
    }

    void BuildFrom(uint32_t ports, const SonicBufferConfig& config)
    {
        bm = CreateObject<SonicBufferManager>();
        bm->SetConfig(config);
        bm->SetPfcCallback(MakeCallback(&SonicBufferTest::OnPfc, this));
        std::vector<BufferPortInfo> info(
            ports, BufferPortInfo{DataRate("100Gbps"), MicroSeconds(1), 9216});
        ASSERT_EQ(bm->Setup(info), "");
        ingressPool = bm->GetConfig().FindPool("ingress_pool");
        lossyPool = bm->GetConfig().FindPool("egress_lossy_pool");
    }

    void OnPfc(uint32_t port, uint8_t prio, bool xoff)
    {
        events.push_back(PfcEvent{port, prio, xoff});
    }

    void TearDown() override
    {
        bm = nullptr;
        Simulator::Destroy();
    }

    /** Saturate lossless PGs (port p, PG 3) for p in [0, n) towards port \p out, round robin. */
    void SaturatePgs(uint32_t n, uint32_t out, uint32_t len)
    {
        for (bool any = true; any;)
        {
            any = false;
            for (uint32_t p = 0; p < n; ++p)
            {
                if (!bm->IsPaused(p, LOSSLESS))
                {
                    ASSERT_TRUE(bm->Admit(p, out, LOSSLESS, len));
                    any = true;
                }
            }
        }
    }

    Ptr<SonicBufferManager> bm;
    std::vector<PfcEvent> events;
    int32_t ingressPool{-1};
    int32_t lossyPool{-1};
};

TEST(SonicConfig, AlphaFromDynamicTh)
{
    // spec §8 check 1.
    EXPECT_EQ(SonicBufferConfig::AlphaFromDynamicTh(-8), 0.0);
    EXPECT_EQ(SonicBufferConfig::AlphaFromDynamicTh(-3), 0.125);
    EXPECT_EQ(SonicBufferConfig::AlphaFromDynamicTh(-1), 0.5);
    EXPECT_EQ(SonicBufferConfig::AlphaFromDynamicTh(0), 1.0);
    EXPECT_EQ(SonicBufferConfig::AlphaFromDynamicTh(3), 8.0);
    EXPECT_TRUE(std::isinf(SonicBufferConfig::AlphaFromDynamicTh(7)));
}

TEST(SonicConfig, LoadsListing1)
{
    SonicLoaderProbe loader;
    SonicBufferConfig c;
    ASSERT_TRUE(loader.LoadFile(LISTING1, c)) << loader.GetError();
    ASSERT_EQ(c.pools.size(), 3u);
    const SonicBufferPool& in = c.pools[c.FindPool("ingress_pool")];
    EXPECT_EQ(in.size, 18000000u);
    EXPECT_EQ(in.xoff, 6000000u);
    EXPECT_EQ(c.pools[c.FindPool("egress_lossy_pool")].size, 14000000u);
    EXPECT_EQ(c.pools[c.FindPool("egress_lossless_pool")].size, 24000000u);
    EXPECT_FALSE(c.pools[c.FindPool("egress_lossless_pool")].dynamic);
    const SonicBufferProfile& ll = c.profiles[c.FindProfile("ingress_lossless_profile")];
    EXPECT_EQ(ll.size, 1248u);
    EXPECT_TRUE(ll.dynamic);
    EXPECT_EQ(ll.dynamicTh, -3);
    EXPECT_EQ(ll.xoff, 96928u);
    EXPECT_EQ(ll.xon, 1248u);
    EXPECT_EQ(ll.xonOffset, 2496u);
    const SonicBufferProfile& lossyIn = c.profiles[c.FindProfile("ingress_lossy_profile")];
    EXPECT_FALSE(lossyIn.dynamic);
    EXPECT_EQ(lossyIn.staticTh, 24000000u);
    EXPECT_EQ(c.profiles[c.FindProfile("egress_lossy_profile")].size, 1664u);
    EXPECT_EQ(c.profiles[c.FindProfile("egress_lossy_profile")].dynamicTh, -1);
    ASSERT_EQ(c.ports.size(), 64u);
    EXPECT_EQ(c.ports[1].name, "Ethernet4");
    EXPECT_EQ(c.ports[63].pfcEnable, 0x18);
    EXPECT_EQ(c.ports[5].pgProfile[3], c.FindProfile("ingress_lossless_profile"));
    EXPECT_EQ(c.ports[5].pgProfile[0], c.FindProfile("ingress_lossy_profile"));
    EXPECT_EQ(c.ports[5].queueProfile[6], c.FindProfile("egress_lossy_profile"));
    EXPECT_EQ(c.ports[5].queueProfile[4], c.FindProfile("egress_lossless_profile"));
    EXPECT_EQ(c.ports[5].queueWred[3], c.FindWredProfile("AZURE_LOSSLESS"));
    EXPECT_EQ(c.wredProfiles[0].greenMin, 1048576u);
    EXPECT_DOUBLE_EQ(c.wredProfiles[0].greenDropProbability, 0.05);
    EXPECT_EQ(c.ports[7].detectionMs, 200u);
    EXPECT_EQ(c.ports[7].watchdogAction, "drop");
    // DEVICE_METADATA|localhost buffer_model is read: nothing is left unmodelled.
    EXPECT_TRUE(loader.GetNotes().empty());
    EXPECT_EQ(loader.GetUnmodelled(), "");
}

/** Listing 1 with one field replaced; \return the loader error ("" on success). */
std::string
LoadWith(const std::string& json)
{
    SonicLoaderProbe loader;
    SonicBufferConfig c;
    loader.LoadString(json, "test.json", c);
    return loader.GetError();
}

const std::string POOLS = R"(
  "BUFFER_POOL": {
    "ingress_pool": {"size": "18000000", "type": "ingress", "mode": "dynamic", "xoff": "6000000"},
    "egress_lossy_pool": {"size": "LOSSY_SIZE", "type": "egress", "mode": "dynamic"},
    "egress_lossless_pool": {"size": "24000000", "type": "egress", "mode": "static"}
  },)";
const std::string REST = R"(
  "BUFFER_PROFILE": {
    "ingress_lossless_profile": {"pool": "[BUFFER_POOL|LOSSLESS_POOL]", "size": "1248",
      "dynamic_th": "-3", XOFF "xon": "1248", "xon_offset": "2496"},
    "ingress_lossy_profile": {"pool": "[BUFFER_POOL|ingress_pool]", "size": "0", "static_th": "24000000"},
    "egress_lossless_profile": {"pool": "[BUFFER_POOL|egress_lossless_pool]", "size": "0", "static_th": "24000000"},
    "egress_lossy_profile": {"pool": "[BUFFER_POOL|egress_lossy_pool]", "size": "1664", "dynamic_th": "-1"}
  },
  "BUFFER_PG": {"Ethernet0|0": {"profile": "[BUFFER_PROFILE|ingress_lossy_profile]"},
                "Ethernet0|3-4": {"profile": "[BUFFER_PROFILE|ingress_lossless_profile]"}},
  "BUFFER_QUEUE": {"Ethernet0|0-2": {"profile": "[BUFFER_PROFILE|egress_lossy_profile]"},
                   "Ethernet0|3-4": {"profile": "[BUFFER_PROFILE|egress_lossless_profile]"}},
  "PORT_QOS_MAP": {"PORT_NAME": {"pfc_enable": "3,4"}}
})";

std::string
Config(const std::string& lossySize = "14000000", const std::string& losslessPool = "ingress_pool",
       const std::string& xoff = R"("xoff": "96928",)", const std::string& port = "Ethernet0")
{
    std::string s = "{" + POOLS + REST;
    auto rep = [&s](const std::string& from, const std::string& to)
    { s.replace(s.find(from), from.size(), to); };
    rep("LOSSY_SIZE", lossySize);
    rep("LOSSLESS_POOL", losslessPool);
    rep("XOFF", xoff);
    rep("PORT_NAME", port);
    return s;
}

TEST(SonicConfig, MinimalConfigLoads)
{
    EXPECT_EQ(LoadWith(Config()), "");
}

TEST(SonicConfig, RejectsProfileNamingMissingPool)
{
    const std::string e = LoadWith(Config("14000000", "no_such_pool"));
    EXPECT_NE(e.find("test.json"), std::string::npos) << e;
    EXPECT_NE(e.find("/BUFFER_PROFILE/ingress_lossless_profile/pool"), std::string::npos) << e;
    EXPECT_NE(e.find("no_such_pool"), std::string::npos) << e;
}

TEST(SonicConfig, RejectsEgressLossyPoolLargerThanIngress)
{
    const std::string e = LoadWith(Config("18000001"));
    EXPECT_NE(e.find("test.json: /BUFFER_POOL/egress_lossy_pool/size"), std::string::npos) << e;
    EXPECT_EQ(LoadWith(Config("18000000")), ""); // equal is allowed (Azure: "no larger")
}

TEST(SonicConfig, RejectsLosslessPgWithoutXoff)
{
    const std::string e = LoadWith(Config("14000000", "ingress_pool", ""));
    EXPECT_NE(e.find("test.json: /BUFFER_PG/Ethernet0|3-4/profile"), std::string::npos) << e;
    EXPECT_NE(e.find("xoff"), std::string::npos) << e;
}

TEST(SonicConfig, RejectsMalformedSizes)
{
    std::string e = LoadWith(Config("14MB"));
    EXPECT_NE(e.find("test.json: /BUFFER_POOL/egress_lossy_pool/size"), std::string::npos) << e;
    EXPECT_NE(e.find("'14MB'"), std::string::npos) << e;
    e = LoadWith(Config("-1"));
    EXPECT_NE(e.find("/BUFFER_POOL/egress_lossy_pool/size"), std::string::npos) << e;
    e = LoadWith(Config("14000000", "ingress_pool", R"("xoff": "",)"));
    EXPECT_NE(e.find("/BUFFER_PROFILE/ingress_lossless_profile/xoff"), std::string::npos) << e;
}

TEST(SonicConfig, RejectsBadJsonAndPortNames)
{
    // A syntax error names its line and column.
    std::string e = LoadWith("{ \"BUFFER_POOL\": ");
    EXPECT_EQ(e.rfind("test.json:1:", 0), 0u) << e;
    EXPECT_NE(e.find(": invalid JSON: "), std::string::npos) << e;
    e = LoadWith(Config("14000000", "ingress_pool", R"("xoff": "96928",)", "Ethernet2"));
    EXPECT_NE(e.find("/PORT_QOS_MAP/Ethernet2"), std::string::npos) << e;
    SonicLoaderProbe loader;
    SonicBufferConfig c;
    EXPECT_FALSE(loader.LoadFile("/nonexistent/x.json", c));
    EXPECT_NE(loader.GetError().find("/nonexistent/x.json"), std::string::npos);
}

TEST(SonicConfig, ExplicitPortMapAndDivisor)
{
    SonicLoaderProbe loader;
    SonicBufferConfig c;
    loader.SetPortMap({{"Ethernet0", 2}});
    ASSERT_TRUE(loader.LoadString(Config(), "test.json", c)) << loader.GetError();
    ASSERT_EQ(c.ports.size(), 3u);
    EXPECT_TRUE(c.ports[2].configured);
    EXPECT_FALSE(c.ports[0].configured);
    // EthernetN -> N: Ethernet2 is port 2, lossless without a BUFFER_PG entry -> rejected.
    SonicLoaderProbe byIndex;
    byIndex.SetEthernetDivisor(1);
    EXPECT_FALSE(byIndex.LoadString(
        Config("14000000", "ingress_pool", R"("xoff": "96928",)", "Ethernet0,Ethernet2"),
        "test.json", c));
    EXPECT_NE(byIndex.GetError().find("/PORT_QOS_MAP/Ethernet2/pfc_enable"), std::string::npos)
        << byIndex.GetError();
}

TEST_F(SonicBufferTest, FileMatchesBuiltInListing1)
{
    Build(64);
    const SonicBufferConfig builtIn = SonicBufferConfig::AzureListing1(64);
    const SonicBufferConfig& file = bm->GetConfig();
    for (const auto& prof : builtIn.profiles)
    {
        const SonicBufferProfile& f = file.profiles[file.FindProfile(prof.name)];
        EXPECT_EQ(f.size, prof.size) << prof.name;
        EXPECT_EQ(f.dynamic, prof.dynamic) << prof.name;
        EXPECT_EQ(f.dynamicTh, prof.dynamicTh) << prof.name;
        EXPECT_EQ(f.staticTh, prof.staticTh) << prof.name;
        EXPECT_EQ(f.xoff, prof.xoff) << prof.name;
        EXPECT_EQ(file.pools[f.pool].name, builtIn.pools[prof.pool].name) << prof.name;
    }
    EXPECT_EQ(bm->GetIngressThreshold(0, 3), 2250000u); // 1/8 of an empty 18 MB pool
}

TEST_F(SonicBufferTest, SinglePgPausesAtOneEighthOfFreeSpace)
{
    // spec §8 check 2, N = 1: u = alpha S / (1 + alpha) = 2,000,000 B.
    Build(64);
    const uint32_t L = 1040; // 5 cells
    while (events.empty())
    {
        ASSERT_TRUE(bm->Admit(0, 1, LOSSLESS, L));
    }
    const uint64_t u = bm->GetPgSharedBytes(0, LOSSLESS);
    const uint64_t t = (18000000 - bm->GetPoolSharedBytes(ingressPool)) / 8;
    // Paused by the first packet that would take its occupancy past 1/8 of the
    // free shared space ...
    EXPECT_LE(u, t);
    EXPECT_GT(u + L, t);
    EXPECT_EQ(bm->GetPgHeadroomBytes(0, LOSSLESS), L); // that packet went to headroom
    // ... which is the DT equilibrium.
    EXPECT_NEAR(double(u), 2000000.0, L);
    EXPECT_EQ(bm->GetPgReservedBytes(0, LOSSLESS), 1040u); // 1248 B reserved holds one packet
    ASSERT_EQ(events.size(), 1u);
    EXPECT_TRUE(events[0].xoff);
    EXPECT_EQ(events[0].port, 0u);
    EXPECT_EQ(events[0].prio, LOSSLESS);
    RecordProperty("pause_bytes", std::to_string(u));
}

TEST_F(SonicBufferTest, SeveralPgsPauseAtDynamicThresholdShare)
{
    // spec §8 check 2: u = alpha S / (1 + N alpha), S = 18e6, alpha = 1/8.
    const std::vector<std::pair<uint32_t, double>> cases = {
        {2, 1800000}, {4, 1500000}, {8, 1125000}, {16, 750000}, {32, 450000}};
    for (const auto& [n, expected] : cases)
    {
        events.clear();
        Build(64);
        const uint32_t L = 1040;
        SaturatePgs(n, 63, L);
        for (uint32_t p = 0; p < n; ++p)
        {
            EXPECT_TRUE(bm->IsPaused(p, LOSSLESS));
            EXPECT_NEAR(double(bm->GetPgSharedBytes(p, LOSSLESS)), expected, 2.0 * L)
                << "N=" << n << " port " << p;
        }
        EXPECT_EQ(bm->GetDrops(BufferManager::DROP_HEADROOM_OVERFLOW), 0u);
        RecordProperty("pause_bytes_N" + std::to_string(n),
                       std::to_string(bm->GetPgSharedBytes(0, LOSSLESS)));
    }
}

TEST_F(SonicBufferTest, PauseFollowsInstantaneousFreeSpace)
{
    // spec §8 check 3: others hold X ~ 10,000,000 B of the ingress pool (lossy
    // traffic here), u = alpha (S - X) / (1 + alpha) ~ 888,888 B.
    Build(64);
    uint32_t out = 2;
    while (bm->GetPoolSharedBytes(ingressPool) < 10000000)
    {
        ASSERT_TRUE(bm->Admit(1, out, LOSSY, CELL));
        out = out == 20 ? 2 : out + 1;
    }
    const uint64_t x = bm->GetPoolSharedBytes(ingressPool);
    const uint32_t L = 1040;
    while (events.empty())
    {
        ASSERT_TRUE(bm->Admit(0, 63, LOSSLESS, L));
    }
    const uint64_t u = bm->GetPgSharedBytes(0, LOSSLESS);
    EXPECT_NEAR(double(u), (18000000.0 - double(x)) / 9.0, L);
    EXPECT_NEAR(double(u), 888888.0, L + CELL);
    RecordProperty("pause_bytes", std::to_string(u));
}

TEST_F(SonicBufferTest, LosslessKeepsFourMegabytesWhenLossyFillsItsPool)
{
    // Azure App. A: egress_lossy_pool (14 MB) <= ingress_pool (18 MB) leaves
    // lossless queues 18 - 14 = 4 MB of the ingress pool before pausing.
    Build(64);
    const uint32_t L = 1040;
    // Lossy traffic from ports 32..62 to every lossy queue of ports 1..31 until all refuse.
    for (bool any = true; any;)
    {
        any = false;
        for (uint32_t d = 1; d < 32; ++d)
        {
            for (uint8_t q : {0, 1, 2, 5, 6})
            {
                any = bm->Admit(31 + d, d, q, L) || any;
            }
        }
    }
    const uint64_t lossyQueues = 31 * 5;
    const uint64_t egressReserved = lossyQueues * 1664; // queue reserve, also charged at ingress
    EXPECT_GT(bm->GetDrops(BufferManager::DROP_EGRESS_LIMIT), 0u);
    EXPECT_EQ(bm->GetDrops(BufferManager::DROP_INGRESS_LIMIT), 0u);
    EXPECT_LE(bm->GetPoolSharedBytes(lossyPool), 14000000u);
    const uint64_t x = bm->GetPoolSharedBytes(ingressPool);
    EXPECT_LE(x, 14000000u + egressReserved);
    EXPECT_GE(18000000 - x, 4000000u - egressReserved);
    // 32 lossless PGs then congest: all pause at alpha (S - X) / (1 + N alpha), no loss,
    // together holding N alpha / (1 + N alpha) = 80 % of the >= 4 MB left.
    SaturatePgs(31, 63, L);
    SaturatePgs(1, 63, L);
    uint64_t lossless = 0;
    for (uint32_t p = 0; p < 31; ++p)
    {
        lossless += bm->GetPgSharedBytes(p, LOSSLESS);
    }
    EXPECT_NEAR(double(lossless), 31.0 / 8 / (1 + 31.0 / 8) * double(18000000 - x), 31.0 * L);
    EXPECT_EQ(bm->GetDrops(BufferManager::DROP_HEADROOM_OVERFLOW), 0u);
    RecordProperty("lossy_ingress_bytes", std::to_string(x));
    RecordProperty("lossless_shared_bytes", std::to_string(lossless));

    // The check can fail: with egress_lossy_pool = ingress_pool (18 MB), lossy
    // traffic leaves lossless PGs less than the 4 MB.
    SonicBufferConfig wide = SonicBufferConfig::AzureListing1(64);
    wide.pools[wide.FindPool("egress_lossy_pool")].size = 18000000;
    BuildFrom(64, wide);
    for (bool any = true; any;)
    {
        any = false;
        for (uint32_t d = 1; d < 32; ++d)
        {
            for (uint8_t q : {0, 1, 2, 5, 6})
            {
                any = bm->Admit(31 + d, d, q, L) || any;
            }
        }
    }
    EXPECT_LT(18000000 - bm->GetPoolSharedBytes(ingressPool), 4000000u - egressReserved);
}

TEST_F(SonicBufferTest, PausedPgsShareSixMegabyteHeadroomPool)
{
    // spec §8 check 5: SHP 6,000,000 B, per-PG cap 96,928 B: floor(6e6 / 96928) = 61
    // PGs fill their headroom, the 62nd drops before filling its own.
    Build(64);
    const uint32_t L = 416; // 2 cells; 96928 = 233 packets
    std::vector<uint64_t> headroom;
    for (uint32_t p = 0; p < 62; ++p)
    {
        uint32_t sent = 0;
        // Two egress queues: one static_th of 24 MB cannot hold 18 MB shared + 6 MB
        // SHP + the PGs' reserved bytes.
        while (bm->Admit(p, 62 + p % 2, LOSSLESS, L))
        {
            ASSERT_LT(++sent, 100000u);
        }
        ASSERT_TRUE(bm->IsPaused(p, LOSSLESS)) << p;
        headroom.push_back(bm->GetPgHeadroomBytes(p, LOSSLESS));
    }
    for (uint32_t p = 0; p < 61; ++p)
    {
        EXPECT_EQ(headroom[p], 96928u) << p;
    }
    EXPECT_EQ(headroom[61], 87360u); // 6e6 - 61 x 96928 = 87,392 B left: 210 packets
    EXPECT_EQ(bm->GetPoolHeadroomBytes(ingressPool), 61u * 96928 + 87360);
    EXPECT_EQ(bm->GetPoolHeadroomWatermark(ingressPool), 61u * 96928 + 87360);
    EXPECT_EQ(bm->GetDrops(BufferManager::DROP_HEADROOM_OVERFLOW), 62u); // one per PG
    EXPECT_EQ(bm->GetPgHeadroomWatermark(61, LOSSLESS), 87360u);
    RecordProperty("pg62_headroom", std::to_string(headroom[61]));
}

TEST_F(SonicBufferTest, LossyEgressDropsAtHalfOfFreeLossyPool)
{
    // spec §8 check 4: 14 MB pool, alpha 1/2, one queue -> 4,666,666 B shared + 1664 reserved.
    Build(64);
    while (bm->Admit(0, 1, LOSSY, CELL))
    {
    }
    EXPECT_NEAR(double(bm->GetQueueBytes(1, LOSSY)), 4666666.0 + 1664, CELL);
    EXPECT_NEAR(double(bm->GetPoolSharedBytes(lossyPool)), 4666666.0, CELL);
    EXPECT_EQ(bm->GetQueueWatermark(1, LOSSY), bm->GetQueueBytes(1, LOSSY));
    EXPECT_EQ(bm->GetDrops(BufferManager::DROP_EGRESS_LIMIT), 1u);
    EXPECT_TRUE(events.empty()); // lossy traffic never pauses
    RecordProperty("queue_bytes", std::to_string(bm->GetQueueBytes(1, LOSSY)));
}

TEST_F(SonicBufferTest, XonWhenHeadroomEmptyAndBelowLimitMinusOffset)
{
    Build(64);
    const uint32_t L = 1040;
    uint32_t n = 0;
    while (bm->Admit(0, 1, LOSSLESS, L))
    {
        n++;
    }
    ASSERT_EQ(events.size(), 1u);
    EXPECT_GT(bm->GetPgHeadroomBytes(0, LOSSLESS), 90000u);
    for (uint32_t i = 0; i < n && events.size() == 1; ++i)
    {
        bm->Release(0, 1, LOSSLESS, L);
        if (events.size() == 1)
        {
            EXPECT_TRUE(bm->IsPaused(0, LOSSLESS));
        }
    }
    ASSERT_EQ(events.size(), 2u);
    EXPECT_FALSE(events[1].xoff);
    EXPECT_EQ(bm->GetPgHeadroomBytes(0, LOSSLESS), 0u);
    // usage <= size + T - xon_offset, and one packet more would not have been.
    const uint64_t usage = bm->GetPgReservedBytes(0, LOSSLESS) + bm->GetPgSharedBytes(0, LOSSLESS);
    const uint64_t limit = 1248 + bm->GetIngressThreshold(0, LOSSLESS);
    EXPECT_LE(usage, limit - 2496);
    EXPECT_GT(usage + L, limit - 2496);
    // Drained completely, every counter is back to zero.
    while (bm->GetOccupancy() > 0)
    {
        bm->Release(0, 1, LOSSLESS, L);
    }
    EXPECT_EQ(bm->GetPoolSharedBytes(ingressPool), 0u);
    EXPECT_EQ(bm->GetQueueBytes(1, LOSSLESS), 0u);
    EXPECT_EQ(bm->GetPgSharedWatermark(0, LOSSLESS) > 1900000, true);
    bm->ClearWatermarks();
    EXPECT_EQ(bm->GetPgSharedWatermark(0, LOSSLESS), 0u);
}

TEST_F(SonicBufferTest, DefaultIsListing1AndPortCountIsChecked)
{
    // No ConfigFile: built-in Listing 1 on every port.
    bm = CreateObject<SonicBufferManager>();
    std::vector<BufferPortInfo> info(4, BufferPortInfo{DataRate("100Gbps"), MicroSeconds(1), 9216});
    EXPECT_EQ(bm->Setup(info), "");
    EXPECT_EQ(bm->GetIngressThreshold(3, 4), 2250000u);
    EXPECT_TRUE(bm->IsLosslessPriority(3, 4));
    EXPECT_FALSE(bm->IsLosslessPriority(3, 0));

    // The 64-port file on a 66-port switch: rejected unless unlisted ports copy port 0.
    bm = CreateObject<SonicBufferManager>();
    bm->SetAttribute("ConfigFile", StringValue(LISTING1));
    info.resize(66, info[0]);
    const std::string e = bm->Setup(info);
    EXPECT_NE(e.find("switch port 64"), std::string::npos) << e;
    EXPECT_NE(e.find("UnlistedPortsLikeFirst"), std::string::npos) << e;
    bm = CreateObject<SonicBufferManager>();
    bm->SetAttribute("ConfigFile", StringValue(LISTING1));
    bm->SetAttribute("UnlistedPortsLikeFirst", BooleanValue(true));
    EXPECT_EQ(bm->Setup(info), "");
    EXPECT_TRUE(bm->IsLosslessPriority(65, 3));

    // Fewer switch ports than the file names: the rest are ignored with a note.
    bm = CreateObject<SonicBufferManager>();
    bm->SetAttribute("ConfigFile", StringValue(LISTING1));
    info.resize(8);
    EXPECT_EQ(bm->Setup(info), "");
    ASSERT_EQ(bm->GetLoadNotes().size(), 1u);
    EXPECT_NE(bm->GetLoadNotes()[0].find("ports from index 8 on"), std::string::npos);
}

} // namespace

// The buffer monitor reads a switch's figures through BufferManager alone: pools first,
// then the (port, index) objects whose watermark is above zero; ClearWatermarks through
// the base resets them.
TEST_F(SonicBufferTest, ReportsOccupancyThroughTheBaseInterface)
{
    Build(4);
    ASSERT_TRUE(bm->Admit(0, 1, LOSSLESS, 1000));
    Ptr<BufferManager> base = bm;
    std::vector<BufferOccupancy> report;
    base->ReportOccupancy(report);
    ASSERT_GE(report.size(), bm->GetConfig().pools.size());
    EXPECT_STREQ(report[0].object, "pool_shared");
    EXPECT_EQ(report[0].name, bm->GetConfig().pools[0].name);
    EXPECT_EQ(report[0].port, -1);
    auto find = [&report](const char* object, int32_t port, int32_t index)
    {
        for (const BufferOccupancy& f : report)
        {
            if (std::string(f.object) == object && f.port == port && f.index == index)
            {
                return &f;
            }
        }
        return static_cast<const BufferOccupancy*>(nullptr);
    };
    const BufferOccupancy* queue = find("queue", 1, LOSSLESS);
    ASSERT_NE(queue, nullptr);
    EXPECT_EQ(queue->bytes, bm->GetQueueBytes(1, LOSSLESS));
    EXPECT_GT(queue->bytes, 0u);
    EXPECT_EQ(queue->watermark, bm->GetQueueWatermark(1, LOSSLESS));

    bm->Release(0, 1, LOSSLESS, 1000);
    base->ClearWatermarks();
    report.clear();
    base->ReportOccupancy(report);
    EXPECT_EQ(find("queue", 1, LOSSLESS), nullptr);
}
