#include "rdma-queue-pair.h"

#include "rdma-nic.h"
#include "roce-aeth-header.h"
#include "roce-cnp-header.h"
#include "roce-imm-dt-header.h"
#include "roce-reth-header.h"
#include "roce-sack-header.h"
#include "roce-srnic-ext-header.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/dcb-net-device.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQueuePair");
NS_OBJECT_ENSURE_REGISTERED(RdmaQueuePair);

namespace
{
uint32_t
WirePsn(uint64_t psn)
{
    return static_cast<uint32_t>(psn & RoceBthHeader::PSN_MASK);
}

/** Unwrap a 24-bit PSN to the 64-bit value closest to \p reference. */
uint64_t
Unwrap(uint32_t wire, uint64_t reference)
{
    const int32_t delta = RoceBthHeader::PsnDiff(wire, WirePsn(reference));
    const int64_t value = static_cast<int64_t>(reference) + delta;
    return value < 0 ? 0 : static_cast<uint64_t>(value);
}

RoceOpcode
SegmentOpcode(RdmaVerb verb, uint32_t index, uint32_t count, bool imm)
{
    const bool first = index == 0;
    const bool last = index + 1 == count;
    if (verb == RdmaVerb::Send)
    {
        return first ? (last ? RoceOpcode::SendOnly : RoceOpcode::SendFirst)
                     : (last ? RoceOpcode::SendLast : RoceOpcode::SendMiddle);
    }
    if (imm)
    {
        return first ? (last ? RoceOpcode::WriteOnlyImm : RoceOpcode::WriteFirst)
                     : (last ? RoceOpcode::WriteLastImm : RoceOpcode::WriteMiddle);
    }
    return first ? (last ? RoceOpcode::WriteOnly : RoceOpcode::WriteFirst)
                 : (last ? RoceOpcode::WriteLast : RoceOpcode::WriteMiddle);
}

RoceOpcode
ResponseOpcode(uint32_t index, uint32_t count)
{
    const bool first = index == 0;
    const bool last = index + 1 == count;
    return first ? (last ? RoceOpcode::ReadResponseOnly : RoceOpcode::ReadResponseFirst)
                 : (last ? RoceOpcode::ReadResponseLast : RoceOpcode::ReadResponseMiddle);
}
} // namespace

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
                          MakeBooleanChecker());
    return tid;
}

RdmaQueuePair::RdmaQueuePair() = default;
RdmaQueuePair::~RdmaQueuePair() = default;

void
RdmaQueuePair::DoDispose()
{
    m_rto.Stop();
    m_rnrEvent.Cancel();
    m_nakEvent.Cancel();
    if (m_cc)
    {
        m_cc->Stop();
    }
    m_oooRing.clear();
    m_cc = nullptr;
    if (m_loss)
    {
        m_loss->Dispose(); // drops its hooks into this QP (a slow path may still hold it)
    }
    m_loss = nullptr;
    m_nic = nullptr;
    Object::DoDispose();
}

void
RdmaQueuePair::Setup(RdmaNic* nic, uint32_t qpn, Ipv4Address local, Ipv4Address remote,
                     Ptr<RdmaCongestionOps> cc, Ptr<RdmaLossRecovery> lossRecovery)
{
    m_nic = nic;
    m_qpn = qpn;
    m_local = local;
    m_remote = remote;
    m_cc = cc;
    m_loss = lossRecovery;
    m_rto.SetFunction(MakeCallback(&RdmaQueuePair::RetransmitTimeout, this));
    // A slow-path loss recovery (SRNIC) makes retransmissions and in-order delivery
    // available later than the packet that caused them.
    m_loss->SetQueuePairHooks(Callback<void>([this]() { m_nic->NotifyTxWork(this); }),
                              Callback<void, uint64_t>(
                                  [this](uint64_t upTo)
                                  {
                                      if (!m_oooRing.empty())
                                      {
                                          DrainInOrder(upTo);
                                      }
                                  }));
    m_ccState.m_lineRate = nic->GetLineRate();
    m_ccState.m_rate = m_ccState.m_lineRate;
    m_ccState.m_targetRate = m_ccState.m_lineRate;
    m_ccState.m_mtu = m_mtu;
    m_cc->Init(&m_ccState);
    m_readTracker.SetCapacity(m_loss->GetInFlightCap());
}

void
RdmaQueuePair::Connect(uint32_t remoteQpn)
{
    m_remoteQpn = remoteQpn;
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
    return m_ccState;
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
RdmaQueuePair::GetOutstandingWorkRequests() const
{
    return static_cast<uint32_t>(m_sq.size());
}

bool
RdmaQueuePair::IsInError() const
{
    return m_error;
}

// ------------------------------------------------------------------ verbs

void
RdmaQueuePair::PostSend(const RdmaWorkRequest& wr)
{
    if (m_error)
    {
        RdmaCompletion c;
        c.qpn = m_qpn;
        c.wrId = wr.wrId;
        c.verb = wr.verb;
        c.status = RdmaWcStatus::Flushed;
        c.postTime = Simulator::Now();
        c.completionTime = Simulator::Now();
        m_nic->NotifyCompletion(c);
        return;
    }
    const uint64_t segments = std::max<uint64_t>(1, (wr.length + m_mtu - 1) / m_mtu);
    NS_ABORT_MSG_IF(segments > RoceBthHeader::PSN_MASK / 2,
                    "RdmaQueuePair " << m_qpn << ": message of " << wr.length
                                     << " B needs more PSNs than the 24-bit window allows");
    if (wr.verb == RdmaVerb::Read && m_loss->IsSelective())
    {
        m_readTracker.EnsureCapacity(m_loss->GetInFlightCap() + segments);
    }
    m_sq.push_back(
        SendWqe{wr, m_nextPsnToAssign, static_cast<uint32_t>(segments), 0, Simulator::Now()});
    m_nextPsnToAssign += segments;
    m_nic->NotifyTxWork(this);
}

void
RdmaQueuePair::PostRecv(const RdmaRecvRequest& rr)
{
    if (m_error)
    {
        RdmaCompletion c;
        c.qpn = m_qpn;
        c.wrId = rr.wrId;
        c.verb = RdmaVerb::Send;
        c.receive = true;
        c.status = RdmaWcStatus::Flushed;
        c.postTime = Simulator::Now();
        c.completionTime = Simulator::Now();
        m_nic->NotifyCompletion(c);
        return;
    }
    m_rq.push_back(RecvWqe{rr, Simulator::Now()});
}

// ------------------------------------------------------------------ transmit

bool
RdmaQueuePair::HasTxWork() const
{
    if (!m_readJobs.empty())
    {
        return true;
    }
    if (m_error || m_rnrWait)
    {
        return false;
    }
    if (m_loss->HasRetransmission(m_seq))
    {
        return true; // lost packets go first, within the window they already count in
    }
    if (m_seq.nxt >= m_nextPsnToAssign || m_seq.nxt - m_seq.una >= m_loss->GetInFlightCap())
    {
        return false;
    }
    const uint64_t inflightBytes = (m_seq.nxt - m_seq.una) * m_mtu;
    return inflightBytes < m_ccState.m_window;
}

Time
RdmaQueuePair::GetNextTxTime() const
{
    return m_nextTxTime;
}

bool
RdmaQueuePair::IsMidBurst() const
{
    return m_burstWireBytes != 0;
}

Ptr<Packet>
RdmaQueuePair::BuildNextPacket()
{
    Ptr<Packet> p = !m_readJobs.empty() ? BuildReadResponse() : BuildRequestPacket();
    if (p)
    {
        // Pace at the congestion-controlled rate: the next packet may start once this
        // one would have left at that rate (wire bytes, headers included).
        const uint32_t wireBytes = p->GetSize() + m_nic->GetEncapsulationBytes();
        const Time now = Simulator::Now();
        if (m_ccState.m_pacingBurstBytes == 0)
        {
            m_nextTxTime = now + DcbNetDevice::SerializationTime(wireBytes, m_ccState.m_rate);
        }
        else
        {
            // Per-burst rate limiting (Azure NSDI'23 section 7.2): back-to-back within a
            // burst, then a gap that keeps the burst's average at the rate.
            if (m_burstWireBytes == 0)
            {
                m_burstStart = now;
            }
            m_burstWireBytes += wireBytes;
            m_nextTxTime = now;
            if (m_burstWireBytes >= m_ccState.m_pacingBurstBytes)
            {
                m_nextTxTime = m_burstStart +
                               DcbNetDevice::SerializationTime(m_burstWireBytes, m_ccState.m_rate);
                m_burstWireBytes = 0;
            }
        }
    }
    return p;
}

RdmaQueuePair::SendWqe*
RdmaQueuePair::FindWqe(uint64_t psn)
{
    for (SendWqe& w : m_sq)
    {
        if (psn >= w.firstPsn && psn < w.firstPsn + w.nPackets)
        {
            return &w;
        }
    }
    return nullptr;
}

RdmaQueuePair::SendWqe*
RdmaQueuePair::FindWqeByFirstPsn(uint64_t firstPsn)
{
    // The send queue is ordered by first PSN: the echo names the WQE directly.
    auto it = std::lower_bound(m_sq.begin(), m_sq.end(), firstPsn,
                               [](const SendWqe& w, uint64_t p) { return w.firstPsn < p; });
    return it != m_sq.end() && it->firstPsn == firstPsn ? &*it : nullptr;
}

Ptr<Packet>
RdmaQueuePair::BuildRequestPacket()
{
    if (!HasTxWork())
    {
        return nullptr;
    }
    const uint64_t psn = m_loss->NextTransmitPsn(m_seq);
    const bool resend = psn < m_seq.nxt; // a selective retransmission: nxt stays
    SendWqe* w = FindWqe(psn);
    NS_ASSERT_MSG(w, "no WQE for PSN " << psn);
    const uint32_t index = static_cast<uint32_t>(psn - w->firstPsn);
    const uint64_t offset = static_cast<uint64_t>(index) * m_mtu;
    RoceBthHeader bth;
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(WirePsn(psn));
    Ptr<Packet> p;
    uint32_t payload = 0;
    if (w->wr.verb == RdmaVerb::Read)
    {
        // One request for the rest of the READ from this PSN (a go-back re-request
        // starts mid-message); a selective-repeat re-request asks for the lost
        // response alone (IRN, SIGCOMM'18; SRNIC section 4.4.1).
        p = Create<Packet>();
        const uint64_t rest = w->wr.length - std::min(offset, w->wr.length);
        const uint32_t length = static_cast<uint32_t>(
            resend && m_loss->IsSelective() ? std::min<uint64_t>(m_mtu, rest) : rest);
        RoceRethHeader reth;
        reth.SetVirtualAddress(w->wr.remoteAddr + offset);
        reth.SetRemoteKey(w->wr.rkey);
        reth.SetDmaLength(length);
        p->AddHeader(reth);
        if (m_srnicExtensions)
        {
            // Where the responses go, for the responder to echo (the model has no
            // local key: 0).
            RoceSrnicExtHeader ext;
            ext.SetKind(RoceSrnicExtHeader::Kind::Read);
            ext.SetVirtualAddress(w->wr.localAddr + offset);
            ext.SetDmaLength(length);
            ext.SetPsnOffset(index);
            p->AddHeader(ext);
        }
        bth.SetOpcode(RoceOpcode::ReadRequest);
        bth.SetAckRequest(true);
        if (!resend)
        {
            m_seq.nxt = w->firstPsn + w->nPackets;
        }
    }
    else
    {
        payload = static_cast<uint32_t>(std::min<uint64_t>(m_mtu, w->wr.length - offset));
        p = Create<Packet>(payload);
        const RoceOpcode op = SegmentOpcode(w->wr.verb, index, w->nPackets,
                                            w->wr.hasImm && w->wr.verb == RdmaVerb::Write);
        if (RoceBthHeader::HasImmDt(op))
        {
            RoceImmDtHeader immDt;
            immDt.SetImmediate(w->wr.imm);
            p->AddHeader(immDt);
        }
        if (RoceBthHeader::HasReth(op))
        {
            RoceRethHeader reth;
            reth.SetVirtualAddress(w->wr.remoteAddr);
            reth.SetRemoteKey(w->wr.rkey);
            reth.SetDmaLength(static_cast<uint32_t>(w->wr.length));
            p->AddHeader(reth);
        }
        if (m_srnicExtensions)
        {
            RoceSrnicExtHeader ext;
            ext.SetPsnOffset(index);
            if (w->wr.verb == RdmaVerb::Send)
            {
                ext.SetKind(RoceSrnicExtHeader::Kind::Send);
                ext.SetSsn(static_cast<uint32_t>(w->firstPsn)); // message id: its first PSN
            }
            else
            {
                ext.SetKind(RoceBthHeader::HasReth(op) ? RoceSrnicExtHeader::Kind::WriteReth
                                                       : RoceSrnicExtHeader::Kind::Write);
                ext.SetVirtualAddress(w->wr.remoteAddr + offset);
                ext.SetRemoteKey(w->wr.rkey);
                ext.SetDmaLength(static_cast<uint32_t>(w->wr.length));
            }
            p->AddHeader(ext);
        }
        bth.SetOpcode(op);
        if (!resend)
        {
            m_seq.nxt = psn + 1;
        }
        // Ask for an ACK at each message end and, under a window CC, on the packet
        // that exhausts the window: with AckInterval > 1 the responder would
        // otherwise wait for packets the window does not let go.
        const bool windowFull = (m_seq.nxt - m_seq.una) * m_mtu >= m_ccState.m_window;
        bth.SetAckRequest(RoceBthHeader::IsLastOrOnly(op) || windowFull);
    }
    p->AddHeader(bth);
    AfterSend(psn, payload);
    return p;
}

void
RdmaQueuePair::AfterSend(uint64_t psn, uint32_t payload)
{
    m_counters.dataPacketsSent++;
    m_counters.payloadBytesSent += payload;
    if (psn < m_seq.high)
    {
        m_counters.retransmittedPackets++;
    }
    m_seq.high = std::max(m_seq.high, m_seq.nxt);
    m_ccState.m_bytesInFlight = (m_seq.nxt - m_seq.una) * m_mtu;
    m_cc->OnDataSent(payload);
    ArmRetransmitTimer();
}

Ptr<Packet>
RdmaQueuePair::BuildReadResponse()
{
    ReadResponseJob& job = m_readJobs.front();
    const uint64_t offset = static_cast<uint64_t>(job.next) * m_mtu;
    const uint32_t payload = static_cast<uint32_t>(std::min<uint64_t>(m_mtu, job.length - offset));
    Ptr<Packet> p = Create<Packet>(payload);
    const RoceOpcode op = ResponseOpcode(job.next, job.nPackets);
    if (RoceBthHeader::HasAeth(op))
    {
        RoceAethHeader aeth;
        aeth.SetAck();
        aeth.SetMsn(m_msn);
        p->AddHeader(aeth);
    }
    if (m_srnicExtensions)
    {
        // Echo the request's metadata for this packet: the requester places it from
        // the header alone, in order or not.
        RoceSrnicExtHeader ext;
        ext.SetKind(RoceSrnicExtHeader::Kind::Read);
        ext.SetVirtualAddress(job.echoVa + offset);
        ext.SetRemoteKey(job.echoKey);
        ext.SetDmaLength(job.echoLength);
        ext.SetPsnOffset(job.echoOffset + job.next);
        p->AddHeader(ext);
    }
    RoceBthHeader bth;
    bth.SetOpcode(op);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(WirePsn(job.firstPsn + job.next));
    p->AddHeader(bth);
    m_counters.dataPacketsSent++;
    m_counters.payloadBytesSent += payload;
    const uint64_t psn = job.firstPsn + job.next;
    if (psn < m_responseHigh)
    {
        m_counters.retransmittedPackets++; // a re-executed READ resends responses
    }
    m_responseHigh = std::max(m_responseHigh, psn + 1);
    m_cc->OnDataSent(payload);
    if (++job.next == job.nPackets)
    {
        m_readJobs.pop_front();
    }
    return p;
}

// ------------------------------------------------------------------ requester

uint64_t
RdmaQueuePair::UnwrapRequesterPsn(uint32_t wire) const
{
    return Unwrap(wire, m_seq.una);
}

void
RdmaQueuePair::ArmRetransmitTimer()
{
    if (m_seq.una < m_seq.high && !m_rto.IsRunning())
    {
        m_rto.Schedule(m_loss->GetRetransmitTimeout(m_seq));
    }
}

void
RdmaQueuePair::RetransmitTimeout()
{
    if (m_seq.una >= m_seq.high)
    {
        return;
    }
    if (m_nakEvent.IsRunning())
    {
        // A NAK's rewind is already under way: no second go-back.
        ArmRetransmitTimer();
        return;
    }
    m_counters.timeouts++;
    if (++m_retries > m_loss->GetRetryLimit())
    {
        Flush(RdmaWcStatus::RetryExceeded);
        return;
    }
    m_loss->OnTimeout(m_seq);
    m_rewoundAt = UINT64_MAX;
    m_nic->NotifyTxWork(this);
}

void
RdmaQueuePair::CompleteFront(RdmaWcStatus status)
{
    const SendWqe& w = m_sq.front();
    RdmaCompletion c;
    c.qpn = m_qpn;
    c.wrId = w.wr.wrId;
    c.verb = w.wr.verb;
    c.status = status;
    c.bytes = w.wr.length;
    c.postTime = w.postTime;
    c.completionTime = Simulator::Now();
    m_sq.pop_front();
    m_nic->NotifyCompletion(c);
}

void
RdmaQueuePair::Flush(RdmaWcStatus status)
{
    m_error = true;
    m_rto.Cancel();
    m_rnrEvent.Cancel();
    m_nakEvent.Cancel();
    bool first = true;
    while (!m_sq.empty())
    {
        CompleteFront(first ? status : RdmaWcStatus::Flushed);
        first = false;
    }
    m_seq.una = m_seq.nxt = m_seq.high = m_nextPsnToAssign;
}

void
RdmaQueuePair::SetError()
{
    if (m_error)
    {
        return;
    }
    Flush(RdmaWcStatus::Flushed);
    m_readJobs.clear();
    m_rxRecvActive = false;
    while (!m_rq.empty())
    {
        const RecvWqe r = m_rq.front();
        m_rq.pop_front();
        RdmaCompletion c;
        c.qpn = m_qpn;
        c.wrId = r.rr.wrId;
        c.verb = RdmaVerb::Send;
        c.receive = true;
        c.status = RdmaWcStatus::Flushed;
        c.postTime = r.postTime;
        c.completionTime = Simulator::Now();
        m_nic->NotifyCompletion(c);
    }
}

void
RdmaQueuePair::RewindTo(uint64_t psn)
{
    // Re-request a READ gap once per missing PSN, not once per later response.
    if (m_rewoundAt == psn)
    {
        return;
    }
    m_rewoundAt = psn;
    m_seq.nxt = psn;
    m_nic->NotifyTxWork(this);
}

void
RdmaQueuePair::AcknowledgeUpTo(uint64_t psn, bool ecnEcho)
{
    // Everything up to and including psn has been executed by the responder.
    const uint64_t before = m_seq.una;
    while (!m_sq.empty())
    {
        SendWqe& w = m_sq.front();
        const uint64_t last = w.firstPsn + w.nPackets - 1;
        if (w.wr.verb == RdmaVerb::Read)
        {
            // Responses placed out of order while an earlier WQE was at the front count now.
            w.received = m_readTracker.AdvanceInOrder(w.firstPsn, w.received, w.nPackets);
            if (w.received == w.nPackets)
            {
                m_seq.una = std::max(m_seq.una, last + 1);
                CompleteFront(RdmaWcStatus::Success);
                continue;
            }
            // The READ ran at the responder but responses are missing: the ACK is an
            // implied NAK for the first missing response (IBTA 9.7.5.1.1). Selective
            // repeat instead re-requests the responses a later one shows missing, or
            // on timeout (responses may still be on their way behind this ACK).
            m_seq.una = std::max(m_seq.una, w.firstPsn + w.received);
            if (psn >= last && !m_loss->IsSelective())
            {
                RewindTo(w.firstPsn + w.received);
            }
            break;
        }
        if (last > psn)
        {
            m_seq.una = std::max(m_seq.una, psn + 1);
            break;
        }
        m_seq.una = std::max(m_seq.una, last + 1);
        CompleteFront(RdmaWcStatus::Success);
    }
    if (m_sq.empty())
    {
        m_seq.una = std::max(m_seq.una, std::min(psn + 1, m_nextPsnToAssign));
    }
    if (m_seq.nxt < m_seq.una)
    {
        m_seq.nxt = m_seq.una;
    }
    if (m_seq.una > before)
    {
        m_retries = 0;
        m_rto.Cancel();
        ArmRetransmitTimer();
        m_cc->OnAck((m_seq.una - before) * m_mtu, ecnEcho, Time(0));
        m_ccState.m_bytesInFlight = (m_seq.nxt - m_seq.una) * m_mtu;
        m_nic->NotifyTxWork(this);
    }
}

void
RdmaQueuePair::HandleAck(uint64_t psn, const RoceBthHeader& bth, Ptr<Packet> packet)
{
    if (m_srnicExtensions)
    {
        // SSN + PSN offset of the answered request packet: they name its WQE without
        // a table; completion below is the cumulative walk from the send queue's head,
        // which needs no lookup.
        RoceSrnicExtHeader echo;
        echo.SetKind(RoceSrnicExtHeader::Kind::Echo);
        packet->RemoveHeader(echo);
    }
    RoceAethHeader aeth;
    packet->RemoveHeader(aeth);
    if (bth.GetBecn())
    {
        m_counters.ecnEchoesReceived++;
    }
    if (aeth.IsAck())
    {
        AcknowledgeUpTo(psn, bth.GetBecn());
        return;
    }
    m_counters.naksReceived++;
    if (psn > 0)
    {
        AcknowledgeUpTo(psn - 1);
    }
    if (aeth.IsRnrNak())
    {
        m_seq.nxt = psn;
        m_rnrWait = true;
        m_rnrEvent.Cancel();
        m_rnrEvent = Simulator::Schedule(m_rnrTimer, &RdmaQueuePair::RnrRetry, this);
        return;
    }
    if (aeth.GetNakCode() == RoceNakCode::PsnSequenceError)
    {
        uint64_t sack = RdmaLossRecovery::NO_SACK;
        if (packet->GetSize() >= 4)
        {
            RoceSackHeader sh;
            packet->RemoveHeader(sh);
            sack = UnwrapRequesterPsn(sh.GetSackPsn());
        }
        const Time reaction = m_loss->GetNakReactionTime();
        if (reaction.IsZero())
        {
            ApplySequenceNak(psn, sack);
        }
        else if (!m_nakEvent.IsRunning())
        {
            // The responder NAKs a gap once; the transmit engine keeps sending meanwhile.
            m_nakEvent = Simulator::Schedule(reaction, &RdmaQueuePair::ApplyDelayedSequenceNak,
                                             this, psn, sack);
        }
    }
}

void
RdmaQueuePair::ApplyDelayedSequenceNak(uint64_t psn, uint64_t sack)
{
    // The resend starts now: its timer runs from here, not from a deferral during the wait.
    m_rto.Cancel();
    ApplySequenceNak(psn, sack);
    ArmRetransmitTimer();
}

void
RdmaQueuePair::ApplySequenceNak(uint64_t psn, uint64_t sack)
{
    m_loss->OnSequenceNak(m_seq, psn, sack);
    m_rewoundAt = UINT64_MAX;
    m_nic->NotifyTxWork(this);
}

void
RdmaQueuePair::RnrRetry()
{
    m_rnrWait = false;
    m_nic->NotifyTxWork(this);
}

void
RdmaQueuePair::HandleReadResponse(uint64_t psn, const RoceBthHeader& bth, Ptr<Packet> packet)
{
    SendWqe* w = nullptr;
    uint64_t placeAt = 0;
    if (m_srnicExtensions)
    {
        // SRNIC: the echoed PSN offset names the message (its first PSN) and the
        // echoed address is where this packet's data goes.
        RoceSrnicExtHeader ext;
        ext.SetKind(RoceSrnicExtHeader::Kind::Read);
        packet->RemoveHeader(ext);
        w = ext.GetPsnOffset() <= psn ? FindWqeByFirstPsn(psn - ext.GetPsnOffset()) : nullptr;
        placeAt = ext.GetVirtualAddress();
    }
    else
    {
        w = FindWqe(psn);
    }
    if (RoceBthHeader::HasAeth(bth.GetOpcode()))
    {
        RoceAethHeader aeth;
        packet->RemoveHeader(aeth);
    }
    if (!w || w->wr.verb != RdmaVerb::Read)
    {
        m_counters.duplicatesReceived++;
        return;
    }
    if (!m_srnicExtensions)
    {
        placeAt = w->wr.localAddr + (psn - w->firstPsn) * m_mtu;
    }
    const uint64_t expected = w->firstPsn + w->received;
    if (psn < expected || m_readTracker.IsReceived(psn))
    {
        m_counters.duplicatesReceived++;
        return;
    }
    // Requests before this READ were executed (the responder runs them in order).
    if (w->firstPsn > 0)
    {
        AcknowledgeUpTo(w->firstPsn - 1);
    }
    const bool inOrder = psn == expected && !m_sq.empty() && &m_sq.front() == w;
    if (!inOrder && !m_loss->IsSelective())
    {
        // Go-back-N: drop it and re-request from the first missing response (unless an
        // earlier READ is still missing responses: its re-request comes first).
        m_counters.outOfOrderDropped++;
        if (psn > expected && &m_sq.front() == w)
        {
            RewindTo(expected);
        }
        return;
    }
    m_nic->NotifyDataPlaced(m_qpn, placeAt, packet->GetSize());
    if (!inOrder)
    {
        // Selective repeat: keep it placed and treat it as a SACK, so that only the
        // missing responses before it are re-requested.
        m_counters.readResponsesOutOfOrder++;
        m_readTracker.Mark(psn);
        ApplySequenceNak(m_seq.una, psn);
        return;
    }
    w->received = m_readTracker.AdvanceInOrder(w->firstPsn, w->received + 1, w->nPackets);
    m_rewoundAt = UINT64_MAX;
    AcknowledgeUpTo(w->firstPsn + w->received - 1);
}

// ------------------------------------------------------------------ responder

void
RdmaQueuePair::Receive(Ptr<Packet> packet, bool ceMarked)
{
    RoceBthHeader bth;
    packet->RemoveHeader(bth);
    const RoceOpcode op = bth.GetOpcode();
    if (op == RoceOpcode::Cnp)
    {
        m_counters.cnpsReceived++;
        m_cc->OnCnp();
        return;
    }
    if (op == RoceOpcode::Acknowledge)
    {
        HandleAck(UnwrapRequesterPsn(bth.GetPsn()), bth, packet);
        return;
    }
    if (m_cc->OnDataReceived(ceMarked))
    {
        m_nic->RequestCnp(this); // at once, or through the NIC's firmware CNP queue
    }
    if (RoceBthHeader::IsReadResponse(op))
    {
        m_ceSinceAck = m_ceSinceAck || ceMarked;
        HandleReadResponse(UnwrapRequesterPsn(bth.GetPsn()), bth, packet);
        return;
    }
    if (m_unackedPackets > 0 && ceMarked != m_ceSinceAck && m_cc->WantsEcnEcho())
    {
        // DCTCP receiver state machine (RFC 8257 section 3.2): the CE state changed, so
        // acknowledge the packets so far with their own echo before counting this one;
        // with AckInterval > 1 every ACK's BECN then describes all the packets it covers.
        SendAck(m_epsn - 1);
    }
    m_ceSinceAck = m_ceSinceAck || ceMarked;
    HandleRequest(Unwrap(bth.GetPsn(), m_epsn), bth, packet);
}

void
RdmaQueuePair::HandleRequest(uint64_t psn, const RoceBthHeader& bth, Ptr<Packet> packet)
{
    switch (m_loss->OnRequestArrival(psn, m_epsn))
    {
        case RdmaLossRecovery::RxVerdict::Accept:
            m_nakSent = false;
            ExecuteRequest(psn, bth, packet);
            if (!m_oooRing.empty())
            {
                DrainInOrder();
            }
            return;
        case RdmaLossRecovery::RxVerdict::Buffer:
            BufferOutOfOrder(psn, bth, packet);
            return;
        case RdmaLossRecovery::RxVerdict::Duplicate:
            m_counters.duplicatesReceived++;
            if (bth.GetOpcode() == RoceOpcode::ReadRequest)
            {
                // Re-execute the READ from the requested PSN (IBTA 9.7.5.1.3). A
                // go-back requester has gone back, so responses queued after it are
                // void; a selective-repeat one asks for lost responses alone, sent
                // ahead of the queued ones.
                RoceSrnicExtHeader ext;
                ReadRequestExtension(psn, RoceOpcode::ReadRequest, packet, ext, true);
                RoceRethHeader reth;
                packet->RemoveHeader(reth);
                if (m_loss->IsSelective())
                {
                    m_readJobs.push_front(MakeReadJob(psn, reth, ext));
                }
                else
                {
                    m_readJobs.clear();
                    m_readJobs.push_back(MakeReadJob(psn, reth, ext));
                }
                m_nic->NotifyTxWork(this);
                return;
            }
            SendAck(m_epsn - 1);
            return;
        case RdmaLossRecovery::RxVerdict::OutOfOrder:
            m_counters.outOfOrderDropped++;
            if (!m_nakSent)
            {
                RoceSrnicExtHeader ext;
                ReadRequestExtension(psn, bth.GetOpcode(), packet, ext, false);
                m_nakSent = true;
                SendNak(m_epsn, static_cast<uint8_t>(RoceNakCode::PsnSequenceError), false);
            }
            return;
    }
}

void
RdmaQueuePair::BufferOutOfOrder(uint64_t psn, const RoceBthHeader& bth, Ptr<Packet> packet)
{
    if (m_oooRing.empty())
    {
        m_oooRing.resize(m_loss->GetInFlightCap());
    }
    OutOfOrderSlot& slot = m_oooRing[psn % m_oooRing.size()];
    if (slot.psnPlusOne == psn + 1)
    {
        m_counters.duplicatesReceived++;
    }
    else
    {
        // The loss recovery's window keeps psn within one ring of m_epsn, so a
        // slot never holds a packet still waiting.
        slot.psnPlusOne = psn + 1;
        slot.bth = bth;
        slot.packet = packet;
        m_counters.outOfOrderBuffered++;
    }
    RoceSrnicExtHeader ext;
    ReadRequestExtension(psn, bth.GetOpcode(), packet, ext, false); // the SACK echoes it
    SendNak(m_epsn, static_cast<uint8_t>(RoceNakCode::PsnSequenceError), false, psn);
}

void
RdmaQueuePair::DrainInOrder(uint64_t limit)
{
    // Kept packets are executed as the expected PSN reaches them: every message
    // completes, and its data is reported placed, only once all its packets arrived.
    // (SRNIC places them in the user buffer on arrival, located by the header
    // extensions; completions, which this model reports, happen at the same time.)
    while (m_epsn < limit)
    {
        OutOfOrderSlot& slot = m_oooRing[m_epsn % m_oooRing.size()];
        if (slot.psnPlusOne != m_epsn + 1)
        {
            return;
        }
        const uint64_t psn = m_epsn;
        const RoceBthHeader bth = slot.bth;
        Ptr<Packet> packet = slot.packet;
        slot.psnPlusOne = 0;
        slot.packet = nullptr;
        ExecuteRequest(psn, bth, packet);
        if (m_epsn == psn)
        {
            return; // not executed (RNR): the requester resends it
        }
    }
}

bool
RdmaQueuePair::ReadRequestExtension(uint64_t psn, RoceOpcode op, Ptr<Packet> packet,
                                    RoceSrnicExtHeader& ext, bool remove)
{
    if (!m_srnicExtensions)
    {
        return false;
    }
    ext.SetKind(op == RoceOpcode::ReadRequest ? RoceSrnicExtHeader::Kind::Read
                : RoceBthHeader::IsSend(op)   ? RoceSrnicExtHeader::Kind::Send
                : RoceBthHeader::HasReth(op)  ? RoceSrnicExtHeader::Kind::WriteReth
                                              : RoceSrnicExtHeader::Kind::Write);
    if (remove)
    {
        packet->RemoveHeader(ext);
    }
    else
    {
        packet->PeekHeader(ext);
    }
    // The SSN is the message's first PSN (what SEND packets carry): the PSN less the
    // PSN offset for WRITE and READ.
    m_answerEcho.ssn = ext.GetKind() == RoceSrnicExtHeader::Kind::Send
                           ? ext.GetSsn()
                           : WirePsn(psn - std::min<uint64_t>(psn, ext.GetPsnOffset()));
    m_answerEcho.psnOffset = ext.GetPsnOffset();
    return true;
}

RdmaQueuePair::ReadResponseJob
RdmaQueuePair::MakeReadJob(uint64_t psn, const RoceRethHeader& reth,
                           const RoceSrnicExtHeader& ext) const
{
    const uint64_t length = reth.GetDmaLength();
    const uint32_t n = static_cast<uint32_t>(std::max<uint64_t>(1, (length + m_mtu - 1) / m_mtu));
    ReadResponseJob job{psn, n, 0, length};
    if (m_srnicExtensions)
    {
        job.echoVa = ext.GetVirtualAddress();
        job.echoKey = ext.GetRemoteKey();
        job.echoLength = ext.GetDmaLength();
        job.echoOffset = ext.GetPsnOffset();
    }
    return job;
}

void
RdmaQueuePair::ExecuteRequest(uint64_t psn, const RoceBthHeader& bth, Ptr<Packet> packet)
{
    const RoceOpcode op = bth.GetOpcode();
    RoceSrnicExtHeader ext;
    ReadRequestExtension(psn, op, packet, ext, true);
    if (op == RoceOpcode::ReadRequest)
    {
        RoceRethHeader reth;
        packet->RemoveHeader(reth);
        const ReadResponseJob job = MakeReadJob(psn, reth, ext);
        m_readJobs.push_back(job);
        m_epsn = psn + job.nPackets;
        m_msn = (m_msn + 1) & RoceAethHeader::MSN_MASK;
        m_nic->NotifyTxWork(this);
        return;
    }
    const bool writeImm = RoceBthHeader::IsWrite(op) && RoceBthHeader::HasImmDt(op);
    if (writeImm && m_rq.empty())
    {
        // A WRITE with immediate consumes a receive WQE (IBTA 9.7.4.1.4): without
        // one nothing of this packet is executed and the requester retries it.
        SendNak(psn, 0, true);
        return;
    }
    if (RoceBthHeader::HasReth(op))
    {
        RoceRethHeader reth;
        packet->RemoveHeader(reth);
        m_rxRemoteBase = reth.GetVirtualAddress();
    }
    uint32_t imm = 0;
    if (RoceBthHeader::HasImmDt(op))
    {
        RoceImmDtHeader immDt;
        packet->RemoveHeader(immDt);
        imm = immDt.GetImmediate();
    }
    if (RoceBthHeader::IsFirstOrOnly(op))
    {
        m_rxMessageOffset = 0;
        if (RoceBthHeader::IsSend(op))
        {
            if (m_rq.empty())
            {
                // Receiver not ready: nothing is executed, the requester retries.
                SendNak(psn, 0, true);
                return;
            }
            m_rxRecvActive = true;
        }
    }
    const uint32_t bytes = packet->GetSize();
    if (RoceBthHeader::IsWrite(op))
    {
        m_nic->NotifyDataPlaced(m_qpn, m_rxRemoteBase + m_rxMessageOffset, bytes);
    }
    else if (m_rxRecvActive)
    {
        m_nic->NotifyDataPlaced(m_qpn, m_rxMessageOffset, bytes);
    }
    m_rxMessageOffset += bytes;
    m_epsn = psn + 1;
    if (RoceBthHeader::IsLastOrOnly(op))
    {
        m_msn = (m_msn + 1) & RoceAethHeader::MSN_MASK;
        if (RoceBthHeader::IsSend(op) && m_rxRecvActive)
        {
            const RecvWqe r = m_rq.front();
            m_rq.pop_front();
            m_rxRecvActive = false;
            RdmaCompletion c;
            c.qpn = m_qpn;
            c.wrId = r.rr.wrId;
            c.verb = RdmaVerb::Send;
            c.receive = true;
            c.status =
                m_rxMessageOffset > r.rr.length ? RdmaWcStatus::LengthError : RdmaWcStatus::Success;
            c.bytes = m_rxMessageOffset;
            c.postTime = r.postTime;
            c.completionTime = Simulator::Now();
            m_nic->NotifyCompletion(c);
        }
        else if (writeImm)
        {
            const RecvWqe r = m_rq.front();
            m_rq.pop_front();
            RdmaCompletion c;
            c.qpn = m_qpn;
            c.wrId = r.rr.wrId;
            c.verb = RdmaVerb::Write;
            c.receive = true;
            c.hasImm = true;
            c.imm = imm;
            c.bytes = m_rxMessageOffset;
            c.postTime = r.postTime;
            c.completionTime = Simulator::Now();
            m_nic->NotifyCompletion(c);
        }
        m_nic->NotifyMessageReceived(m_qpn, m_rxMessageOffset);
    }
    if (++m_unackedPackets >= m_ackInterval || bth.GetAckRequest())
    {
        SendAck(psn);
    }
}

void
RdmaQueuePair::SendAck(uint64_t psn)
{
    RoceAethHeader aeth;
    aeth.SetAck();
    // Window algorithms (DCTCP) read congestion from ACKs: echo CE in BECN.
    SendAcknowledge(psn, aeth, m_ceSinceAck && m_cc->WantsEcnEcho());
    m_unackedPackets = 0;
    m_ceSinceAck = false;
    m_counters.acksSent++;
}

void
RdmaQueuePair::SendNak(uint64_t psn, uint8_t code, bool rnr, uint64_t sackPsn)
{
    RoceAethHeader aeth;
    if (rnr)
    {
        aeth.SetRnrNak(1);
    }
    else
    {
        aeth.SetNak(static_cast<RoceNakCode>(code));
    }
    if (sackPsn != RdmaLossRecovery::NO_SACK)
    {
        RoceSackHeader sack;
        sack.SetSackPsn(WirePsn(sackPsn));
        SendAcknowledge(psn, aeth, false, &sack);
    }
    else
    {
        SendAcknowledge(psn, aeth, false);
    }
    m_counters.naksSent++;
}

void
RdmaQueuePair::SendAcknowledge(uint64_t psn, RoceAethHeader& aeth, bool becn,
                               const RoceSackHeader* sack)
{
    aeth.SetMsn(m_msn);
    Ptr<Packet> p = Create<Packet>();
    if (sack)
    {
        p->AddHeader(*sack);
    }
    p->AddHeader(aeth);
    if (m_srnicExtensions)
    {
        RoceSrnicExtHeader echo;
        echo.SetKind(RoceSrnicExtHeader::Kind::Echo);
        echo.SetSsn(m_answerEcho.ssn);
        echo.SetPsnOffset(m_answerEcho.psnOffset);
        p->AddHeader(echo);
    }
    RoceBthHeader bth;
    bth.SetOpcode(RoceOpcode::Acknowledge);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(WirePsn(psn));
    bth.SetBecn(becn);
    p->AddHeader(bth);
    m_nic->SendControl(this, p, false);
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
    m_nic->SendControl(this, p, true);
}

} // namespace ns3
