// DcbSwitch on the frames that are not the common tagged, 20-byte-IPv4-header kind: untagged
// IPv4 (re-tagged at egress, 4 bytes longer), IPv4 with options (kept, checksum over the
// whole header), other EtherTypes (DROP_NOT_IPV4) and runts. Each forwarded frame is checked
// byte for byte at the switch's egress against one built with ns-3's headers; each drop by
// its reason and the packet the Drop trace gets.
#include "ns3/data-rate.h"
#include "ns3/dcb-helper.h"
#include "ns3/dcb-net-device.h"
#include "ns3/dcb-switch.h"
#include "ns3/ecn-marker.h"
#include "ns3/ethernet-vlan-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint32_t PAYLOAD = 100;
const std::vector<uint8_t> OPTIONS{0x01, 0x01, 0x94, 0x04, 0x00, 0x00, 0x01, 0x00}; // NOP NOP RA

/** Marks every ECN-capable frame it is asked about. */
class AlwaysMark : public EcnMarker
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::DcbSwitchFrameKindsTestAlwaysMark")
                                .SetParent<EcnMarker>()
                                .AddConstructor<AlwaysMark>();
        return tid;
    }

    int64_t AssignStreams(int64_t) override { return 0; }

  private:
    bool DoShouldMark(uint8_t, uint64_t) override { return true; }
};

std::vector<uint8_t>
Bytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

/** Ones' complement sum over \p n bytes: 0 when a header with its checksum is intact. */
uint16_t
Checksum(const uint8_t* p, uint32_t n)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i + 1 < n; i += 2)
    {
        sum += (uint32_t(p[i]) << 8) | p[i + 1];
    }
    while (sum >> 16)
    {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return static_cast<uint16_t>(~sum);
}

/**
 * A UDP frame (RoCEv2 port) from 10.0.0.1 to \p dst written by ns-3's headers: tagged with
 * PCP \p pcp and VID 5 when \p tagged, DSCP 26 (class 3), \p ttl, \p ecn, checksum valid.
 */
Ptr<Packet>
Frame(bool tagged, Mac48Address src, Mac48Address dst, uint8_t ttl, uint8_t ecn,
      Ipv4Address to = Ipv4Address("10.0.0.2"), uint8_t pcp = 1, uint16_t vid = 5)
{
    Ptr<Packet> p = Create<Packet>(PAYLOAD);
    UdpHeader udp;
    udp.SetSourcePort(49152);
    udp.SetDestinationPort(4791);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(to);
    ip.SetProtocol(17);
    ip.SetTtl(ttl);
    ip.SetDscp(Ipv4Header::DSCP_AF31);
    ip.SetEcn(static_cast<Ipv4Header::EcnType>(ecn));
    ip.SetIdentification(0x4321);
    ip.SetPayloadSize(p->GetSize());
    ip.EnableChecksum();
    p->AddHeader(ip);
    EthernetVlanHeader eth;
    eth.SetSource(src);
    eth.SetDestination(dst);
    if (tagged)
    {
        eth.SetVlanTag(pcp, vid);
    }
    eth.SetEtherType(ETHERTYPE_IPV4);
    p->AddHeader(eth);
    return p;
}

/** \p frame with OPTIONS inserted after its 20-byte IPv4 header: IHL, length, checksum. */
Ptr<Packet>
WithOptions(Ptr<const Packet> frame, bool tagged)
{
    std::vector<uint8_t> b = Bytes(frame);
    const uint32_t ip = tagged ? 18 : 14;
    b.insert(b.begin() + ip + 20, OPTIONS.begin(), OPTIONS.end());
    const uint32_t ihl = 5 + OPTIONS.size() / 4;
    b[ip] = static_cast<uint8_t>(0x40 | ihl);
    const uint32_t total = ((b[ip + 2] << 8) | b[ip + 3]) + OPTIONS.size();
    b[ip + 2] = static_cast<uint8_t>(total >> 8);
    b[ip + 3] = static_cast<uint8_t>(total);
    b[ip + 10] = 0;
    b[ip + 11] = 0;
    const uint16_t sum = Checksum(b.data() + ip, ihl * 4);
    b[ip + 10] = static_cast<uint8_t>(sum >> 8);
    b[ip + 11] = static_cast<uint8_t>(sum);
    return Create<Packet>(b.data(), b.size());
}

/** What the Drop trace gets: \p frame from its IPv4 header on, checksum field 0. */
std::vector<uint8_t>
DroppedIpv4(Ptr<const Packet> frame, bool tagged)
{
    std::vector<uint8_t> b = Bytes(frame);
    b.erase(b.begin(), b.begin() + (tagged ? 18 : 14));
    b[10] = 0;
    b[11] = 0;
    return b;
}

/** Host A -> switch -> host B (10.0.0.2); the switch's egress to B is captured. */
class DcbSwitchFrameKindsTest : public ::testing::Test
{
  public:
    void SetUp() override
    {
        Ptr<Node> a = CreateObject<Node>();
        Ptr<Node> s = CreateObject<Node>();
        Ptr<Node> b = CreateObject<Node>();
        DcbHelper h;
        m_a = DynamicCast<DcbNetDevice>(h.Install(a, s).Get(0));
        m_b = DynamicCast<DcbNetDevice>(h.Install(s, b).Get(1));
        m_sw = h.InstallSwitch(s);
        m_sw->SetAddressRange(Ipv4Address("10.0.0.0"), 16);
        m_sw->SetRoute(Ipv4Address("10.0.0.2"), {1});
        m_out = m_sw->GetPort(1);
        m_out->TraceConnectWithoutContext("PhyTxBegin",
                                          MakeCallback(&DcbSwitchFrameKindsTest::OnEgress, this));
        m_sw->TraceConnectWithoutContext("Drop",
                                         MakeCallback(&DcbSwitchFrameKindsTest::OnDrop, this));
        m_aMac = Mac48Address::ConvertFrom(m_a->GetAddress());
        m_swMac = Mac48Address::ConvertFrom(m_out->GetAddress());
        m_bMac = Mac48Address::ConvertFrom(m_b->GetAddress());
    }

    void TearDown() override { Simulator::Destroy(); }

    void OnEgress(Ptr<const Packet> p) { egress.push_back(Bytes(p)); }

    void OnDrop(Ptr<const Packet> p, uint8_t reason)
    {
        dropped.push_back(Bytes(p));
        reasons.push_back(reason);
    }

    /** Send \p frame from A and run. */
    void Send(Ptr<Packet> frame)
    {
        m_a->Enqueue(frame, 0, 0);
        Simulator::Run();
    }

    /** A frame from A, as A sends it (its MACs), to \p to. */
    Ptr<Packet> FromA(bool tagged, uint8_t ttl, uint8_t ecn,
                      Ipv4Address to = Ipv4Address("10.0.0.2")) const
    {
        return Frame(tagged, m_aMac, m_swMac, ttl, ecn, to);
    }

    /**
     * The switch's rewrite of a frame (TTL \p ttl - 1, \p ecn) built by ns-3's headers:
     * its MACs, PCP = DSCP 26 >> 3 = 3, VID \p vid, TTL decremented, checksum recomputed.
     */
    Ptr<Packet> Forwarded(uint8_t ttl, uint8_t ecn, uint16_t vid) const
    {
        return Frame(true, m_swMac, m_bMac, ttl - 1, ecn, Ipv4Address("10.0.0.2"), 3, vid);
    }

    /** Keep the largest class-3 queue at the egress and buffer occupancy seen. */
    void Sample()
    {
        maxQueue = std::max(maxQueue, m_out->GetQueueBytes(3));
        maxBuffer = std::max(maxBuffer, m_sw->GetBufferManager()->GetOccupancy());
    }

    uint64_t Drops(DcbSwitch::DropReason r) const { return m_sw->GetDrops(r); }

    uint64_t AllDrops() const
    {
        uint64_t n = 0;
        for (uint8_t r = 0; r < DcbSwitch::N_DROP_REASONS; ++r)
        {
            n += m_sw->GetDrops(static_cast<DcbSwitch::DropReason>(r));
        }
        return n;
    }

    Ptr<DcbNetDevice> m_a;
    Ptr<DcbNetDevice> m_b;
    Ptr<DcbNetDevice> m_out;
    Ptr<DcbSwitch> m_sw;
    Mac48Address m_aMac;
    Mac48Address m_swMac;
    Mac48Address m_bMac;
    std::vector<std::vector<uint8_t>> egress;
    std::vector<std::vector<uint8_t>> dropped;
    std::vector<uint8_t> reasons;
    uint64_t maxQueue{0};
    uint64_t maxBuffer{0};
};

} // namespace

TEST_F(DcbSwitchFrameKindsTest, TaggedFrameIsForwardedWithItsSize)
{
    Ptr<Packet> in = FromA(true, 64, Ipv4Header::ECN_ECT0);
    const uint32_t size = in->GetSize();
    Send(in);
    ASSERT_EQ(egress.size(), 1u);
    EXPECT_EQ(egress[0], Bytes(Forwarded(64, Ipv4Header::ECN_ECT0, 5)));
    EXPECT_EQ(m_out->GetCounters(3).txBytes, size);
    EXPECT_EQ(m_sw->GetForwarded(), 1u);
    EXPECT_EQ(m_sw->GetBufferManager()->GetOccupancy(), 0u);
}

TEST_F(DcbSwitchFrameKindsTest, UntaggedFrameLeavesTaggedAndFourBytesLonger)
{
    Ptr<Packet> in = FromA(false, 64, Ipv4Header::ECN_ECT0);
    const uint32_t size = in->GetSize();
    Send(in);
    ASSERT_EQ(egress.size(), 1u);
    // Tagged with the class as PCP and VID 0, TTL 63, checksum valid.
    const std::vector<uint8_t> expected = Bytes(Forwarded(64, Ipv4Header::ECN_ECT0, 0));
    EXPECT_EQ(egress[0], expected);
    ASSERT_EQ(egress[0].size(), size + 4);
    EXPECT_EQ(Checksum(egress[0].data() + 18, 20), 0);
    // Counted 4 bytes longer on the egress port; the buffer got back what it admitted.
    EXPECT_EQ(m_out->GetCounters(3).txBytes, size + 4);
    EXPECT_EQ(m_b->GetCounters(3).rxBytes, size + 4);
    EXPECT_EQ(m_sw->GetForwarded(), 1u);
    EXPECT_EQ(AllDrops(), 0u);
    EXPECT_EQ(m_sw->GetBufferManager()->GetOccupancy(), 0u);

    // Decoded with ns-3's headers.
    Ptr<Packet> out = Create<Packet>(egress[0].data(), egress[0].size());
    EthernetVlanHeader eth;
    out->RemoveHeader(eth);
    EXPECT_TRUE(eth.IsTagged());
    EXPECT_EQ(eth.GetPcp(), 3);
    EXPECT_EQ(eth.GetVid(), 0);
    EXPECT_EQ(eth.GetSource(), m_swMac);
    EXPECT_EQ(eth.GetDestination(), m_bMac);
    Ipv4Header ip;
    ip.EnableChecksum();
    out->RemoveHeader(ip);
    EXPECT_TRUE(ip.IsChecksumOk());
    EXPECT_EQ(ip.GetTtl(), 63);
    EXPECT_EQ(ip.GetEcn(), Ipv4Header::ECN_ECT0);
}

TEST_F(DcbSwitchFrameKindsTest, UntaggedFrameIsAdmittedAndQueuedFourBytesLonger)
{
    // A slow egress: the second of two frames waits in the queue behind the first.
    m_out->SetDataRate(DataRate("1Gbps"));
    Ptr<Packet> first = FromA(false, 64, Ipv4Header::ECN_ECT0);
    const uint32_t size = first->GetSize();
    m_a->Enqueue(first, 0, 0);
    m_a->Enqueue(FromA(false, 64, Ipv4Header::ECN_ECT0), 0, 0);
    for (uint32_t i = 1; i < 200; ++i)
    {
        Simulator::Schedule(NanoSeconds(20 * i), &DcbSwitchFrameKindsTest::Sample, this);
    }
    Simulator::Run();
    ASSERT_EQ(egress.size(), 2u);
    EXPECT_EQ(maxQueue, size + 4);
    EXPECT_EQ(maxBuffer, size + 4); // admitted until it starts (released at dequeue)
    EXPECT_EQ(m_out->GetCounters(3).txBytes, 2 * (size + 4));
    EXPECT_EQ(m_sw->GetBufferManager()->GetOccupancy(), 0u);
}

TEST_F(DcbSwitchFrameKindsTest, UntaggedFrameIsMarkedAtEnqueue)
{
    m_sw->SetEcnMarker(1, CreateObject<AlwaysMark>());
    Send(FromA(false, 64, Ipv4Header::ECN_ECT1));
    ASSERT_EQ(egress.size(), 1u);
    EXPECT_EQ(egress[0], Bytes(Forwarded(64, Ipv4Header::ECN_CE, 0)));
}

TEST_F(DcbSwitchFrameKindsTest, UntaggedFrameWithTtlOneIsDropped)
{
    Ptr<Packet> in = FromA(false, 1, Ipv4Header::ECN_ECT0);
    const std::vector<uint8_t> expected = DroppedIpv4(in, false);
    Send(in);
    EXPECT_TRUE(egress.empty());
    EXPECT_EQ(Drops(DcbSwitch::DROP_TTL_EXPIRED), 1u);
    EXPECT_EQ(AllDrops(), 1u);
    ASSERT_EQ(dropped.size(), 1u);
    EXPECT_EQ(reasons[0], DcbSwitch::DROP_TTL_EXPIRED);
    EXPECT_EQ(dropped[0], expected); // from the IPv4 header, TTL 1, no checksum
    EXPECT_EQ(m_sw->GetBufferManager()->GetOccupancy(), 0u);
}

TEST_F(DcbSwitchFrameKindsTest, UntaggedFrameWithoutRouteIsDropped)
{
    Ptr<Packet> in = FromA(false, 64, Ipv4Header::ECN_ECT0, Ipv4Address("10.0.0.9"));
    const std::vector<uint8_t> expected = DroppedIpv4(in, false);
    Send(in);
    EXPECT_TRUE(egress.empty());
    EXPECT_EQ(Drops(DcbSwitch::DROP_NO_ROUTE), 1u);
    ASSERT_EQ(dropped.size(), 1u);
    EXPECT_EQ(dropped[0], expected);
}

TEST_F(DcbSwitchFrameKindsTest, TaggedFrameWithTtlOneIsDroppedWithTheSameBytes)
{
    Ptr<Packet> in = FromA(true, 1, Ipv4Header::ECN_ECT0);
    const std::vector<uint8_t> expected = DroppedIpv4(in, true);
    Send(in);
    EXPECT_EQ(Drops(DcbSwitch::DROP_TTL_EXPIRED), 1u);
    ASSERT_EQ(dropped.size(), 1u);
    EXPECT_EQ(dropped[0], expected);
}

TEST_F(DcbSwitchFrameKindsTest, OtherEtherTypesAreDroppedAsNotIpv4)
{
    for (bool tagged : {true, false})
    {
        Ptr<Packet> in = Create<Packet>(60);
        EthernetVlanHeader eth;
        eth.SetSource(m_aMac);
        eth.SetDestination(m_swMac);
        if (tagged)
        {
            eth.SetVlanTag(2, 9);
        }
        eth.SetEtherType(0x86dd); // IPv6
        in->AddHeader(eth);
        Send(in);
    }
    EXPECT_TRUE(egress.empty());
    EXPECT_EQ(Drops(DcbSwitch::DROP_NOT_IPV4), 2u);
    EXPECT_EQ(AllDrops(), 2u);
    ASSERT_EQ(dropped.size(), 2u);
    for (uint32_t i = 0; i < 2; ++i)
    {
        EXPECT_EQ(reasons[i], DcbSwitch::DROP_NOT_IPV4);
        EXPECT_EQ(dropped[i], std::vector<uint8_t>(60, 0)); // the payload after Ethernet
    }
}

TEST_F(DcbSwitchFrameKindsTest, RuntsAreDroppedAsNotIpv4)
{
    const std::vector<uint8_t> full = Bytes(FromA(true, 64, Ipv4Header::ECN_ECT0));
    // Shorter than an Ethernet header; a tag and no EtherType after it.
    for (uint32_t n : {10u, 16u})
    {
        Send(Create<Packet>(full.data(), n));
    }
    EXPECT_TRUE(egress.empty());
    EXPECT_EQ(Drops(DcbSwitch::DROP_NOT_IPV4), 2u);
    EXPECT_EQ(AllDrops(), 2u);
    ASSERT_EQ(dropped.size(), 2u);
    EXPECT_TRUE(dropped[0].empty());
    EXPECT_TRUE(dropped[1].empty());
}

TEST_F(DcbSwitchFrameKindsTest, Ipv4HeaderThatIsNotThereIsDroppedAsNotIpv4)
{
    std::vector<uint8_t> full = Bytes(FromA(true, 64, Ipv4Header::ECN_ECT0));
    // Cut inside the IPv4 header; version 6 behind the IPv4 EtherType; IHL 4.
    const std::vector<uint8_t> cut(full.begin() + 18, full.begin() + 30);
    Send(Create<Packet>(full.data(), 18 + 12));
    full[18] = 0x65;
    const std::vector<uint8_t> version6(full.begin() + 18, full.end());
    Send(Create<Packet>(full.data(), full.size()));
    full[18] = 0x44;
    Send(Create<Packet>(full.data(), full.size()));
    EXPECT_TRUE(egress.empty());
    EXPECT_EQ(Drops(DcbSwitch::DROP_NOT_IPV4), 3u);
    EXPECT_EQ(AllDrops(), 3u);
    ASSERT_EQ(dropped.size(), 3u);
    // The packet after the Ethernet header, as it came.
    EXPECT_EQ(dropped[0], cut);
    EXPECT_EQ(dropped[1], version6);
    EXPECT_EQ(dropped[2], std::vector<uint8_t>(full.begin() + 18, full.end()));
}

TEST_F(DcbSwitchFrameKindsTest, OptionsAreKeptAndTheChecksumCoversThem)
{
    for (bool tagged : {true, false})
    {
        Send(WithOptions(FromA(tagged, 64, Ipv4Header::ECN_ECT0), tagged));
    }
    ASSERT_EQ(egress.size(), 2u);
    const std::vector<uint8_t> tagged = Bytes(WithOptions(Forwarded(64, 2, 5), true));
    const std::vector<uint8_t> retagged = Bytes(WithOptions(Forwarded(64, 2, 0), true));
    EXPECT_EQ(egress[0], tagged);
    EXPECT_EQ(egress[1], retagged);
    for (const std::vector<uint8_t>& b : egress)
    {
        ASSERT_GE(b.size(), 18u + 28u + 8u);
        EXPECT_EQ(b[18], 0x47); // IHL 7
        EXPECT_EQ(b[18 + 8], 63);
        EXPECT_EQ(Checksum(b.data() + 18, 28), 0);
        EXPECT_EQ(std::vector<uint8_t>(b.begin() + 38, b.begin() + 46), OPTIONS);
        // The UDP header follows the options.
        EXPECT_EQ((b[46 + 2] << 8) | b[46 + 3], 4791);
    }
    EXPECT_EQ(m_sw->GetForwarded(), 2u);
    EXPECT_EQ(AllDrops(), 0u);
    EXPECT_EQ(m_sw->GetBufferManager()->GetOccupancy(), 0u);
}

TEST_F(DcbSwitchFrameKindsTest, OptionsFrameIsMarked)
{
    m_sw->SetEcnMarker(1, CreateObject<AlwaysMark>());
    Send(WithOptions(FromA(true, 64, Ipv4Header::ECN_ECT0), true));
    ASSERT_EQ(egress.size(), 1u);
    EXPECT_EQ(egress[0], Bytes(WithOptions(Forwarded(64, Ipv4Header::ECN_CE, 5), true)));
}

TEST_F(DcbSwitchFrameKindsTest, OptionsFrameWithTtlOneIsDroppedWithItsOptions)
{
    Ptr<Packet> in = WithOptions(FromA(false, 1, Ipv4Header::ECN_ECT0), false);
    const std::vector<uint8_t> expected = DroppedIpv4(in, false);
    Send(in);
    EXPECT_EQ(Drops(DcbSwitch::DROP_TTL_EXPIRED), 1u);
    ASSERT_EQ(dropped.size(), 1u);
    EXPECT_EQ(dropped[0], expected);
}
