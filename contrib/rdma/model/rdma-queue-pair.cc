#include "rdma-queue-pair.h"

#include "rdma-nic.h"
#include "roce-cnp-header.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQueuePair");
NS_OBJECT_ENSURE_REGISTERED(RdmaQueuePair);

TypeId
RdmaQueuePair::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaQueuePair")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaQueuePair>()
            .AddAttribute("Mtu",
                          "Path MTU: payload bytes per packet. Default 1024 (the RoCE MTU of "
                          "the SRNIC evaluation and of most RoCE deployments' default).",
                          UintegerValue(1024), MakeUintegerAccessor(&RdmaQueuePair::m_mtu),
                          MakeUintegerChecker<uint32_t>(256, 4096))
            .AddAttribute("Dscp",
                          "DSCP of the QP's packets. Default 26, the common RoCE lossless "
                          "marking (class 3 with DSCP>>3 mapping).",
                          UintegerValue(26), MakeUintegerAccessor(&RdmaQueuePair::m_dscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("AckInterval",
                          "The responder acknowledges after this many in-order request packets "
                          "(and always when the AckReq bit is set, at every message end). "
                          "Default 1: an ACK per packet, as the HPCC/SRNIC simulation settings.",
                          UintegerValue(1), MakeUintegerAccessor(&RdmaQueuePair::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RnrTimer",
                          "Delay before retrying after an RNR NAK (no receive posted). Default "
                          "10.24 us: the smallest IBTA min_rnr_timer encoding (0.01 ms).",
                          TimeValue(NanoSeconds(10240)),
                          MakeTimeAccessor(&RdmaQueuePair::m_rnrTimer),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("SrnicHeaderExtensions",
                          "Carry SRNIC's header extensions (NSDI'23 section 4.4.1): SSN + PSN "
                          "offset on SEND packets (8 B), remote address + PSN offset on WRITE "
                          "packets (20 B; 4 B when the packet has a RETH), the requester's "
                          "address + PSN offset on READ requests (20 B); responses echo them: "
                          "READ responses the address + PSN offset of their data (20 B), "
                          "ACK/NAKs the SSN + PSN offset they answer (8 B). Both ends of a "
                          "connection must agree. Default false (plain RoCEv2).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaQueuePair::m_srnicExtensions),
                          MakeBooleanChecker())
            .AddAttribute("InFlightCap",
                          "Bytes of requests the QP may have sent and not had acknowledged "
                          "(its PSNs in flight x Mtu), whatever its congestion control: a "
                          "window of one bandwidth-delay product, as the HPCC simulator's "
                          "HAS_WIN 1 gives every QP (its mix/config_doc.txt; the base RTT x "
                          "rate of the path). The smaller of it and a window congestion "
                          "control's window applies. Default 0: no cap (a RoCEv2 NIC's rate "
                          "control alone).",
                          UintegerValue(0), MakeUintegerAccessor(&RdmaQueuePair::m_inFlightCap),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("InFlightCapFollowsRate",
                          "Scale InFlightCap by the QP's current rate over its line rate (at "
                          "least one byte: one packet may always go), as the HPCC "
                          "simulator's VAR_WIN 1. Default false: the cap is fixed (VAR_WIN "
                          "0).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaQueuePair::m_inFlightCapFollowsRate),
                          MakeBooleanChecker());
    return tid;
}

RdmaQueuePair::RdmaQueuePair() = default;
RdmaQueuePair::~RdmaQueuePair() = default;

void
RdmaQueuePair::DoDispose()
{
    m_requester.Dispose();
    m_responder.Dispose();
    if (m_cc)
    {
        m_cc->Stop();
    }
    m_cc = nullptr;
    if (m_loss)
    {
        m_loss->Dispose(); // drops its hooks into this QP (a slow path may still hold it)
    }
    m_loss = nullptr;
    m_owner = nullptr;
    Object::DoDispose();
}

void
RdmaQueuePair::Setup(RdmaNic* nic, uint32_t qpn, Ipv4Address local, Ipv4Address remote,
                     Ptr<RdmaCongestionOps> cc, Ptr<RdmaLossRecovery> lossRecovery)
{
    m_owner = nic;
    m_qpn = qpn;
    m_local = local;
    m_remote = remote;
    m_cc = cc;
    m_loss = lossRecovery;
    // A slow-path loss recovery (SRNIC) makes retransmissions and in-order delivery
    // available later than the packet that caused them.
    m_loss->SetQueuePairHooks(MakeCallback(&RdmaQueuePair::LossTxReady, this),
                              MakeCallback(&RdmaQueuePair::LossDeliver, this));
    RdmaQpEndpointConfig common;
    common.owner = nic;
    common.qp = this;
    common.qpn = qpn;
    common.mtu = m_mtu;
    common.srnicExtensions = m_srnicExtensions;
    common.cc = m_cc;
    common.loss = m_loss;
    common.counters = &m_counters;
    RdmaRequester::Config requester{common, m_rnrTimer, nic->GetLineRate(), m_inFlightCap,
                                    m_inFlightCapFollowsRate};
    m_requester.Setup(requester);
    RdmaResponder::Config responder{common, m_ackInterval};
    m_responder.Setup(responder);
}

void
RdmaQueuePair::LossTxReady()
{
    m_owner->NotifyTxWork(this);
}

void
RdmaQueuePair::LossDeliver(uint64_t upTo)
{
    m_responder.DeliverKept(upTo);
}

void
RdmaQueuePair::Connect(uint32_t remoteQpn)
{
    m_remoteQpn = remoteQpn;
    m_requester.SetRemoteQpn(remoteQpn);
    m_responder.SetRemoteQpn(remoteQpn);
}

uint32_t
RdmaQueuePair::GetQpn() const
{
    return m_qpn;
}

uint32_t
RdmaQueuePair::GetRemoteQpn() const
{
    return m_remoteQpn;
}

Ipv4Address
RdmaQueuePair::GetLocalAddress() const
{
    return m_local;
}

Ipv4Address
RdmaQueuePair::GetRemoteAddress() const
{
    return m_remote;
}

uint16_t
RdmaQueuePair::GetUdpSourcePort() const
{
    return m_udpSourcePort;
}

void
RdmaQueuePair::SetUdpSourcePort(uint16_t port)
{
    m_udpSourcePort = port;
}

uint8_t
RdmaQueuePair::GetDscp() const
{
    return m_dscp;
}

uint8_t
RdmaQueuePair::GetTrafficClass() const
{
    return static_cast<uint8_t>(m_dscp >> 3);
}

uint32_t
RdmaQueuePair::GetMtu() const
{
    return m_mtu;
}

const RdmaCcState&
RdmaQueuePair::GetCcState() const
{
    return m_requester.GetCcState();
}

Ptr<RdmaCongestionOps>
RdmaQueuePair::GetCongestionOps() const
{
    return m_cc;
}

Ptr<RdmaLossRecovery>
RdmaQueuePair::GetLossRecovery() const
{
    return m_loss;
}

const RdmaQpCounters&
RdmaQueuePair::GetCounters() const
{
    return m_counters;
}

uint32_t
RdmaQueuePair::GetUnsentWorkRequests() const
{
    return m_requester.GetUnsentWorkRequests();
}

uint32_t
RdmaQueuePair::GetOutstandingWorkRequests() const
{
    return m_requester.GetOutstandingWorkRequests();
}

bool
RdmaQueuePair::IsInError() const
{
    return m_requester.IsInError();
}

bool
RdmaQueuePair::IsStalled() const
{
    return m_requester.IsStalled();
}

void
RdmaQueuePair::SetError()
{
    if (m_requester.IsInError())
    {
        return;
    }
    m_requester.Flush(RdmaWcStatus::Flushed);
    m_responder.Flush();
}

bool
RdmaQueuePair::IsInActiveList() const
{
    return m_inActiveList;
}

void
RdmaQueuePair::SetInActiveList(bool held)
{
    m_inActiveList = held;
}

// ------------------------------------------------------------------ verbs

void
RdmaQueuePair::PostSend(const RdmaWorkRequest& wr)
{
    m_requester.PostSend(wr);
}

void
RdmaQueuePair::PostRecv(const RdmaRecvRequest& rr)
{
    m_responder.PostRecv(rr, m_requester.IsInError());
}

// ------------------------------------------------------------------ transmit

bool
RdmaQueuePair::HasTxWork() const
{
    return m_responder.HasReadResponse() || m_requester.HasTxWork();
}

bool
RdmaQueuePair::IsQuiescent() const
{
    const RdmaQpCounters& c = m_counters;
    return !m_inActiveList && !HasTxWork() && m_requester.GetOutstandingWorkRequests() == 0 &&
           c.retransmittedPackets == 0 && c.timeouts == 0 && c.naksSent == 0 &&
           c.naksReceived == 0 && c.duplicatesReceived == 0 && c.outOfOrderDropped == 0 &&
           c.outOfOrderBuffered == 0 && c.readResponsesOutOfOrder == 0;
}

Time
RdmaQueuePair::GetNextTxTime() const
{
    return m_requester.GetNextTxTime();
}

bool
RdmaQueuePair::IsMidBurst() const
{
    return m_requester.IsMidBurst();
}

Ptr<Packet>
RdmaQueuePair::BuildNextPacket()
{
    // READ responses go first; every packet of the QP is paced at its rate.
    Ptr<Packet> p = m_responder.HasReadResponse() ? m_responder.BuildReadResponse()
                                                  : m_requester.BuildRequestPacket();
    if (p)
    {
        m_requester.OnPacketSent(m_owner->GetWireSize(p));
    }
    return p;
}

void
RdmaQueuePair::SendCnp()
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(RoceCnpHeader());
    RoceBthHeader bth;
    bth.SetOpcode(RoceOpcode::Cnp);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(0);
    p->AddHeader(bth);
    m_counters.cnpsSent++;
    m_owner->SendControl(this, p, true);
}

// ------------------------------------------------------------------ receive

void
RdmaQueuePair::Receive(Ptr<Packet> packet, bool ceMarked, uint8_t hops)
{
    RoceBthHeader bth;
    packet->RemoveHeader(bth);
    const RoceOpcode op = bth.GetOpcode();
    if (op == RoceOpcode::Cnp)
    {
        m_requester.ReceiveCnp(false);
        return;
    }
    if (op == RoceOpcode::Acknowledge)
    {
        m_requester.ReceiveAcknowledge(bth, packet, hops);
        return;
    }
    const bool readResponse = RoceBthHeader::IsReadResponse(op);
    if (m_cc->OnDataReceived(ceMarked))
    {
        if (m_cc->WantsCnpInAckBecn() && !readResponse && op != RoceOpcode::ReadRequest)
        {
            // The ACK/NAK of this SEND/WRITE packet carries the CNP as BECN, from the
            // NIC's ACK path (no firmware CNP queue); READ responses and READ requests
            // draw no ACK of their own and keep the CNP packet.
            m_responder.RequestCnpInAck();
        }
        else
        {
            m_owner->RequestCnp(this); // at once, or through the NIC's firmware CNP queue
        }
    }
    if (readResponse)
    {
        m_responder.NoteCongestionExperienced(ceMarked);
        m_requester.ReceiveReadResponse(bth, packet);
        return;
    }
    m_responder.ReceiveRequest(bth, packet, ceMarked);
}

} // namespace ns3
