// DcbFrameRecord: headers parsed once, carried beside the frame through switches,
// and written back into the bytes exactly as a per-hop header rewrite would.
#include "ns3/dcb-frame-record.h"
#include "ns3/dcb-helper.h"
#include "ns3/dcb-net-device.h"
#include "ns3/dcb-switch.h"
#include "ns3/ethernet-vlan-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/node.h"
#include "ns3/pcap-file.h"
#include "ns3/pfc-frame.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

const Mac48Address MAC_A("02:00:00:00:00:0a");
const Mac48Address MAC_B("02:00:00:00:00:0b");

Ptr<Packet>
Frame(bool tagged, uint8_t ecn = Ipv4Header::ECN_ECT0, uint32_t payload = 100)
{
    Ptr<Packet> p = Create<Packet>(payload);
    UdpHeader udp;
    udp.SetSourcePort(49152);
    udp.SetDestinationPort(4791);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.1.2"));
    ip.SetProtocol(17);
    ip.SetTtl(64);
    ip.SetDscp(Ipv4Header::DSCP_AF31);
    ip.SetEcn(static_cast<Ipv4Header::EcnType>(ecn));
    ip.SetIdentification(0x1234);
    ip.SetDontFragment();
    ip.SetPayloadSize(p->GetSize());
    ip.EnableChecksum();
    p->AddHeader(ip);
    EthernetVlanHeader eth;
    eth.SetSource(MAC_A);
    eth.SetDestination(MAC_B);
    if (tagged)
    {
        eth.SetVlanTag(3, 7);
    }
    eth.SetEtherType(ETHERTYPE_IPV4);
    p->AddHeader(eth);
    return p;
}

std::vector<uint8_t>
Bytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

} // namespace

TEST(DcbFrameRecord, ParseReadsEveryField)
{
    const DcbFrameRecord r = DcbFrameRecord::Parse(Frame(true));
    EXPECT_TRUE(r.IsParsed());
    EXPECT_TRUE(r.IsTagged());
    EXPECT_TRUE(r.IsIpv4());
    EXPECT_FALSE(r.IsDirty());
    EXPECT_EQ(r.ethSrc, MAC_A);
    EXPECT_EQ(r.ethDst, MAC_B);
    EXPECT_EQ(r.etherType, ETHERTYPE_IPV4);
    EXPECT_EQ(r.pcp, 3);
    EXPECT_EQ(r.vid, 7);
    EXPECT_EQ(r.EthernetBytes(), 18u);
    EXPECT_EQ(r.src, Ipv4Address("10.0.0.1").Get());
    EXPECT_EQ(r.dst, Ipv4Address("10.0.1.2").Get());
    EXPECT_EQ(r.protocol, 17);
    EXPECT_EQ(r.sport, 49152);
    EXPECT_EQ(r.dport, 4791);
    EXPECT_EQ(r.dscp, Ipv4Header::DSCP_AF31);
    EXPECT_EQ(r.ecn, Ipv4Header::ECN_ECT0);
    EXPECT_EQ(r.ttl, 64);
    EXPECT_EQ(r.ipBytes, 20u + 8u + 100u);
}

TEST(DcbFrameRecord, UntaggedAndNonIpv4Frames)
{
    const DcbFrameRecord u = DcbFrameRecord::Parse(Frame(false));
    EXPECT_FALSE(u.IsTagged());
    EXPECT_TRUE(u.IsIpv4());
    EXPECT_EQ(u.EthernetBytes(), 14u);
    EXPECT_EQ(u.pcp, 0);
    EXPECT_EQ(u.dport, 4791);

    Ptr<Packet> pfc = Create<Packet>();
    PfcFrame f;
    f.SetPause(3, 100);
    pfc->AddHeader(f);
    EthernetVlanHeader eth;
    eth.SetEtherType(ETHERTYPE_MAC_CONTROL);
    pfc->AddHeader(eth);
    const DcbFrameRecord c = DcbFrameRecord::Parse(pfc);
    EXPECT_TRUE(c.IsParsed());
    EXPECT_FALSE(c.IsIpv4());
    EXPECT_EQ(c.etherType, ETHERTYPE_MAC_CONTROL);

    // IPv4 with options (IHL 6) is IPv4 with a 24-byte header: the UDP header after it.
    std::vector<uint8_t> b = Bytes(Frame(true));
    b[18] = 0x46;
    const DcbFrameRecord o = DcbFrameRecord::Parse(Create<Packet>(b.data(), b.size()));
    EXPECT_TRUE(o.IsIpv4());
    EXPECT_EQ(o.IpHeaderBytes(), 24u);
    EXPECT_EQ(o.sport, 8 + 100); // the UDP length, four bytes into the "options"
    EXPECT_EQ(Frame(true)->GetSize(), 18u + 20u + 8u + 100u);

    // Another version, or an IHL under 5, behind the IPv4 EtherType: no IPv4 header.
    for (uint8_t verIhl : {0x65, 0x44})
    {
        std::vector<uint8_t> v = Bytes(Frame(true));
        v[18] = verIhl;
        const DcbFrameRecord bad = DcbFrameRecord::Parse(Create<Packet>(v.data(), v.size()));
        EXPECT_TRUE(bad.IsParsed());
        EXPECT_FALSE(bad.IsIpv4());
        EXPECT_EQ(bad.etherType, ETHERTYPE_IPV4);
    }

    // Options longer than the frame: no IPv4 header.
    b[18] = 0x4f;
    const DcbFrameRecord cut = DcbFrameRecord::Parse(Create<Packet>(b.data(), 18 + 40));
    EXPECT_FALSE(cut.IsIpv4());

    // A runt frame parses without reading past its end.
    const DcbFrameRecord runt = DcbFrameRecord::Parse(Create<Packet>(b.data(), 30));
    EXPECT_TRUE(runt.IsParsed());
    EXPECT_FALSE(runt.IsIpv4());
}

TEST(DcbFrameRecord, ParseReadsTheFieldsBehindIpv4Options)
{
    // Eight bytes of options (IHL 7) after the 20-byte header, untagged and tagged.
    for (bool tagged : {false, true})
    {
        std::vector<uint8_t> b = Bytes(Frame(tagged));
        const uint32_t ip = tagged ? 18 : 14;
        const uint8_t options[8] = {0x01, 0x01, 0x94, 0x04, 0x00, 0x00, 0x01, 0x00};
        b.insert(b.begin() + ip + 20, options, options + 8);
        b[ip] = 0x47;
        b[ip + 3] += 8;
        const DcbFrameRecord r = DcbFrameRecord::Parse(Create<Packet>(b.data(), b.size()));
        EXPECT_TRUE(r.IsIpv4());
        EXPECT_EQ(r.IsTagged(), tagged);
        EXPECT_EQ(r.IpHeaderBytes(), 28u);
        EXPECT_EQ(r.ipBytes, 28u + 8u + 100u);
        EXPECT_EQ(r.src, Ipv4Address("10.0.0.1").Get());
        EXPECT_EQ(r.dst, Ipv4Address("10.0.1.2").Get());
        EXPECT_EQ(r.protocol, 17);
        EXPECT_EQ(r.sport, 49152);
        EXPECT_EQ(r.dport, 4791);
        EXPECT_EQ(r.ttl, 64);
        EXPECT_EQ(r.dscp, Ipv4Header::DSCP_AF31);
        EXPECT_EQ(r.ecn, Ipv4Header::ECN_ECT0);
    }
    EXPECT_EQ(DcbFrameRecord::Parse(Frame(true)).IpHeaderBytes(), 20u);
}

TEST(DcbFrameRecord, MaterializeWritesWhatAHeaderRewriteWrites)
{
    // The per-hop rewrite the switch did before records: new MACs, PCP, TTL - 1, CE.
    Ptr<Packet> expected = Frame(true);
    {
        EthernetVlanHeader eth;
        expected->RemoveHeader(eth);
        Ipv4Header ip;
        expected->RemoveHeader(ip);
        ip.SetTtl(ip.GetTtl() - 2);
        ip.SetEcn(Ipv4Header::ECN_CE);
        ip.EnableChecksum();
        expected->AddHeader(ip);
        EthernetVlanHeader out;
        out.SetSource(MAC_B);
        out.SetDestination(MAC_A);
        out.SetVlanTag(5, eth.GetVid());
        out.SetEtherType(ETHERTYPE_IPV4);
        expected->AddHeader(out);
    }
    Ptr<Packet> frame = Frame(true);
    const std::vector<uint8_t> before = Bytes(frame);
    DcbFrameRecord r = DcbFrameRecord::Parse(frame);
    r.Materialize(frame); // clean: nothing to write
    EXPECT_EQ(Bytes(frame), before);

    r.ttl -= 2;
    r.ecn = Ipv4Header::ECN_CE;
    r.ethSrc = MAC_B;
    r.ethDst = MAC_A;
    r.pcp = 5;
    r.flags |= DcbFrameRecord::DIRTY;
    EXPECT_EQ(Bytes(frame), before); // the record, not the bytes, changed
    r.Materialize(frame);
    EXPECT_FALSE(r.IsDirty());
    EXPECT_EQ(Bytes(frame), Bytes(expected));

    EthernetVlanHeader eth;
    frame->RemoveHeader(eth);
    Ipv4Header ip;
    ip.EnableChecksum();
    frame->PeekHeader(ip);
    EXPECT_TRUE(ip.IsChecksumOk());
    EXPECT_EQ(ip.GetTtl(), 62);
}

namespace
{

/** Host A -> switch 1 -> switch 2 -> host B; B's receiver parses headers itself. */
class RecordPathTest : public ::testing::Test
{
  public:
    void TearDown() override { Simulator::Destroy(); }

    void OnFrame(Ptr<DcbNetDevice>, Ptr<Packet> p, const DcbFrameRecord& r)
    {
        records.push_back(r);
        frames.push_back(p);
    }

    void OnHeaders(Ptr<DcbNetDevice>, Ptr<Packet> p, const EthernetVlanHeader& eth)
    {
        headers.push_back(eth);
        frames.push_back(p);
    }

    /** \return host B's device after sending one frame from A. */
    Ptr<DcbNetDevice> Run(bool recordReceiver, const std::string& switchPcap = "")
    {
        Ptr<Node> a = CreateObject<Node>();
        Ptr<Node> s1 = CreateObject<Node>();
        Ptr<Node> s2 = CreateObject<Node>();
        Ptr<Node> b = CreateObject<Node>();
        DcbHelper h;
        Ptr<DcbNetDevice> da = DynamicCast<DcbNetDevice>(h.Install(a, s1).Get(0));
        NetDeviceContainer mid = h.Install(s1, s2);
        Ptr<DcbNetDevice> db = DynamicCast<DcbNetDevice>(h.Install(s2, b).Get(1));
        for (Ptr<Node> s : {s1, s2})
        {
            Ptr<DcbSwitch> sw = h.InstallSwitch(s);
            sw->SetAddressRange(Ipv4Address("10.0.0.0"), 512);
        }
        // s1: port 0 to A, port 1 to s2; s2: port 0 to s1, port 1 to B.
        s1->GetObject<DcbSwitch>()->SetRoute(Ipv4Address("10.0.1.2"), {1});
        s2->GetObject<DcbSwitch>()->SetRoute(Ipv4Address("10.0.1.2"), {1});
        lastHopMac = Mac48Address::ConvertFrom(s2->GetDevice(1)->GetAddress());
        if (!switchPcap.empty())
        {
            DynamicCast<DcbNetDevice>(s2->GetDevice(1))->EnablePcap(switchPcap);
        }
        if (recordReceiver)
        {
            db->SetDcbFrameReceiveCallback(MakeCallback(&RecordPathTest::OnFrame, this));
        }
        else
        {
            db->SetDcbReceiveCallback(MakeCallback(&RecordPathTest::OnHeaders, this));
        }
        da->Enqueue(Frame(true, Ipv4Header::ECN_ECT0), 3, 0);
        Simulator::Run();
        return db;
    }

    std::vector<DcbFrameRecord> records;
    std::vector<EthernetVlanHeader> headers;
    std::vector<Ptr<Packet>> frames;
    Mac48Address lastHopMac;
};

} // namespace

TEST_F(RecordPathTest, HeaderReceiverGetsTheRewrittenBytes)
{
    Run(false);
    ASSERT_EQ(frames.size(), 1u);
    ASSERT_EQ(headers.size(), 1u);
    EXPECT_EQ(headers[0].GetSource(), lastHopMac);
    EXPECT_EQ(headers[0].GetPcp(), 3); // DSCP AF31 (26) >> 3
    EXPECT_EQ(headers[0].GetVid(), 7);
    Ipv4Header ip;
    ip.EnableChecksum();
    frames[0]->PeekHeader(ip);
    EXPECT_TRUE(ip.IsChecksumOk());
    EXPECT_EQ(ip.GetTtl(), 62); // two switches
    EXPECT_EQ(ip.GetIdentification(), 0x1234);
}

TEST_F(RecordPathTest, RecordReceiverGetsTheRecordAndMaterializesTheSameBytes)
{
    Run(false);
    ASSERT_EQ(frames.size(), 1u);
    std::vector<uint8_t> viaHeaders = Bytes(frames[0]);
    Simulator::Destroy();
    frames.clear();
    Run(true);
    ASSERT_EQ(records.size(), 1u);
    DcbFrameRecord r = records[0];
    EXPECT_EQ(r.ttl, 62);
    EXPECT_EQ(r.ethSrc, lastHopMac);
    EXPECT_TRUE(r.IsDirty()); // the switches wrote no header bytes
    r.Materialize(frames[0]);
    frames[0]->RemoveAtStart(r.EthernetBytes());
    EXPECT_EQ(Bytes(frames[0]), viaHeaders);
}

TEST_F(RecordPathTest, SwitchCaptureHoldsTheRewrittenBytes)
{
    Run(false);
    ASSERT_EQ(frames.size(), 1u);
    Ptr<Packet> expected = frames[0]->Copy();
    expected->AddHeader(headers[0]);
    Simulator::Destroy();
    frames.clear();
    const std::string path = ::testing::TempDir() + "dcb-frame-record-switch.pcap";
    Run(true, path);
    ASSERT_EQ(records.size(), 1u);
    Simulator::Destroy(); // closes the capture
    PcapFile pcap;
    pcap.Open(path, std::ios::in);
    ASSERT_FALSE(pcap.Fail());
    std::vector<uint8_t> buf(4096);
    uint32_t sec = 0;
    uint32_t usec = 0;
    uint32_t incl = 0;
    uint32_t orig = 0;
    uint32_t len = 0;
    pcap.Read(buf.data(), buf.size(), sec, usec, incl, orig, len);
    ASSERT_FALSE(pcap.Fail());
    buf.resize(len);
    EXPECT_EQ(buf, Bytes(expected)); // the switch's egress capture: MACs, PCP, TTL, checksum
}
