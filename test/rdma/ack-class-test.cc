// RdmaNic::AckDscp: ACKs and NAKs leave in the QP's own class by default, or in the
// configured class. RdmaNic::AckEgressClass: the NIC egress class they wait in, apart from
// the class they carry (the HPCC simulator's ACK_HIGH_PRIO 1).
#include "ns3/dcb-helper.h"
#include "ns3/dcb-net-device.h"
#include "ns3/ethernet-vlan-header.h"
#include "ns3/integer.h"
#include "ns3/ipv4-header.h"
#include "ns3/node-container.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/roce-bth-header.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

struct AckFrame
{
    uint8_t dscp;
    uint8_t pcp;
    Time sent;
};

void
RecordAck(std::vector<AckFrame>* out, Ptr<const Packet> frame)
{
    Ptr<Packet> p = frame->Copy();
    EthernetVlanHeader eth;
    p->RemoveHeader(eth);
    Ipv4Header ip;
    p->RemoveHeader(ip);
    UdpHeader udp;
    p->RemoveHeader(udp);
    RoceBthHeader bth;
    p->RemoveHeader(bth);
    if (bth.GetOpcode() == RoceOpcode::Acknowledge)
    {
        out->push_back({static_cast<uint8_t>(ip.GetDscp()), eth.GetPcp(), Simulator::Now()});
    }
}

/**
 * Host 0 writes 64 KB to host 1; \return the ACK frames host 1 transmitted. With
 * \p pauseQpClass, host 0 holds host 1's class 3 (the QP's) paused by PFC from 1 us on.
 */
std::vector<AckFrame>
RunWrite(int ackDscp, int ackEgressClass = -1, bool pauseQpClass = false)
{
    DcbHelper dcb;
    dcb.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
    dcb.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    NodeContainer hosts;
    hosts.Create(2);
    dcb.Install(hosts.Get(0), hosts.Get(1));
    RdmaHelper rdma;
    Ptr<RdmaNic> a = rdma.Install(hosts.Get(0), Ipv4Address("10.0.0.1"));
    Ptr<RdmaNic> b = rdma.Install(hosts.Get(1), Ipv4Address("10.0.0.2"));
    if (ackDscp != -1)
    {
        b->SetAttribute("AckDscp", IntegerValue(ackDscp));
    }
    b->SetAttribute("AckEgressClass", IntegerValue(ackEgressClass));
    if (pauseQpClass)
    {
        Simulator::Schedule(MicroSeconds(1), &DcbNetDevice::SetPfcXoff, a->GetDevice(), 3, true);
    }
    std::vector<AckFrame> acks;
    b->GetDevice()->TraceConnectWithoutContext("PhyTxBegin", MakeBoundCallback(&RecordAck, &acks));
    auto [qa, qb] = RdmaHelper::Connect(a, b);
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Write;
    wr.length = 65536;
    qa->PostSend(wr);
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    Simulator::Destroy();
    return acks;
}

TEST(RdmaAckClass, DefaultAcksTravelInTheQpsOwnClass)
{
    const std::vector<AckFrame> acks = RunWrite(-1);
    ASSERT_FALSE(acks.empty());
    for (const AckFrame& f : acks)
    {
        EXPECT_EQ(f.dscp, 26); // RdmaQueuePair::Dscp default
        EXPECT_EQ(f.pcp, 3);
    }
}

TEST(RdmaAckClass, ConfiguredAckDscpSetsDscpAndPriority)
{
    const std::vector<AckFrame> acks = RunWrite(56);
    ASSERT_FALSE(acks.empty());
    for (const AckFrame& f : acks)
    {
        EXPECT_EQ(f.dscp, 56);
        EXPECT_EQ(f.pcp, 7);
    }
}

} // namespace

namespace
{

// The first ACK goes out about 1 us + 1 us (one 1 KB frame, then the 1 us link) after the
// WRITE starts; the pause from host 0 reaches host 1 about 1 us after it is sent.
TEST(RdmaAckClass, AckEgressClassKeepsTheWireClassButEscapesTheQpClassPause)
{
    // ACK_HIGH_PRIO 1 of the HPCC simulator: class 3 on the wire, a never-paused NIC queue.
    const std::vector<AckFrame> ahead = RunWrite(-1, 7, true);
    ASSERT_FALSE(ahead.empty());
    for (const AckFrame& f : ahead)
    {
        EXPECT_EQ(f.dscp, 26);
        EXPECT_EQ(f.pcp, 3);
    }
    // Every data packet of the 64 KB WRITE (64 packets) is acknowledged within the 1 ms run.
    EXPECT_GE(ahead.size(), 64u);
    EXPECT_LT(ahead.back().sent, MicroSeconds(20));

    // Control: the ACKs wait in class 3, which host 0 keeps paused: none leaves after the
    // pause arrives (the XOFF is refreshed for the whole run).
    const std::vector<AckFrame> held = RunWrite(-1, -1, true);
    for (const AckFrame& f : held)
    {
        EXPECT_LT(f.sent, MicroSeconds(3));
    }
    EXPECT_LT(held.size(), ahead.size());
}

} // namespace
