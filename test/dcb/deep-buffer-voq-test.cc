// Deep-buffer VoQ chassis (spec §6, Azure NSDI'23 §7.1 and fn. 3): the shipped
// config_db chassis example, a long-haul burst absorbed by DRAM VoQs that a
// pizza box must pause for, and drops when every port runs at line rate because
// the DRAM bandwidth is below the forwarding capacity.
#include "dcb-bulk-source.h"
#include "sonic-loader-probe.h"

#include "ns3/boolean.h"
#include "ns3/config-error.h"
#include "ns3/dcb-helper.h"
#include "ns3/dcb-net-device.h"
#include "ns3/dcb-switch.h"
#include "ns3/deep-buffer-voq.h"
#include "ns3/double.h"
#include "ns3/ethernet-vlan-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/node.h"
#include "ns3/red-ecn-marker.h"
#include "ns3/simulator.h"
#include "ns3/sonic-config-loader.h"
#include "ns3/string.h"
#include "ns3/udp-header.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const std::string CHASSIS_FILE =
    std::string(ROCE_LAB_SOURCE_DIR) + "/topologies/sonic/voq-chassis-j2-6GB.json";
constexpr uint32_t N_PORTS = 8;
constexpr uint8_t LOSSLESS = 3;

/** Eight hosts on one switch; host i on switch port i. */
class ChassisTest : public ::testing::Test
{
  protected:
    /**
     * \param chassis DeepBufferVoq with the shipped file, else a Listing 1 pizza box
     * \param longHaulLast host 7 sits 80 km away on a 400 Gb/s link
     */
    void Build(bool chassis, bool longHaulLast,
               std::vector<std::pair<std::string, Ptr<AttributeValue>>> attrs = {})
    {
        DcbHelper h;
        if (chassis)
        {
            h.SetBufferManager("ns3::DeepBufferVoq");
            h.SetBufferManagerAttribute("ConfigFile", StringValue(CHASSIS_FILE));
        }
        else
        {
            h.SetBufferManager("ns3::SonicBufferManager");
        }
        for (auto& [name, value] : attrs)
        {
            h.SetBufferManagerAttribute(name, *value);
        }
        Ptr<Node> s = CreateObject<Node>();
        for (uint32_t i = 0; i < N_PORTS; ++i)
        {
            hosts.push_back(CreateObject<Node>());
            const bool lh = longHaulLast && i == N_PORTS - 1;
            h.SetDeviceAttribute("DataRate", DataRateValue(DataRate(lh ? "400Gbps" : "100Gbps")));
            if (lh)
            {
                h.SetChannelAttribute("Length", DoubleValue(80000)); // 400 us at 5 ns/m
            }
            else
            {
                h.SetChannelAttribute("Length", DoubleValue(0));
                h.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
            }
            Ptr<DcbNetDevice> dev = DynamicCast<DcbNetDevice>(h.Install(hosts[i], s).Get(0));
            dev->SetDcbReceiveCallback(MakeCallback(&ChassisTest::OnReceive, this));
            nics.push_back(dev);
        }
        sw = h.InstallSwitch(s);
        sw->SetAddressRange(BulkSource::Host(0), N_PORTS);
        for (uint32_t i = 0; i < N_PORTS; ++i)
        {
            sw->SetRoute(BulkSource::Host(i), {i});
        }
    }

    void Send(uint32_t src, uint32_t dst, uint64_t bytes)
    {
        sources.emplace_back(new BulkSource(src, dst, bytes, LOSSLESS));
        offered += bytes;
        nics[src]->SetTxSource(sources.back().get());
        Simulator::ScheduleNow(&DcbNetDevice::NotifyTxReady, nics[src]);
    }

    void OnReceive(Ptr<DcbNetDevice>, Ptr<Packet> p, const EthernetVlanHeader&)
    {
        received += p->GetSize() - 20 - 8; // IPv4 + UDP
    }

    uint64_t BufferDrops(BufferManager::DropReason r) const
    {
        return sw->GetBufferManager()->GetDrops(r);
    }

    void TearDown() override
    {
        for (auto& n : nics)
        {
            n->SetTxSource(nullptr);
        }
        Simulator::Destroy();
    }

    std::vector<Ptr<Node>> hosts;
    std::vector<Ptr<DcbNetDevice>> nics;
    std::vector<std::unique_ptr<BulkSource>> sources;
    Ptr<DcbSwitch> sw;
    uint64_t offered{0};
    uint64_t received{0};
};

TEST(VoqChassisConfig, ShippedFileLoadsWithSystemPortKeys)
{
    SonicLoaderProbe loader;
    SonicBufferConfig c;
    ASSERT_TRUE(loader.LoadFile(CHASSIS_FILE, c)) << loader.GetError();
    EXPECT_EQ(c.switchType, "voq");
    ASSERT_EQ(c.pools.size(), 1u);
    EXPECT_EQ(c.pools[0].type, SonicBufferPool::Type::BOTH);
    EXPECT_EQ(c.pools[0].size, 6441610000ULL);
    EXPECT_EQ(c.pools[0].xoff, 1582033305ULL);
    ASSERT_EQ(c.ports.size(), N_PORTS);
    // BUFFER_QUEUE and QUEUE are keyed t2-chassis-lc1|Asic0|EthernetN|q (system ports).
    for (uint32_t p = 0; p < N_PORTS; ++p)
    {
        EXPECT_EQ(c.profiles[c.ports[p].queueProfile[3]].name, "egress_lossless_profile");
        EXPECT_EQ(c.profiles[c.ports[p].queueProfile[0]].name, "egress_lossy_profile");
        EXPECT_EQ(c.wredProfiles[c.ports[p].queueWred[4]].greenMin, 2000000u);
    }
    // The regional-hub port has the 400G/80 km lookup row, the others 400G/2 km.
    EXPECT_EQ(c.profiles[c.ports[7].pgProfile[3]].xoff, 53305344u);
    EXPECT_EQ(c.profiles[c.ports[0].pgProfile[3]].xoff, 1445888u);
    EXPECT_EQ(c.profiles[c.ports[0].pgProfile[3]].dynamicTh, -5);
    // The built-in chassis has the file's pool and local-port profile.
    const SonicBufferConfig b = SonicBufferConfig::VoqChassisJ2(N_PORTS);
    EXPECT_EQ(b.pools[0].size, c.pools[0].size);
    EXPECT_EQ(b.pools[0].xoff, c.pools[0].xoff);
    EXPECT_EQ(b.profiles[b.ports[0].pgProfile[3]].xoff, 1445888u);
    EXPECT_NO_THROW(b.Check());
}

TEST(VoqChassisConfig, RejectsSystemPortsOfTwoAsics)
{
    const std::string text = R"({
      "BUFFER_POOL": {"p": {"type": "both", "size": "1000000"}},
      "BUFFER_PROFILE": {"q": {"pool": "p", "size": "0", "dynamic_th": "0"}},
      "BUFFER_QUEUE": {"lc1|Asic0|Ethernet0|0": {"profile": "q"},
                       "lc2|Asic1|Ethernet4|0": {"profile": "q"}}
    })";
    SonicLoaderProbe loader;
    SonicBufferConfig c;
    EXPECT_FALSE(loader.LoadString(text, "two-asics.json", c));
    EXPECT_NE(loader.GetError().find("two-asics.json: /BUFFER_QUEUE/lc2|Asic1|Ethernet4|0"),
              std::string::npos)
        << loader.GetError();
    EXPECT_NE(loader.GetError().find("one chassis ASIC"), std::string::npos);
}

TEST(VoqChassisConfig, BothPoolChargesAPacketOnce)
{
    // One pool of type both for ingress and egress accounting: a packet sits once in
    // the buffer, so it counts once against the pool that sets both thresholds.
    Ptr<SonicBufferManager> bm = CreateObject<SonicBufferManager>();
    bm->SetConfig(SonicBufferConfig::VoqChassisJ2(2));
    ASSERT_EQ(bm->Setup(std::vector<BufferPortInfo>(
                  2, BufferPortInfo{DataRate("400Gbps"), MicroSeconds(1), 9216})),
              "");
    const uint32_t L = 1040; // 5 cells of 208 B
    for (uint32_t i = 0; i < 100; ++i)
    {
        ASSERT_TRUE(bm->Admit(0, 1, LOSSLESS, L));
    }
    EXPECT_EQ(bm->GetPgSharedBytes(0, LOSSLESS), 100u * L);
    EXPECT_EQ(bm->GetQueueBytes(1, LOSSLESS), 100u * L);
    EXPECT_EQ(bm->GetPoolSharedBytes(0), 100u * L); // not 2 x
    // alpha = 1/32 of the free pool for the PG, 1/2 for the egress queue.
    EXPECT_EQ(bm->GetIngressThreshold(0, LOSSLESS), (6441610000ULL - 100 * L) >> 5);
    EXPECT_EQ(bm->GetEgressThreshold(1, LOSSLESS), (6441610000ULL - 100 * L) >> 1);
    for (uint32_t i = 0; i < 100; ++i)
    {
        bm->Release(0, 1, LOSSLESS, L);
    }
    EXPECT_EQ(bm->GetPoolSharedBytes(0), 0u);
    EXPECT_EQ(bm->GetQueueBytes(1, LOSSLESS), 0u);
}

TEST(VoqChassisConfig, ZeroDramBandwidthIsAConfigurationError)
{
    DcbHelper h;
    h.SetBufferManager("ns3::DeepBufferVoq");
    h.SetBufferManagerAttribute("DramBandwidthFraction", DoubleValue(0));
    Ptr<Node> s = CreateObject<Node>();
    h.Install(CreateObject<Node>(), s);
    try
    {
        h.InstallSwitch(s);
        ADD_FAILURE() << "the switch was installed";
    }
    catch (const ConfigError& e)
    {
        const std::string error = e.what();
        EXPECT_NE(error.find("ns3::DeepBufferVoq: DeepBufferVoq: DramBandwidth is 0"),
                  std::string::npos)
            << error;
    }
    Simulator::Destroy();
}

TEST_F(ChassisTest, DramBandwidthDefaultsBelowForwardingCapacity)
{
    Build(true, false);
    Ptr<DeepBufferVoq> voq = DynamicCast<DeepBufferVoq>(sw->GetBufferManager());
    ASSERT_TRUE(voq);
    EXPECT_EQ(voq->GetDramBandwidth(), DataRate("720Gbps")); // 0.9 x 8 x 100G
    EXPECT_EQ(voq->GetConfig().switchType, "voq");
    // The file's WRED (2 MB / 10 MB / 5 %) is programmed on queues 3-4: p(6 MB) = 2.5 %.
    Ptr<RedEcnMarker> red = DynamicCast<RedEcnMarker>(sw->GetEcnMarker(0));
    ASSERT_TRUE(red);
    EXPECT_NEAR(red->GetProbability(LOSSLESS, 6000000), 0.025, 1e-12);
    EXPECT_EQ(red->GetProbability(0, 6000000), 0.0);
}

/**
 * A 100 MB lossless burst at 400 Gb/s across 80 km into a 100 Gb/s port: the queue
 * grows at 300 Gb/s to ~75 MB. The chassis holds it in DRAM VoQs without a pause;
 * a 24 MB pizza box (Listing 1) pauses at ~2 MB and, with 5 m headroom on an 80 km
 * link, overflows.
 */
TEST_F(ChassisTest, LongHaulBurstFitsInDramVoqWithoutPause)
{
    Build(true, true);
    Send(N_PORTS - 1, 0, 100000000);
    Simulator::Stop(MilliSeconds(12));
    Simulator::Run();
    Ptr<DeepBufferVoq> voq = DynamicCast<DeepBufferVoq>(sw->GetBufferManager());
    EXPECT_EQ(received, offered);
    for (uint8_t r = 0; r < BufferManager::N_DROP_REASONS; ++r)
    {
        EXPECT_EQ(BufferDrops(static_cast<BufferManager::DropReason>(r)), 0u) << +r;
    }
    EXPECT_EQ(sw->GetPort(N_PORTS - 1)->GetCounters(LOSSLESS).pfcXoffSent, 0u);
    // Peak VoQ: 3/4 of the burst in frame bytes (frames are 4096 + 46 B of headers).
    const double expected = 0.75 * 100000000.0 * (PAYLOAD + 46) / PAYLOAD;
    EXPECT_NEAR(double(voq->GetVoqWatermark(0, LOSSLESS)), expected, 0.02 * expected);
    EXPECT_NEAR(double(voq->GetDramWatermark()), expected, 0.02 * expected);
    EXPECT_EQ(voq->GetOcbWatermark(), 0u); // every packet went through DRAM
    EXPECT_FALSE(voq->IsPaused(N_PORTS - 1, LOSSLESS));
    RecordProperty("voq_peak_bytes", std::to_string(voq->GetVoqWatermark(0, LOSSLESS)));
}

/**
 * A 300 MB burst the same way: the VoQ would pass the long-haul PG's dynamic threshold
 * (alpha 1/32 of the 6.44 GB pool, ~195 MB), so the chassis pauses the 80 km link and
 * the 400G/80 km profile's xoff (53,305,344 B, in the 1.58 GB shared headroom pool)
 * takes the ~30 MB still in flight: no loss.
 */
TEST_F(ChassisTest, LongerBurstPausesAndLongHaulHeadroomKeepsItLossless)
{
    Build(true, true);
    Send(N_PORTS - 1, 0, 300000000);
    Simulator::Stop(MilliSeconds(30));
    Simulator::Run();
    Ptr<DeepBufferVoq> voq = DynamicCast<DeepBufferVoq>(sw->GetBufferManager());
    EXPECT_EQ(received, offered);
    for (uint8_t r = 0; r < BufferManager::N_DROP_REASONS; ++r)
    {
        EXPECT_EQ(BufferDrops(static_cast<BufferManager::DropReason>(r)), 0u) << +r;
    }
    EXPECT_GT(sw->GetPort(N_PORTS - 1)->GetCounters(LOSSLESS).pfcXoffSent, 0u);
    const uint64_t headroom = voq->GetPgHeadroomWatermark(N_PORTS - 1, LOSSLESS);
    // 400 Gb/s x ~808 us round trip = 40.4 MB in flight, less the 100 Gb/s drain.
    EXPECT_GT(headroom, 15000000u);
    EXPECT_LT(headroom, 45000000u);
    EXPECT_EQ(voq->GetPoolHeadroomWatermark(0), headroom);
    EXPECT_GT(voq->GetPgSharedWatermark(N_PORTS - 1, LOSSLESS), 180000000u);
    RecordProperty("chassis_headroom_peak", std::to_string(headroom));
    RecordProperty("chassis_pause_bytes",
                   std::to_string(voq->GetPgSharedWatermark(N_PORTS - 1, LOSSLESS)));
}

TEST_F(ChassisTest, SameBurstPausesAndOverflowsPizzaBox)
{
    Build(false, true, {{"UnlistedPortsLikeFirst", Create<BooleanValue>(true)}});
    uint64_t headroomPeak = 0;
    sw->GetBufferManager()->TraceConnectWithoutContext(
        "HeadroomBytes",
        MakeBoundCallback(
            +[](uint64_t* peak, uint64_t, uint64_t now) { *peak = std::max(*peak, now); },
            &headroomPeak));
    Send(N_PORTS - 1, 0, 100000000);
    Simulator::Stop(MilliSeconds(12));
    Simulator::Run();
    EXPECT_GT(sw->GetPort(N_PORTS - 1)->GetCounters(LOSSLESS).pfcXoffSent, 0u);
    EXPECT_GT(BufferDrops(BufferManager::DROP_HEADROOM_OVERFLOW), 1000u);
    EXPECT_LT(received, offered);
    // The traced headroom use reaches the long-haul PG's Listing 1 cap and no more.
    EXPECT_LE(headroomPeak, 96928u);
    EXPECT_GT(headroomPeak, 96928u - 2 * 4368u);
    RecordProperty("pizza_overflows",
                   std::to_string(BufferDrops(BufferManager::DROP_HEADROOM_OVERFLOW)));
}

/**
 * Every port sends and receives at 100 Gb/s (host i -> host i+1) for 1 ms and every
 * packet is written to DRAM: 800 Gb/s of writes against 720 Gb/s of DRAM bandwidth
 * drop ~10 % (Azure fn. 3). Without the cap nothing drops; seven of eight ports
 * (700 Gb/s) fit; on-chip-first VoQs (Jericho2 mode) keep uncongested traffic out of DRAM.
 */
struct LineRateResult
{
    uint64_t offered;
    uint64_t received;
    uint64_t dramDrops;
    uint64_t otherDrops;
    uint64_t dramWritten;
};

class ChassisLineRateTest : public ChassisTest
{
  protected:
    LineRateResult Run(uint32_t senders,
                       std::vector<std::pair<std::string, Ptr<AttributeValue>>> attrs = {})
    {
        Build(true, false, attrs);
        for (uint32_t i = 0; i < senders; ++i)
        {
            Send(i, (i + 1) % N_PORTS, 12500000); // 1 ms at 100 Gb/s
        }
        Simulator::Stop(MilliSeconds(3));
        Simulator::Run();
        LineRateResult r{offered, received, BufferDrops(BufferManager::DROP_DRAM_BANDWIDTH), 0,
                         DynamicCast<DeepBufferVoq>(sw->GetBufferManager())->GetDramWrittenBytes()};
        for (uint8_t k = 0; k < BufferManager::N_DROP_REASONS; ++k)
        {
            if (k != BufferManager::DROP_DRAM_BANDWIDTH)
            {
                r.otherDrops += BufferDrops(static_cast<BufferManager::DropReason>(k));
            }
        }
        return r;
    }
};

TEST_F(ChassisLineRateTest, AllPortsAtLineRateDropForDramBandwidth)
{
    const LineRateResult r = Run(N_PORTS);
    const double lost = 1.0 - double(r.received) / double(r.offered);
    // 80 of 800 Gb/s for ~1 ms, less the 256 KiB staging buffer: ~9.7 %.
    EXPECT_GT(lost, 0.085);
    EXPECT_LT(lost, 0.105);
    EXPECT_GT(r.dramDrops, 0u);
    EXPECT_EQ(r.otherDrops, 0u);
    RecordProperty("lost_fraction", std::to_string(lost));
}

TEST_F(ChassisLineRateTest, WithoutDramCapNothingDrops)
{
    const LineRateResult r =
        Run(N_PORTS, {{"DramBandwidth", Create<DataRateValue>(DataRate("100000Gbps"))}});
    EXPECT_EQ(r.received, r.offered);
    EXPECT_EQ(r.dramDrops, 0u);
}

TEST_F(ChassisLineRateTest, SevenOfEightPortsFitTheDram)
{
    const LineRateResult r = Run(N_PORTS - 1);
    EXPECT_EQ(r.received, r.offered);
    EXPECT_EQ(r.dramDrops + r.otherDrops, 0u);
}

TEST_F(ChassisLineRateTest, OnChipFirstVoqsKeepUncongestedTrafficOutOfDram)
{
    const LineRateResult r =
        Run(N_PORTS, {{"VoqEvictThreshold", Create<QueueSizeValue>(QueueSize("1MB"))}});
    EXPECT_EQ(r.received, r.offered);
    EXPECT_EQ(r.dramWritten, 0u);
}

} // namespace
