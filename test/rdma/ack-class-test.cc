// RdmaNic::AckDscp: ACKs and NAKs leave in the QP's own class by default, or in the
// configured class (the HPCC simulator's ACK_HIGH_PRIO).
#include "ns3/dcb-helper.h"
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
        out->push_back({static_cast<uint8_t>(ip.GetDscp()), eth.GetPcp()});
    }
}

/** Host 0 writes 64 KB to host 1; \return the ACK frames host 1 transmitted. */
std::vector<AckFrame>
RunWrite(int ackDscp)
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
