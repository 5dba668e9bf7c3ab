// RdmaNic/RdmaQueuePair API used by Maestro: address aliases, per-address QPs,
// SetError (flush), WRITE with immediate and its ImmDt header.
#include "ns3/boolean.h"
#include "ns3/dcb-helper.h"
#include "ns3/ethernet-vlan-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/rdma-helper.h"
#include "ns3/roce-bth-header.h"
#include "ns3/roce-imm-dt-header.h"
#include "ns3/roce-srnic-ext-header.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

class RdmaNicApiTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        rdma.SetCongestionControl("ns3::RdmaNoCongestionControl");
        dcb.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
        dcb.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        hosts.Create(2);
        dcb.Install(hosts.Get(0), hosts.Get(1));
        a = rdma.Install(hosts.Get(0), Ipv4Address("10.0.0.1"));
        b = rdma.Install(hosts.Get(1), Ipv4Address("10.0.0.2"));
        for (auto& nic : {a, b})
        {
            nic->TraceConnectWithoutContext("Completion",
                                            MakeCallback(&RdmaNicApiTest::OnCompletion, this));
        }
        a->GetDevice()->TraceConnectWithoutContext("PhyTxBegin",
                                                   MakeCallback(&RdmaNicApiTest::OnTx, this));
    }

    void TearDown() override { Simulator::Destroy(); }

    void OnCompletion(const RdmaCompletion& c) { completions.push_back(c); }

    void OnTx(Ptr<const Packet> frame)
    {
        Ptr<Packet> p = frame->Copy();
        EthernetVlanHeader eth;
        Ipv4Header ip;
        UdpHeader udp;
        RoceBthHeader bth;
        p->RemoveHeader(eth);
        p->RemoveHeader(ip);
        p->RemoveHeader(udp);
        p->RemoveHeader(bth);
        opcodes.push_back(bth.GetOpcode());
        sources.push_back(ip.GetSource());
    }

    std::vector<RdmaCompletion> Of(bool receive, RdmaWcStatus status) const
    {
        std::vector<RdmaCompletion> v;
        for (const auto& c : completions)
        {
            if (c.receive == receive && c.status == status)
            {
                v.push_back(c);
            }
        }
        return v;
    }

    DcbHelper dcb;
    RdmaHelper rdma;
    NodeContainer hosts;
    Ptr<RdmaNic> a;
    Ptr<RdmaNic> b;
    std::vector<RdmaCompletion> completions;
    std::vector<RoceOpcode> opcodes;
    std::vector<Ipv4Address> sources;
};

TEST(RoceImmDtHeader, RoundTrip)
{
    RoceImmDtHeader h;
    h.SetImmediate(0xdeadbeef);
    Ptr<Packet> p = Create<Packet>(10);
    p->AddHeader(h);
    EXPECT_EQ(p->GetSize(), 14u);
    uint8_t bytes[4];
    p->CopyData(bytes, 4);
    EXPECT_EQ(bytes[0], 0xde); // network byte order
    EXPECT_EQ(bytes[3], 0xef);
    RoceImmDtHeader r;
    EXPECT_EQ(p->RemoveHeader(r), 4u);
    EXPECT_EQ(r.GetImmediate(), 0xdeadbeefu);
}

TEST(RoceSrnicExtHeader, RoundTripAndSizes)
{
    using Kind = RoceSrnicExtHeader::Kind;
    EXPECT_EQ(RoceSrnicExtHeader::SizeOf(Kind::Send), 8u);   // 58 -> 66 B of headers
    EXPECT_EQ(RoceSrnicExtHeader::SizeOf(Kind::Write), 20u); // 58 -> 78 B
    EXPECT_EQ(RoceSrnicExtHeader::SizeOf(Kind::WriteReth), 4u);
    RoceSrnicExtHeader w;
    w.SetKind(Kind::Write);
    w.SetVirtualAddress(0x0123456789abcdefULL);
    w.SetRemoteKey(0x55);
    w.SetDmaLength(65536);
    w.SetPsnOffset(17);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(w);
    ASSERT_EQ(p->GetSize(), 20u);
    RoceSrnicExtHeader r;
    r.SetKind(Kind::Write);
    EXPECT_EQ(p->RemoveHeader(r), 20u);
    EXPECT_EQ(r.GetVirtualAddress(), 0x0123456789abcdefULL);
    EXPECT_EQ(r.GetRemoteKey(), 0x55u);
    EXPECT_EQ(r.GetDmaLength(), 65536u);
    EXPECT_EQ(r.GetPsnOffset(), 17u);
    RoceSrnicExtHeader s;
    s.SetKind(Kind::Send);
    s.SetSsn(9);
    s.SetPsnOffset(3);
    p->AddHeader(s);
    RoceSrnicExtHeader rs;
    rs.SetKind(Kind::Send);
    EXPECT_EQ(p->RemoveHeader(rs), 8u);
    EXPECT_EQ(rs.GetSsn(), 9u);
    EXPECT_EQ(rs.GetPsnOffset(), 3u);
}

TEST_F(RdmaNicApiTest, SrnicExtensionsKeepDataCorrect)
{
    a->SetQueuePairAttribute("SrnicHeaderExtensions", BooleanValue(true));
    b->SetQueuePairAttribute("SrnicHeaderExtensions", BooleanValue(true));
    auto [qa, qb] = RdmaHelper::Connect(a, b);
    qb->PostRecv(RdmaRecvRequest{5, 5000});
    RdmaWorkRequest wr;
    wr.length = 5000;
    wr.verb = RdmaVerb::Send;
    qa->PostSend(wr);
    wr.verb = RdmaVerb::Write;
    wr.hasImm = true;
    qb->PostRecv(RdmaRecvRequest{6, 0});
    qa->PostSend(wr);
    Simulator::Stop(MicroSeconds(100));
    Simulator::Run();
    EXPECT_EQ(Of(false, RdmaWcStatus::Success).size(), 2u);
    const auto rx = Of(true, RdmaWcStatus::Success);
    ASSERT_EQ(rx.size(), 2u);
    EXPECT_EQ(rx[0].bytes, 5000u);
    EXPECT_EQ(rx[1].bytes, 5000u);
    EXPECT_EQ(qb->GetCounters().outOfOrderDropped, 0u);
}

TEST_F(RdmaNicApiTest, AliasAddressesReceiveAndSource)
{
    const Ipv4Address aliasA("10.0.1.1");
    const Ipv4Address aliasB("10.0.1.2");
    a->AddAddress(aliasA);
    b->AddAddress(aliasB);
    b->AddAddress(aliasB); // no duplicate
    ASSERT_EQ(b->GetAddresses().size(), 2u);
    EXPECT_EQ(b->GetAddresses()[0], Ipv4Address("10.0.0.2"));
    EXPECT_EQ(b->GetAddress(), Ipv4Address("10.0.0.2"));
    EXPECT_TRUE(b->HasAddress(aliasB));
    auto [qa, qb] = RdmaHelper::Connect(a, aliasA, b, aliasB);
    EXPECT_EQ(qa->GetLocalAddress(), aliasA);
    EXPECT_EQ(qb->GetLocalAddress(), aliasB);
    EXPECT_EQ(qb->GetRemoteAddress(), aliasA);
    // A QP towards an address b does not have: b drops its packets.
    Ptr<RdmaQueuePair> stray = a->CreateQueuePair(Ipv4Address("10.0.1.9"));
    stray->Connect(qb->GetQpn());
    RdmaWorkRequest wr;
    wr.wrId = 1;
    wr.length = 4096;
    qa->PostSend(wr);
    stray->PostSend(wr);
    Simulator::Stop(MicroSeconds(50));
    Simulator::Run();
    const auto ok = Of(false, RdmaWcStatus::Success);
    ASSERT_EQ(ok.size(), 1u);
    EXPECT_EQ(ok[0].qpn, qa->GetQpn());
    EXPECT_EQ(b->GetDroppedNoQp(), 4u); // the stray WRITE's four packets
    EXPECT_EQ(sources.front(), aliasA);
}

TEST_F(RdmaNicApiTest, SetErrorFlushesSendAndReceiveQueues)
{
    auto [qa, qb] = RdmaHelper::Connect(a, b);
    for (uint64_t i = 0; i < 3; ++i)
    {
        RdmaWorkRequest wr;
        wr.wrId = i;
        wr.length = 1 << 20;
        qa->PostSend(wr);
        qa->PostRecv(RdmaRecvRequest{10 + i, 4096});
    }
    Simulator::Schedule(MicroSeconds(5), &RdmaQueuePair::SetError, qa);
    Simulator::Schedule(MicroSeconds(6),
                        [qa = qa]()
                        {
                            RdmaWorkRequest wr;
                            wr.wrId = 99;
                            qa->PostSend(wr);
                        });
    Simulator::Stop(MicroSeconds(200));
    Simulator::Run();
    EXPECT_TRUE(qa->IsInError());
    EXPECT_EQ(Of(false, RdmaWcStatus::Success).size(), 0u);
    EXPECT_EQ(Of(false, RdmaWcStatus::Flushed).size(), 4u); // 3 posted + 1 after
    EXPECT_EQ(Of(true, RdmaWcStatus::Flushed).size(), 3u);
    EXPECT_EQ(qa->GetOutstandingWorkRequests(), 0u);
    EXPECT_LT(qa->GetCounters().payloadBytesSent, 1u << 20); // stopped sending
}

TEST_F(RdmaNicApiTest, WriteWithImmediateConsumesReceiveAndCarriesImmediate)
{
    auto [qa, qb] = RdmaHelper::Connect(a, b);
    qb->PostRecv(RdmaRecvRequest{42, 0});
    RdmaWorkRequest wr;
    wr.wrId = 1;
    wr.length = 3000;
    wr.remoteAddr = 0x1000;
    wr.hasImm = true;
    wr.imm = 0xdeadbeef;
    qa->PostSend(wr);
    wr.wrId = 2;
    wr.length = 500;
    wr.imm = 7;
    qa->PostSend(wr); // no receive posted yet: RNR until one is
    Simulator::Schedule(MicroSeconds(100), &RdmaQueuePair::PostRecv, qb, RdmaRecvRequest{43, 0});
    Simulator::Stop(MicroSeconds(300));
    Simulator::Run();
    const auto rx = Of(true, RdmaWcStatus::Success);
    ASSERT_EQ(rx.size(), 2u);
    EXPECT_EQ(rx[0].wrId, 42u);
    EXPECT_EQ(rx[0].verb, RdmaVerb::Write);
    EXPECT_TRUE(rx[0].hasImm);
    EXPECT_EQ(rx[0].imm, 0xdeadbeefu);
    EXPECT_EQ(rx[0].bytes, 3000u);
    EXPECT_EQ(rx[1].wrId, 43u);
    EXPECT_EQ(rx[1].imm, 7u);
    EXPECT_GE(rx[1].completionTime, MicroSeconds(100));
    EXPECT_EQ(Of(false, RdmaWcStatus::Success).size(), 2u);
    ASSERT_GE(opcodes.size(), 4u);
    EXPECT_EQ(opcodes[0], RoceOpcode::WriteFirst);
    EXPECT_EQ(opcodes[2], RoceOpcode::WriteLastImm);
    EXPECT_EQ(opcodes[3], RoceOpcode::WriteOnlyImm);
    EXPECT_GT(qb->GetCounters().naksSent, 0u); // the RNR NAK
}

TEST_F(RdmaNicApiTest, ReservedQpNumbersGiveTheSameConnectionAndReleaseFreesIt)
{
    // Reserve two connections' numbers, create the second one first: numbers and UDP
    // source ports are those Connect would have given in order.
    const uint32_t a1 = a->ReserveQpn();
    const uint32_t b1 = b->ReserveQpn();
    const uint32_t a2 = a->ReserveQpn();
    const uint32_t b2 = b->ReserveQpn();
    EXPECT_EQ(a2, a1 + 1);
    EXPECT_EQ(a->GetNQueuePairs(), 2u);
    EXPECT_EQ(a->GetNLiveQueuePairs(), 0u);
    EXPECT_FALSE(a->GetQueuePair(a1));
    auto [qa2, qb2] = RdmaHelper::Connect(a, a->GetAddress(), a2, b, b->GetAddress(), b2);
    auto [qa1, qb1] = RdmaHelper::Connect(a, a->GetAddress(), a1, b, b->GetAddress(), b1);
    EXPECT_EQ(qa2->GetQpn(), a2);
    EXPECT_EQ(qa2->GetRemoteQpn(), b2);
    EXPECT_EQ(qa1->GetUdpSourcePort(),
              RdmaHelper::UdpSourcePort(a->GetAddress(), b->GetAddress(), a1, b1));
    EXPECT_EQ(qb2->GetUdpSourcePort(),
              RdmaHelper::UdpSourcePort(b->GetAddress(), a->GetAddress(), b2, a2));
    EXPECT_EQ(a->GetQueuePairMtu(), qa1->GetMtu());
    EXPECT_EQ(a->GetNLiveQueuePairs(), 2u);
    EXPECT_TRUE(qa1->IsQuiescent());

    RdmaWorkRequest wr;
    wr.length = 20000;
    qa1->PostSend(wr);
    EXPECT_FALSE(qa1->IsQuiescent()) << "a work request is outstanding";
    Simulator::Stop(MicroSeconds(100));
    Simulator::Run();
    ASSERT_EQ(Of(false, RdmaWcStatus::Success).size(), 1u);
    EXPECT_TRUE(qa1->IsQuiescent());
    EXPECT_TRUE(qb1->IsQuiescent());

    a->ReleaseQueuePair(a1);
    b->ReleaseQueuePair(b1);
    EXPECT_FALSE(a->GetQueuePair(a1));
    EXPECT_EQ(a->GetNLiveQueuePairs(), 1u);
    EXPECT_EQ(a->GetNQueuePairs(), 2u) << "a released number is not handed out again";
    EXPECT_EQ(a->ReserveQpn(), a2 + 1);
    // The other connection still works; a packet for the released QP is dropped.
    qa2->PostSend(wr);
    Simulator::Stop(MicroSeconds(100));
    Simulator::Run();
    EXPECT_EQ(Of(false, RdmaWcStatus::Success).size(), 2u);
    EXPECT_EQ(b->GetDroppedNoQp(), 0u);
}

} // namespace
