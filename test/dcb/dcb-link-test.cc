// Link timing and PFC behaviour of DcbNetDevice/DcbChannel on a two-node harness.
#include "ns3/data-rate.h"
#include "ns3/dcb-channel.h"
#include "ns3/dcb-helper.h"
#include "ns3/dcb-net-device.h"
#include "ns3/double.h"
#include "ns3/ethernet-vlan-header.h"
#include "ns3/node.h"
#include "ns3/pfc-frame.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

struct Arrival
{
    Time time;
    uint8_t pcp;
    uint32_t size;
};

class DcbLinkTest : public ::testing::Test
{
  protected:
    void Build(const std::string& rate, Time delay, uint32_t wireOverhead = 24)
    {
        a = CreateObject<Node>();
        b = CreateObject<Node>();
        DcbHelper helper;
        helper.SetDeviceAttribute("DataRate", DataRateValue(DataRate(rate)));
        helper.SetDeviceAttribute("WireOverhead", UintegerValue(wireOverhead));
        helper.SetChannelAttribute("Delay", TimeValue(delay));
        NetDeviceContainer devs = helper.Install(a, b);
        da = DynamicCast<DcbNetDevice>(devs.Get(0));
        db = DynamicCast<DcbNetDevice>(devs.Get(1));
        db->SetDcbReceiveCallback(MakeCallback(&DcbLinkTest::OnReceive, this));
    }

    void OnReceive(Ptr<DcbNetDevice>, Ptr<Packet> p, const EthernetVlanHeader& eth)
    {
        arrivals.push_back(Arrival{Simulator::Now(), eth.GetPcp(), p->GetSize() + 18});
    }

    /** A tagged frame of exactly \p frameBytes bytes in class \p tc. */
    static Ptr<Packet> Frame(uint32_t frameBytes, uint8_t tc)
    {
        Ptr<Packet> p = Create<Packet>(frameBytes - 18);
        EthernetVlanHeader eth;
        eth.SetVlanTag(tc, 0);
        p->AddHeader(eth);
        return p;
    }

    void TearDown() override { Simulator::Destroy(); }

    Ptr<Node> a;
    Ptr<Node> b;
    Ptr<DcbNetDevice> da;
    Ptr<DcbNetDevice> db;
    std::vector<Arrival> arrivals;
};

TEST_F(DcbLinkTest, FrameArrivesAfterSerializationPlusPropagation)
{
    // 1 KB at 400 Gb/s is 20.48 ns: picosecond resolution keeps it exact.
    Build("400Gbps", MicroSeconds(1), 0);
    Simulator::Schedule(NanoSeconds(100), &DcbNetDevice::Enqueue, da, Frame(1024, 3), 3, 0);
    Simulator::Run();
    ASSERT_EQ(arrivals.size(), 1u);
    EXPECT_EQ(arrivals[0].time, NanoSeconds(100) + PicoSeconds(20480) + MicroSeconds(1));
}

TEST_F(DcbLinkTest, WireOverheadCountsPreambleFcsAndGap)
{
    Build("100Gbps", NanoSeconds(500));
    da->Enqueue(Frame(1024, 3), 3, 0);
    da->Enqueue(Frame(1024, 3), 3, 0);
    Simulator::Run();
    ASSERT_EQ(arrivals.size(), 2u);
    const Time perFrame = PicoSeconds((1024 + 24) * 8 * 10); // 10 ps per bit at 100 Gb/s
    EXPECT_EQ(arrivals[0].time, perFrame + NanoSeconds(500));
    EXPECT_EQ(arrivals[1].time - arrivals[0].time, perFrame);
}

TEST_F(DcbLinkTest, LongHaulLengthSetsDelay)
{
    Ptr<DcbChannel> ch = CreateObject<DcbChannel>();
    ch->SetAttribute("Length", DoubleValue(80000.0)); // 80 km
    EXPECT_EQ(ch->GetDelay(), MicroSeconds(400));     // 5 us/km
}

TEST_F(DcbLinkTest, PausedClassStopsWhileOtherClassesSend)
{
    Build("100Gbps", NanoSeconds(100));
    for (int i = 0; i < 200; ++i)
    {
        da->Enqueue(Frame(1000, 3), 3, 0);
        da->Enqueue(Frame(1000, 1), 1, 0);
    }
    // B asks A to pause class 3 at 2 us and to resume at 10 us.
    Simulator::Schedule(MicroSeconds(2), &DcbNetDevice::SetPfcXoff, db, 3, true);
    Simulator::Schedule(MicroSeconds(10), &DcbNetDevice::SetPfcXoff, db, 3, false);
    Simulator::Run();
    // PFC frame reaches A at ~2.1 us (+ its own serialization); one class-3 frame
    // already on the wire may still land up to one frame time + delay later.
    const Time frameTime = PicoSeconds((1000 + 24) * 80);
    const Time pauseEffective = MicroSeconds(2) + NanoSeconds(100) + PicoSeconds(88 * 80);
    const Time lastAllowed = pauseEffective + frameTime + NanoSeconds(100);
    const Time resumeEarliest = MicroSeconds(10) + NanoSeconds(100);
    uint32_t class3During = 0;
    uint32_t class1During = 0;
    for (const Arrival& arr : arrivals)
    {
        if (arr.time > lastAllowed && arr.time < resumeEarliest)
        {
            (arr.pcp == 3 ? class3During : class1During)++;
        }
    }
    EXPECT_EQ(class3During, 0u);
    // While class 3 is paused, class 1 has the whole link: ~ (7.8 us / 82 ns) frames.
    EXPECT_GT(class1During, 80u);
    EXPECT_EQ(arrivals.size(), 400u); // everything arrives after the resume
    EXPECT_EQ(db->GetCounters(3).pfcXonSent, 1u);
    EXPECT_GE(db->GetCounters(3).pfcXoffSent, 1u);
    EXPECT_GT(da->GetCounters(3).pausedTime, MicroSeconds(7));
}

TEST_F(DcbLinkTest, PauseExpiresWhenNotRefreshed)
{
    Build("100Gbps", NanoSeconds(100));
    // Inject a PFC frame pausing class 3 for 1000 quanta (1000 x 512 bits = 5.12 us).
    Ptr<Packet> pfc = Create<Packet>();
    PfcFrame frame;
    frame.SetPause(3, 1000);
    pfc->AddHeader(frame);
    EthernetVlanHeader eth;
    eth.SetEtherType(ETHERTYPE_MAC_CONTROL);
    pfc->AddHeader(eth);
    Simulator::Schedule(MicroSeconds(1), &DcbNetDevice::Receive, da, pfc);
    Simulator::Schedule(MicroSeconds(2), &DcbNetDevice::Enqueue, da, Frame(1000, 3), 3, 0);
    Simulator::Run();
    ASSERT_EQ(arrivals.size(), 1u);
    const Time resume = MicroSeconds(1) + NanoSeconds(5120);
    EXPECT_EQ(arrivals[0].time, resume + PicoSeconds((1000 + 24) * 80) + NanoSeconds(100));
    EXPECT_EQ(da->GetCounters(3).pfcXoffReceived, 1u);
    EXPECT_EQ(da->GetCounters(3).pausedTime, NanoSeconds(5120));
}

TEST_F(DcbLinkTest, XoffIsRefreshedBeforeExpiry)
{
    // spec check 9: held in XOFF for 1 ms at 100G with refresh at half the 335.5 us
    // pause: 1 + floor(1000 / 167.77) = 6 XOFF frames and one XON.
    Build("100Gbps", NanoSeconds(100));
    Simulator::Schedule(Seconds(0), &DcbNetDevice::SetPfcXoff, db, 3, true);
    Simulator::Schedule(MilliSeconds(1), &DcbNetDevice::SetPfcXoff, db, 3, false);
    Simulator::Run();
    EXPECT_EQ(db->GetCounters(3).pfcXoffSent, 6u);
    EXPECT_EQ(db->GetCounters(3).pfcXonSent, 1u);
    EXPECT_EQ(da->GetCounters(3).pfcXoffReceived, 6u);
    EXPECT_EQ(da->GetPausedMask(), 0);
}

TEST_F(DcbLinkTest, PfcFrameIs64BytesOnTheWire)
{
    PfcFrame f;
    f.SetPause(3, 0xffff);
    EthernetVlanHeader eth;
    eth.SetEtherType(ETHERTYPE_MAC_CONTROL);
    EXPECT_EQ(f.GetSerializedSize() + eth.GetSerializedSize() + 4, 64u); // + FCS
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(f);
    PfcFrame g;
    p->RemoveHeader(g);
    EXPECT_TRUE(g.IsEnabled(3));
    EXPECT_FALSE(g.IsEnabled(2));
    EXPECT_EQ(g.GetQuanta(3), 0xffff);
    EXPECT_EQ(g.GetOpcode(), 0x0101);
}

} // namespace

namespace
{

TEST_F(DcbLinkTest, DwrrSharesBandwidthByWeight)
{
    Build("100Gbps", NanoSeconds(100));
    da->SetAttribute("DwrrClassMask", UintegerValue(0x06)); // classes 1 and 2
    da->SetDwrrWeight(1, 1);
    da->SetDwrrWeight(2, 3);
    for (int i = 0; i < 400; ++i)
    {
        da->Enqueue(Frame(1000, 1), 1, 0);
        da->Enqueue(Frame(1000, 2), 2, 0);
        da->Enqueue(Frame(1000, 5), 5, 0); // strict class: always first
    }
    Simulator::Run();
    ASSERT_EQ(arrivals.size(), 1200u);
    uint32_t first1 = 0;
    uint32_t first2 = 0;
    for (std::size_t i = 0; i < arrivals.size(); ++i)
    {
        if (i == 0)
        {
            continue; // the first frame left before the others were queued
        }
        if (i <= 400)
        {
            EXPECT_EQ(arrivals[i].pcp, 5) << i; // strict priority before any DWRR class
        }
        else if (i <= 800)
        {
            (arrivals[i].pcp == 1 ? first1 : first2)++;
        }
    }
    // While both DWRR classes are backlogged they share 1:3, within one quantum
    // (9 frames of 1000 B per 9216 B of weight) at the window's edges.
    EXPECT_EQ(first1 + first2, 400u);
    EXPECT_NEAR(double(first1), 100.0, 9.0);
}

TEST(SerializationTimeTest, SixtyFourBitPathRoundsLikeTheWideOne)
{
    // Sizes and rates on both sides of the 64-bit path's limits.
    // The reference: round(bytes x 8 x 1e12 / bps) in 128 bits.
    auto reference = [](uint64_t bytes, uint64_t bps)
    {
        const unsigned __int128 ps =
            (static_cast<unsigned __int128>(bytes) * 8 * 1000000000000ULL + bps / 2) / bps;
        return static_cast<int64_t>(ps);
    };
    const std::vector<uint64_t> rates = {1000000000ULL,         25000000000ULL,  40000000000ULL,
                                         100000000000ULL,       400000000000ULL, 3000000007ULL,
                                         1000000000000000000ULL};
    const std::vector<uint64_t> sizes = {0,     1,       64,      1024,    1048,    9216,
                                         65535, 1999999, 2000000, 2000001, 50000000};
    for (uint64_t bps : rates)
    {
        for (uint64_t bytes : sizes)
        {
            EXPECT_EQ(DcbNetDevice::SerializationTime(bytes, DataRate(bps)).GetPicoSeconds(),
                      reference(bytes, bps))
                << bytes << " B at " << bps << " b/s";
        }
    }
}

} // namespace
