// RdmaNic::Framing: with HpccSim, data and ACK frames take the HPCC simulator's sizes on the
// wire (a 1000-byte payload: 1048 bytes; an ACK: 60 bytes) with serialization times truncated
// to whole nanoseconds; with RoceV2 (the default) the real frame plus the wire overhead.
#include "ns3/dcb-helper.h"
#include "ns3/dcb-net-device.h"
#include "ns3/enum.h"
#include "ns3/node-container.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/roce-aeth-header.h"
#include "ns3/roce-bth-header.h"
#include "ns3/roce-reth-header.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

class RdmaFramingTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }
};

/** \return a packet as a QP builds it (BTH first): \p op with \p payload bytes. */
Ptr<Packet>
QpPacket(RoceOpcode op, uint32_t payload)
{
    Ptr<Packet> p = Create<Packet>(payload);
    if (op == RoceOpcode::Acknowledge)
    {
        p->AddHeader(RoceAethHeader());
    }
    if (RoceBthHeader::HasReth(op))
    {
        p->AddHeader(RoceRethHeader());
    }
    RoceBthHeader bth;
    bth.SetOpcode(op);
    p->AddHeader(bth);
    return p;
}

TEST_F(RdmaFramingTest, WireSizesAreThePeersForAThousandBytePayloadAndAnAck)
{
    Ptr<RdmaNic> nic = CreateObject<RdmaNic>();
    // RoCEv2 (default): 18 + 20 + 8 + 12 + 1000 + 4 + 24 bytes; an ACK 18 + 20 + 8 + 12 + 4 +
    // 4 + 24; exact times.
    EXPECT_EQ(nic->GetWireSize(QpPacket(RoceOpcode::WriteMiddle, 1000)).bytes, 1086u);
    EXPECT_EQ(nic->GetWireSize(QpPacket(RoceOpcode::Acknowledge, 0)).bytes, 90u);
    EXPECT_FALSE(nic->GetWireSize(QpPacket(RoceOpcode::WriteMiddle, 1000)).wholeNs);
    nic->SetAttribute("Framing", EnumValue(RdmaNic::FRAMING_HPCC_SIM));
    const RdmaWireSize data = nic->GetWireSize(QpPacket(RoceOpcode::WriteMiddle, 1000));
    const RdmaWireSize first = nic->GetWireSize(QpPacket(RoceOpcode::WriteOnly, 1000));
    const RdmaWireSize ack = nic->GetWireSize(QpPacket(RoceOpcode::Acknowledge, 0));
    EXPECT_EQ(data.bytes, 1048u);
    EXPECT_EQ(first.bytes, 1048u); // the peer has no RETH: every data packet is payload + 48
    EXPECT_EQ(ack.bytes, 60u);
    EXPECT_TRUE(data.wholeNs);
    // 1048 B: 83.84 ns at 100 Gb/s and 20.96 ns at 400 Gb/s, truncated as the peer's links do;
    // 60 B: 4.8 ns and 1.2 ns.
    EXPECT_EQ(data.At(DataRate("100Gbps")), NanoSeconds(83));
    EXPECT_EQ(data.At(DataRate("400Gbps")), NanoSeconds(20));
    EXPECT_EQ(ack.At(DataRate("100Gbps")), NanoSeconds(4));
    EXPECT_EQ(ack.At(DataRate("400Gbps")), NanoSeconds(1));
    // The ideal FCT's header: the peer's 48 bytes per packet (its standalone FCT's).
    EXPECT_EQ(nic->GetEncapsulationBytes() + RoceBthHeader::SERIALIZED_SIZE, 48u);
}

struct Seen
{
    Time at;
    uint32_t bytes;
};

void
Record(std::vector<Seen>* out, Ptr<const Packet> frame)
{
    out->push_back({Simulator::Now(), frame->GetSize()});
}

/** Host 0 writes 3000 bytes (three 1000-byte packets) to host 1 over one 100 Gb/s link. */
struct Link
{
    std::vector<Seen> dataTx; //!< host 0's frames starting serialization
    std::vector<Seen> dataRx; //!< host 1's frames received
    std::vector<Seen> ackTx;  //!< host 1's frames starting serialization
    std::vector<Seen> ackRx;  //!< host 0's frames received
    uint64_t dataTxBytes{0};  //!< host 0's class-3 byte counter
    uint64_t ackTxBytes{0};   //!< host 1's class-3 byte counter
    uint64_t ackTxPackets{0};
};

Link
RunWrite(RdmaNic::Framing framing)
{
    DcbHelper dcb;
    dcb.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
    dcb.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    NodeContainer hosts;
    hosts.Create(2);
    dcb.Install(hosts.Get(0), hosts.Get(1));
    RdmaHelper rdma;
    rdma.SetNicAttribute("Framing", EnumValue(framing));
    rdma.SetQueuePairAttribute("Mtu", UintegerValue(1000));
    Ptr<RdmaNic> a = rdma.Install(hosts.Get(0), Ipv4Address("10.0.0.1"));
    Ptr<RdmaNic> b = rdma.Install(hosts.Get(1), Ipv4Address("10.0.0.2"));
    Link l;
    a->GetDevice()->TraceConnectWithoutContext("PhyTxBegin", MakeBoundCallback(&Record, &l.dataTx));
    b->GetDevice()->TraceConnectWithoutContext("MacRx", MakeBoundCallback(&Record, &l.dataRx));
    b->GetDevice()->TraceConnectWithoutContext("PhyTxBegin", MakeBoundCallback(&Record, &l.ackTx));
    a->GetDevice()->TraceConnectWithoutContext("MacRx", MakeBoundCallback(&Record, &l.ackRx));
    auto [qa, qb] = RdmaHelper::Connect(a, b);
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Write;
    wr.length = 3000;
    qa->PostSend(wr);
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    l.dataTxBytes = a->GetDevice()->GetCounters(3).txBytes;
    l.ackTxBytes = b->GetDevice()->GetCounters(3).txBytes;
    l.ackTxPackets = b->GetDevice()->GetCounters(3).txPackets;
    Simulator::Destroy();
    return l;
}

TEST_F(RdmaFramingTest, HpccSimFramesOccupyTheLinkAtThePeersSizesInWholeNanoseconds)
{
    const Link l = RunWrite(RdmaNic::FRAMING_HPCC_SIM);
    ASSERT_EQ(l.dataTx.size(), 3u);
    ASSERT_EQ(l.dataRx.size(), 3u);
    ASSERT_FALSE(l.ackTx.empty());
    ASSERT_EQ(l.ackRx.size(), l.ackTx.size());
    // Back to back at line rate (the pacer counts the same 83 ns), each arriving 1 us + 83 ns
    // after it started.
    for (int i = 0; i < 3; ++i)
    {
        EXPECT_EQ(l.dataRx[i].at - l.dataTx[i].at, MicroSeconds(1) + NanoSeconds(83)) << i;
        if (i > 0)
        {
            EXPECT_EQ(l.dataTx[i].at - l.dataTx[i - 1].at, NanoSeconds(83)) << i;
        }
    }
    for (std::size_t i = 0; i < l.ackTx.size(); ++i)
    {
        EXPECT_EQ(l.ackRx[i].at - l.ackTx[i].at, MicroSeconds(1) + NanoSeconds(4)) << i;
    }
    // Queues and counters count the peer's bytes; the frames keep their real bytes (pcap).
    EXPECT_EQ(l.dataTxBytes, 3u * 1048);
    EXPECT_EQ(l.ackTxBytes, l.ackTxPackets * 60);
    EXPECT_EQ(l.dataTx[1].bytes, 18u + 20 + 8 + 12 + 1000 + 4);
}

TEST_F(RdmaFramingTest, RoceV2FramesOccupyTheLinkAtTheirRealSize)
{
    const Link l = RunWrite(RdmaNic::FRAMING_ROCE_V2);
    ASSERT_EQ(l.dataTx.size(), 3u);
    ASSERT_EQ(l.dataRx.size(), 3u);
    ASSERT_FALSE(l.ackTx.empty());
    // WriteMiddle: 1062 bytes + 24 of wire overhead = 86.88 ns; an ACK 90 bytes: 7.2 ns.
    EXPECT_EQ(l.dataRx[1].at - l.dataTx[1].at, MicroSeconds(1) + PicoSeconds(86880));
    EXPECT_EQ(l.ackRx[0].at - l.ackTx[0].at, MicroSeconds(1) + PicoSeconds(7200));
    EXPECT_EQ(l.dataTxBytes, 3u * (18 + 20 + 8 + 12 + 1000 + 4) + 16); // RETH on the first
}

} // namespace
