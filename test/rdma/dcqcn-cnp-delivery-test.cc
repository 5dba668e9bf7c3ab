// RdmaDcqcn CnpDelivery: Packet (a RoCEv2 CNP packet, IBTA Vol. 1 Annex A17) against
// AckBecn (the HPCC simulator's DCQCN: the CE-marked packet's ACK carries the CNP as the
// BTH BECN bit). Units on the responder (the ACK of the marked packet goes at once with
// BECN, ending AckInterval coalescing; NAKs carry it; a packet dropped without an answer
// leaves it to the next acknowledge) and the requester (the reaction point takes BECN as a
// CNP only under AckBecn; DCQCN with Packet ignores it); a bottleneck scenario comparing the
// two modes on the wire and in the senders' rate cuts; a READ control (no ACK: a CNP packet).
#include "../function-callback.h"
#include "fake-qp-owner.h"
#include "rdma-test-fabric.h"

#include "ns3/enum.h"
#include "ns3/ethernet-vlan-header.h"
#include "ns3/integer.h"
#include "ns3/ipv4-header.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/rdma-go-back-n.h"
#include "ns3/rdma-no-congestion-control.h"
#include "ns3/rdma-requester.h"
#include "ns3/rdma-responder.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"

#include <cstdint>
#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

namespace ns3
{
namespace
{

constexpr uint32_t MTU = 1024;

// ------------------------------------------------------------------ responder (NP side)

class CnpInAckResponderTest : public ::testing::Test
{
  public:
    void TearDown() override
    {
        m_responder.Dispose();
        Simulator::Destroy();
    }

    void Setup(uint32_t ackInterval)
    {
        m_responder.Setup(m_owner.ResponderConfig(MTU, ackInterval,
                                                  CreateObject<RdmaNoCongestionControl>(),
                                                  CreateObject<RdmaGoBackN>(), &m_counters));
        m_responder.SetRemoteQpn(0x100);
    }

    /** Packet \p i of a \p count-packet WRITE; \p cnp: the NP decided a CNP for it. */
    void Deliver(uint32_t i, uint32_t count, bool cnp)
    {
        const RoceOpcode op = i == 0           ? RoceOpcode::WriteFirst
                              : i + 1 == count ? RoceOpcode::WriteLast
                                               : RoceOpcode::WriteMiddle;
        Ptr<Packet> p = Create<Packet>(MTU);
        if (i == 0)
        {
            RoceRethHeader reth;
            reth.SetDmaLength(count * MTU);
            p->AddHeader(reth);
        }
        RoceBthHeader bth;
        bth.SetOpcode(op);
        bth.SetPsn(i);
        bth.SetAckRequest(i + 1 == count);
        if (cnp)
        {
            m_responder.RequestCnpInAck();
        }
        m_responder.ReceiveRequest(bth, p, cnp);
    }

    /** (PSN, BECN, is a NAK) of every acknowledge sent. */
    std::vector<std::tuple<uint32_t, bool, bool>> Acknowledges() const
    {
        std::vector<std::tuple<uint32_t, bool, bool>> out;
        for (const auto& c : m_owner.controls)
        {
            out.emplace_back(c.bth.GetPsn(), c.bth.GetBecn(), c.aeth.IsNak());
        }
        return out;
    }

    FakeQpOwner m_owner;
    RdmaQpCounters m_counters;
    RdmaResponder m_responder;
};

using Ack = std::tuple<uint32_t, bool, bool>;

// AckInterval 4: the CNP for packet 1 sends its ACK at once with BECN, ending the
// coalescing window; the rest are acknowledged as usual, without BECN.
TEST_F(CnpInAckResponderTest, MarkedPacketsAckGoesAtOnceWithBecn)
{
    Setup(4);
    for (uint32_t i = 0; i < 6; ++i)
    {
        Deliver(i, 6, i == 1);
    }
    EXPECT_EQ(Acknowledges(), (std::vector<Ack>{{1, true, false}, {5, false, false}}));
    EXPECT_EQ(m_counters.cnpsSent, 1u);
    EXPECT_EQ(m_counters.cnpsSentInAck, 1u);
    EXPECT_EQ(m_counters.acksSent, 2u);
    EXPECT_EQ(m_owner.cnpRequests, 0u);
}

// Control: no CNP decided, the window of 4 and the message end; no BECN.
TEST_F(CnpInAckResponderTest, ControlWithoutCnpCoalescesAndSetsNoBecn)
{
    Setup(4);
    for (uint32_t i = 0; i < 6; ++i)
    {
        Deliver(i, 6, false);
    }
    EXPECT_EQ(Acknowledges(), (std::vector<Ack>{{3, false, false}, {5, false, false}}));
    EXPECT_EQ(m_counters.cnpsSent, 0u);
}

// Go-back-N: the out-of-order packet's NAK carries BECN; a marked packet dropped after
// that NAK draws no acknowledge, so the next one (the resend's ACK) carries its BECN.
TEST_F(CnpInAckResponderTest, NakCarriesBecnAndASilentDropHandsItOn)
{
    Setup(1);
    Deliver(0, 4, false);
    Deliver(2, 4, true); // PSN 1 lost: NAK with BECN
    Deliver(3, 4, true); // dropped without an answer
    EXPECT_EQ(Acknowledges(), (std::vector<Ack>{{0, false, false}, {1, true, true}}));
    Deliver(1, 4, false);
    Deliver(2, 4, false);
    Deliver(3, 4, false);
    EXPECT_EQ(Acknowledges(), (std::vector<Ack>{{0, false, false},
                                                {1, true, true},
                                                {1, true, false},
                                                {2, false, false},
                                                {3, false, false}}));
    EXPECT_EQ(m_counters.cnpsSent, 2u);
    EXPECT_EQ(m_counters.cnpsSentInAck, 2u);
}

// ------------------------------------------------------------------ requester (RP side)

class CnpInAckRequesterTest : public ::testing::Test
{
  public:
    void TearDown() override
    {
        m_requester.Dispose();
        Simulator::Destroy();
    }

    /** A requester at 100 Gb/s whose congestion control is \p cc. */
    void Setup(Ptr<RdmaCongestionOps> cc)
    {
        m_requester.Setup(
            m_owner.RequesterConfig(MTU, cc, CreateObject<RdmaGoBackN>(), &m_counters));
        m_requester.SetRemoteQpn(0x200);
    }

    /** Send a 4-packet WRITE, then hand the requester ACK/NAKs of \p psns with BECN. */
    void SendAndAcknowledgeWithBecn(const std::vector<std::pair<uint32_t, bool>>& psns)
    {
        RdmaWorkRequest wr;
        wr.verb = RdmaVerb::Write;
        wr.length = 4 * MTU;
        m_requester.PostSend(wr);
        while (m_requester.BuildRequestPacket())
        {
        }
        for (const auto& [psn, nak] : psns)
        {
            RoceAethHeader aeth;
            if (nak)
            {
                aeth.SetNak(RoceNakCode::PsnSequenceError);
            }
            else
            {
                aeth.SetAck();
            }
            Ptr<Packet> p = Create<Packet>();
            p->AddHeader(aeth);
            RoceBthHeader bth;
            bth.SetOpcode(RoceOpcode::Acknowledge);
            bth.SetPsn(psn);
            bth.SetBecn(true);
            m_requester.ReceiveAcknowledge(bth, p);
        }
    }

    static Ptr<RdmaDcqcn> Dcqcn(RdmaDcqcn::CnpDelivery delivery)
    {
        Ptr<RdmaDcqcn> cc = CreateObject<RdmaDcqcn>();
        cc->SetAttribute("CnpDelivery", EnumValue(delivery));
        return cc;
    }

    FakeQpOwner m_owner;
    RdmaQpCounters m_counters;
    RdmaRequester m_requester;
};

// AckBecn: each ACK or NAK with BECN is one CNP, through OnCnp (the paper's RP cuts on
// every CNP: 100 -> 50 Gb/s with alpha 1, then 50 -> 25 with alpha 1 - g + g = 1).
TEST_F(CnpInAckRequesterTest, AckBecnReactionPointTakesBecnAsACnp)
{
    Setup(Dcqcn(RdmaDcqcn::CNP_ACK_BECN));
    SendAndAcknowledgeWithBecn({{0, false}, {1, true}});
    EXPECT_EQ(m_counters.cnpsReceived, 2u);
    EXPECT_EQ(m_counters.cnpsReceivedInAck, 2u);
    EXPECT_EQ(m_counters.ecnEchoesReceived, 2u);
    EXPECT_EQ(m_requester.GetCcState().m_rate, DataRate("25Gbps"));
}

// Packet (what RoCEv2 NICs do): BECN in an ACK is no CNP; the rate stays at line rate.
TEST_F(CnpInAckRequesterTest, PacketReactionPointIgnoresBecn)
{
    Setup(Dcqcn(RdmaDcqcn::CNP_PACKET));
    SendAndAcknowledgeWithBecn({{0, false}, {1, true}});
    EXPECT_EQ(m_counters.cnpsReceived, 0u);
    EXPECT_EQ(m_counters.cnpsReceivedInAck, 0u);
    EXPECT_EQ(m_counters.ecnEchoesReceived, 2u);
    EXPECT_EQ(m_requester.GetCcState().m_rate, DataRate("100Gbps"));
}

// ------------------------------------------------------------------ scenario

/** What one bottleneck run showed on the wire and at the senders. */
struct DeliveryRun
{
    uint64_t marks{0};            //!< CE marks the switch set on data packets
    uint64_t dataReceived{0};     //!< data frames the receiver NIC took in
    uint64_t cnpFrames{0};        //!< CNP packets the receiver NIC transmitted
    uint64_t ackFrames{0};        //!< ACK/NAK frames the receiver NIC transmitted
    uint64_t becnAcks{0};         //!< ... of them with BECN set
    uint64_t becnMismatches{0};   //!< ACKs whose BECN differs from their data packet's CE
    uint64_t npNotifications{0};  //!< the receiver QPs' cnpsSent
    uint64_t npInAck{0};          //!< the receiver QPs' cnpsSentInAck
    uint64_t rpNotifications{0};  //!< the sender QPs' cnpsReceived
    std::vector<uint32_t> cuts;   //!< rate cuts per sender
    std::vector<Time> completion; //!< completion time per sender
};

/** Decoded headers of one frame. */
struct Frame
{
    Ipv4Header ip;
    RoceBthHeader bth;
};

Frame
Decode(Ptr<const Packet> frame)
{
    Ptr<Packet> p = frame->Copy();
    EthernetVlanHeader eth;
    p->RemoveHeader(eth);
    Frame f;
    p->RemoveHeader(f.ip);
    UdpHeader udp;
    p->RemoveHeader(udp);
    p->RemoveHeader(f.bth);
    return f;
}

/**
 * Two senders write 1 MB each into one receiver through a 40 Gb/s switch that marks every
 * data packet finding a queue; every NIC runs the hpcc-dcqcn profile's notification and
 * reaction rules that matter here (CnpInterval 0, RateDecreaseInterval 4 us) with
 * \p delivery, and sends ACKs in the CNP's class 6 (AckDscp 48), so that the two modes'
 * notifications share one class on the wire.
 */
DeliveryRun
RunIncast(RdmaDcqcn::CnpDelivery delivery)
{
    DcbHelper dcb;
    dcb.SetEcnMarkerAttribute("Kmin", QueueSizeValue(QueueSize("0B")));
    dcb.SetEcnMarkerAttribute("Kmax", QueueSizeValue(QueueSize("0B")));
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::RdmaDcqcn");
    rdma.SetCongestionControlAttribute("CnpInterval", TimeValue(Time(0)));
    rdma.SetCongestionControlAttribute("RateDecreaseInterval", TimeValue(MicroSeconds(4)));
    rdma.SetCongestionControlAttribute("CnpDelivery", EnumValue(delivery));
    rdma.SetNicAttribute("AckDscp", IntegerValue(48));
    RdmaLeafSpineFabric f = BuildStar(3, "40Gbps", MicroSeconds(1), dcb, rdma);
    DeliveryRun r;
    std::map<std::pair<uint32_t, uint32_t>, bool> ce; // (sender IP, PSN) -> CE of the data
    Ptr<DcbNetDevice> rx = f.GetNics()[2]->GetDevice();
    std::function<void(Ptr<const Packet>)> onRx = [&r, &ce](Ptr<const Packet> frame)
    {
        const Frame d = Decode(frame);
        if (d.bth.GetOpcode() != RoceOpcode::Acknowledge && d.bth.GetOpcode() != RoceOpcode::Cnp)
        {
            ++r.dataReceived;
            ce[{d.ip.GetSource().Get(), d.bth.GetPsn()}] = d.ip.GetEcn() == Ipv4Header::ECN_CE;
        }
    };
    std::function<void(Ptr<const Packet>)> onTx = [&r, &ce](Ptr<const Packet> frame)
    {
        const Frame d = Decode(frame);
        if (d.bth.GetOpcode() == RoceOpcode::Cnp)
        {
            ++r.cnpFrames;
        }
        else if (d.bth.GetOpcode() == RoceOpcode::Acknowledge)
        {
            ++r.ackFrames;
            r.becnAcks += d.bth.GetBecn() ? 1 : 0;
            const auto it = ce.find({d.ip.GetDestination().Get(), d.bth.GetPsn()});
            if (it == ce.end() || it->second != d.bth.GetBecn())
            {
                ++r.becnMismatches;
            }
        }
    };
    rx->TraceConnectWithoutContext("MacRx", MakeFunctionCallback(&onRx));
    rx->TraceConnectWithoutContext("PhyTxBegin", MakeFunctionCallback(&onTx));
    std::vector<std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>> qps;
    r.cuts.assign(2, 0);
    r.completion.assign(2, Time(0));
    std::vector<std::function<void(DataRate, DataRate)>> onRate;
    std::vector<std::function<void(const RdmaCompletion&)>> onDone;
    onRate.reserve(2); // the callbacks point into these
    onDone.reserve(2);
    for (uint32_t s = 0; s < 2; ++s)
    {
        qps.push_back(RdmaHelper::Connect(f.GetNics()[s], f.GetNics()[2]));
        uint32_t* cuts = &r.cuts[s];
        onRate.emplace_back([cuts](DataRate before, DataRate after) { *cuts += after < before; });
        qps.back().first->GetCongestionOps()->TraceConnectWithoutContext(
            "RateChange", MakeFunctionCallback(&onRate.back()));
        Time* done = &r.completion[s];
        onDone.emplace_back([done](const RdmaCompletion& c) { *done = c.completionTime; });
        f.GetNics()[s]->TraceConnectWithoutContext("Completion",
                                                   MakeFunctionCallback(&onDone.back()));
        RdmaWorkRequest wr;
        wr.verb = RdmaVerb::Write;
        wr.length = 1000000;
        qps.back().first->PostSend(wr);
    }
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    const uint8_t tc = qps[0].first->GetTrafficClass();
    Ptr<DcbSwitch> sw = f.GetSwitch(0);
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        r.marks += sw->GetEcnMarker(p) ? sw->GetEcnMarker(p)->GetMarks(tc) : 0;
    }
    for (const auto& [sender, receiver] : qps)
    {
        EXPECT_EQ(sender->GetCounters().payloadBytesSent, 1000000U); // complete, no resend
        r.npNotifications += receiver->GetCounters().cnpsSent;
        r.npInAck += receiver->GetCounters().cnpsSentInAck;
        r.rpNotifications += sender->GetCounters().cnpsReceived;
    }
    Simulator::Destroy();
    return r;
}

// AckBecn: no CNP packet; exactly the ACKs of the CE-marked packets carry BECN, one
// notification per marked packet, each taken by the sender. Packet (control): a CNP packet
// per marked packet and no BECN. The senders react alike: with ACKs in the CNP's class 6,
// Packet's CNP leaves just ahead of the marked packet's ACK and AckBecn's flagged ACK takes
// its slot, so each notification reaches the sender at the same instant, and cuts happen
// at the 4 us ticks of the sender's check. What differs on the wire is that Packet's ACK of
// a marked packet waits behind the CNP frame (102 B with preamble and gap, 20.4 ns at
// 40 Gb/s), which the number of cuts cannot see and a completion time could by at most that
// (the run gives 197 marks, 13 cuts per sender and the same completion times to the ps).
TEST(DcqcnCnpDelivery, AckBecnFlagsTheMarkedPacketsAcksAndCutsAsCnpPackets)
{
    const DeliveryRun becn = RunIncast(RdmaDcqcn::CNP_ACK_BECN);
    EXPECT_GT(becn.marks, 100U);
    EXPECT_EQ(becn.cnpFrames, 0U);
    EXPECT_EQ(becn.ackFrames, becn.dataReceived); // AckInterval 1: one ACK per packet
    EXPECT_EQ(becn.becnAcks, becn.marks);
    EXPECT_EQ(becn.becnMismatches, 0U);
    EXPECT_EQ(becn.npNotifications, becn.marks);
    EXPECT_EQ(becn.npInAck, becn.marks);
    EXPECT_EQ(becn.rpNotifications, becn.marks);

    const DeliveryRun cnp = RunIncast(RdmaDcqcn::CNP_PACKET);
    EXPECT_GT(cnp.marks, 100U);
    EXPECT_EQ(cnp.cnpFrames, cnp.marks);
    EXPECT_EQ(cnp.becnAcks, 0U);
    EXPECT_EQ(cnp.npNotifications, cnp.marks);
    EXPECT_EQ(cnp.npInAck, 0U);
    EXPECT_EQ(cnp.rpNotifications, cnp.marks);

    for (uint32_t s = 0; s < 2; ++s)
    {
        SCOPED_TRACE(s);
        EXPECT_GT(becn.cuts[s], 3U);
        EXPECT_EQ(becn.cuts[s], cnp.cuts[s]);
        EXPECT_LE(Abs(becn.completion[s] - cnp.completion[s]), NanoSeconds(21));
    }
}

// READ responses draw no ACK, so under AckBecn the requester's NP still answers a marked
// READ response with a CNP packet, and the responder (the READ's sender) cuts on it.
TEST(DcqcnCnpDelivery, MarkedReadResponsesKeepTheirCnpPacket)
{
    DcbHelper dcb;
    dcb.SetEcnMarkerAttribute("Kmin", QueueSizeValue(QueueSize("0B")));
    dcb.SetEcnMarkerAttribute("Kmax", QueueSizeValue(QueueSize("0B")));
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::RdmaDcqcn");
    rdma.SetCongestionControlAttribute("CnpInterval", TimeValue(Time(0)));
    rdma.SetCongestionControlAttribute("CnpDelivery", EnumValue(RdmaDcqcn::CNP_ACK_BECN));
    RdmaLeafSpineFabric f = BuildStar(3, "40Gbps", MicroSeconds(1), dcb, rdma);
    std::vector<std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>> qps;
    for (uint32_t s = 0; s < 2; ++s) // host 2 reads 256 KB from hosts 0 and 1
    {
        qps.push_back(RdmaHelper::Connect(f.GetNics()[2], f.GetNics()[s]));
        RdmaWorkRequest wr;
        wr.verb = RdmaVerb::Read;
        wr.length = 256 * 1024;
        qps.back().first->PostSend(wr);
    }
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    uint64_t sent = 0;
    uint64_t sentInAck = 0;
    uint64_t received = 0;
    uint64_t receivedInAck = 0;
    for (const auto& [reader, source] : qps)
    {
        EXPECT_EQ(reader->GetOutstandingWorkRequests(), 0u);
        sent += reader->GetCounters().cnpsSent;
        sentInAck += reader->GetCounters().cnpsSentInAck;
        received += source->GetCounters().cnpsReceived;
        receivedInAck += source->GetCounters().cnpsReceivedInAck;
    }
    Simulator::Destroy();
    EXPECT_GT(sent, 10u);
    EXPECT_EQ(sentInAck, 0u);
    EXPECT_EQ(received, sent);
    EXPECT_EQ(receivedInAck, 0u);
}

} // namespace
} // namespace ns3
