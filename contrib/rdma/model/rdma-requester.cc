#include "rdma-requester.h"

#include "roce-aeth-header.h"
#include "roce-imm-dt-header.h"
#include "roce-reth-header.h"
#include "roce-sack-header.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

void
RdmaRequester::Setup(const Config& config)
{
    m_owner = config.owner;
    m_qp = config.qp;
    m_qpn = config.qpn;
    m_mtu = config.mtu;
    m_ext.SetEnabled(config.srnicExtensions);
    m_cc = config.cc;
    m_loss = config.loss;
    m_counters = config.counters;
    m_inFlightCap = config.inFlightCap;
    m_inFlightCapFollowsRate = config.inFlightCapFollowsRate;
    RdmaRecoveryTimers::Hooks hooks;
    hooks.timeout = MakeCallback(&RdmaRequester::RetransmitTimeout, this);
    hooks.rnrWaitOver = MakeCallback(&RdmaRequester::NotifyTxWork, this);
    hooks.sequenceNak = MakeCallback(&RdmaRequester::ApplySequenceNak, this);
    hooks.heldUntil = MakeCallback(&RdmaRequester::HeldUntil, this);
    m_timers.Setup(&m_seq, m_loss, config.rnrTimer, hooks);
    m_ccState.m_lineRate = config.lineRate;
    m_ccState.m_rate = m_ccState.m_lineRate;
    m_ccState.m_targetRate = m_ccState.m_lineRate;
    m_ccState.m_mtu = m_mtu;
    m_cc->Init(&m_ccState);
    m_intHops = m_cc->GetIntHops();
    m_readTracker.SetCapacity(m_loss->GetInFlightCap());
    m_rttSamples = m_cc->WantsRttSamples();
    m_txTimes.SetMaxSlots(m_loss->GetInFlightCap());
}

void
RdmaRequester::SetRemoteQpn(uint32_t remoteQpn)
{
    m_remoteQpn = remoteQpn;
}

void
RdmaRequester::Dispose()
{
    m_timers.Dispose();
    m_txTimes.Clear();
    m_cc = nullptr;
    m_loss = nullptr;
    m_owner = nullptr;
    m_qp = nullptr;
}

bool
RdmaRequester::IsInError() const
{
    return m_error;
}

bool
RdmaRequester::IsRetransmitTimerPending() const
{
    return m_timers.IsRetransmitPending();
}

bool
RdmaRequester::IsStalled() const
{
    return !m_error && !m_sq.IsEmpty() && !HasTxWork() && !m_timers.IsRetransmitPending() &&
           !m_timers.IsRnrWait() && !m_timers.IsNakPending();
}

uint32_t
RdmaRequester::GetUnsentWorkRequests() const
{
    return m_sq.CountFrom(m_seq.nxt);
}

uint32_t
RdmaRequester::GetOutstandingWorkRequests() const
{
    return m_sq.GetSize();
}

const RdmaCcState&
RdmaRequester::GetCcState() const
{
    return m_ccState;
}

const RdmaTxSequence&
RdmaRequester::GetSequence() const
{
    return m_seq;
}

void
RdmaRequester::NotifyTxWork()
{
    m_owner->NotifyTxWork(m_qp);
}

void
RdmaRequester::PostSend(const RdmaWorkRequest& wr)
{
    if (m_error)
    {
        m_owner->NotifyCompletion(
            RdmaCompletion::Flushed(m_qpn, wr.wrId, wr.verb, false, Simulator::Now()));
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
    m_sq.Post(wr, static_cast<uint32_t>(segments), Simulator::Now());
    NotifyTxWork();
}

// ------------------------------------------------------------------ transmit

bool
RdmaRequester::HasTxWork() const
{
    if (m_error || m_timers.IsRnrWait())
    {
        return false;
    }
    if (m_loss->HasRetransmission(m_seq))
    {
        return true; // lost packets go first, within the window they already count in
    }
    if (m_seq.nxt >= m_sq.GetNextPsn() || m_seq.nxt - m_seq.una >= m_loss->GetInFlightCap())
    {
        return false;
    }
    return InFlightBytes() < Window();
}

Time
RdmaRequester::GetNextTxTime() const
{
    return m_pacer.GetNextTxTime();
}

bool
RdmaRequester::IsMidBurst() const
{
    return m_pacer.IsMidBurst();
}

void
RdmaRequester::OnPacketSent(const RdmaWireSize& wire)
{
    m_pacer.OnPacketSent(wire, m_ccState);
}

void
RdmaRequester::AddReadRequest(Ptr<Packet> packet, const RdmaSendWqe& w, uint64_t offset,
                              uint32_t index, uint64_t responses) const
{
    // A request for \p responses packets of the READ from this PSN: the rest of it (a
    // go-back re-request starts mid-message), a BDP-FC share of it, or a lost response
    // alone (selective repeat: IRN, SIGCOMM'18; SRNIC section 4.4.1).
    const uint64_t rest = w.wr.length - std::min(offset, w.wr.length);
    const uint32_t length = static_cast<uint32_t>(std::min<uint64_t>(responses * m_mtu, rest));
    packet->AddHeader(RoceRethHeader(w.wr.remoteAddr + offset, w.wr.rkey, length));
    m_ext.AddToReadRequest(packet, w.wr.localAddr + offset, length, index);
}

Ptr<Packet>
RdmaRequester::BuildRequestPacket()
{
    if (!HasTxWork())
    {
        return nullptr;
    }
    const uint64_t psn = m_loss->NextTransmitPsn(m_seq);
    const bool resend = psn < m_seq.nxt; // a selective retransmission: nxt stays
    RdmaSendWqe* w = m_sq.Find(psn);
    NS_ASSERT_MSG(w, "no WQE for PSN " << psn);
    const uint32_t index = static_cast<uint32_t>(psn - w->firstPsn);
    const uint64_t offset = static_cast<uint64_t>(index) * m_mtu;
    const bool read = w->wr.verb == RdmaVerb::Read;
    if (!resend)
    {
        // A READ request takes the PSNs of the responses it asks for: all the rest of the
        // READ under go-back-N (IBTA 9.7.5.1.3). A selective repeat's BDP-FC caps the
        // packets in flight, READ responses included (IRN, SIGCOMM'18, BDP-FC: the cap is
        // what its bitmaps and the responder's window are sized for), so a READ longer
        // than the cap goes out as several requests, each for what the cap lets in flight:
        // otherwise a timeout re-requests every response of a long READ at once.
        const uint64_t end = w->firstPsn + w->nPackets;
        m_seq.nxt = !read                   ? psn + 1
                    : m_loss->IsSelective() ? std::min(end, m_seq.una + m_loss->GetInFlightCap())
                                            : end;
    }
    RoceBthHeader bth;
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(RoceBthHeader::WirePsn(psn));
    Ptr<Packet> p;
    uint32_t payload = 0;
    if (read)
    {
        p = Create<Packet>();
        AddReadRequest(p, *w, offset, index, resend ? 1 : m_seq.nxt - psn);
        bth.SetOpcode(RoceOpcode::ReadRequest);
        bth.SetAckRequest(true);
    }
    else
    {
        payload = static_cast<uint32_t>(std::min<uint64_t>(m_mtu, w->wr.length - offset));
        p = Create<Packet>(payload);
        const RoceOpcode op = w->SegmentOpcode(index);
        if (RoceBthHeader::HasImmDt(op))
        {
            RoceImmDtHeader immDt;
            immDt.SetImmediate(w->wr.imm);
            p->AddHeader(immDt);
        }
        if (RoceBthHeader::HasReth(op))
        {
            const auto length = static_cast<uint32_t>(w->wr.length);
            p->AddHeader(RoceRethHeader(w->wr.remoteAddr, w->wr.rkey, length));
        }
        m_ext.AddToRequest(p, op, w->wr, w->firstPsn, offset, index);
        if (m_intHops != 0)
        {
            p->AddTrailer(IntTrailer(m_intHops)); // HPCC: switches fill it at egress
            bth.SetIntHops(m_intHops);
        }
        bth.SetOpcode(op);
        // Ask for an ACK at each message end and, under a window CC, on the packet that
        // exhausts the window: with AckInterval > 1 the responder would otherwise wait
        // for packets the window does not let go.
        const bool windowFull = InFlightBytes() >= Window();
        bth.SetAckRequest(RoceBthHeader::IsLastOrOnly(op) || windowFull);
    }
    p->AddHeader(bth);
    AfterSend(psn, payload);
    return p;
}

void
RdmaRequester::AfterSend(uint64_t psn, uint32_t payload)
{
    m_counters->dataPacketsSent++;
    m_counters->payloadBytesSent += payload;
    if (psn < m_seq.high)
    {
        m_counters->retransmittedPackets++;
        m_rttSampleFrom = m_seq.high;
    }
    m_seq.high = std::max(m_seq.high, m_seq.nxt);
    if (m_rttSamples)
    {
        // The packet is built when the port pulls it: this is its transmit timestamp.
        m_txTimes.Record(psn, m_seq.una, Simulator::Now());
    }
    m_ccState.m_bytesInFlight = InFlightBytes();
    m_cc->OnDataSent(payload);
    m_timers.Arm();
}

// ------------------------------------------------------------------ timers and errors

uint64_t
RdmaRequester::InFlightBytes() const
{
    return (m_seq.nxt - m_seq.una) * m_mtu;
}

uint64_t
RdmaRequester::Window() const
{
    if (m_inFlightCap == 0)
    {
        return m_ccState.m_window;
    }
    uint64_t cap = m_inFlightCap;
    if (m_inFlightCapFollowsRate)
    {
        const double share = static_cast<double>(m_ccState.m_rate.GetBitRate()) /
                             static_cast<double>(m_ccState.m_lineRate.GetBitRate());
        cap = std::max<uint64_t>(1, static_cast<uint64_t>(static_cast<double>(cap) * share));
    }
    return std::min(cap, m_ccState.m_window);
}

Time
RdmaRequester::HeldUntil() const
{
    return HasTxWork() ? m_pacer.GetNextTxTime() : Time(0);
}

void
RdmaRequester::RetransmitTimeout(bool retryExceeded)
{
    m_counters->timeouts++;
    if (retryExceeded)
    {
        Flush(RdmaWcStatus::RetryExceeded);
        return;
    }
    m_cc->OnRetransmit(true);
    m_loss->OnTimeout(m_seq);
    m_rewoundAt = UINT64_MAX;
    NotifyTxWork();
}

void
RdmaRequester::CompleteFront(RdmaWcStatus status)
{
    m_owner->NotifyCompletion(m_sq.PopFront(m_qpn, status));
}

void
RdmaRequester::Flush(RdmaWcStatus status)
{
    m_error = true;
    m_timers.Cancel();
    bool first = true;
    while (!m_sq.IsEmpty())
    {
        CompleteFront(first ? status : RdmaWcStatus::Flushed);
        first = false;
    }
    m_seq.una = m_seq.nxt = m_seq.high = m_sq.GetNextPsn();
}

// ------------------------------------------------------------------ acknowledgements

void
RdmaRequester::RewindTo(uint64_t psn)
{
    // Re-request a READ gap once per missing PSN, not once per later response.
    if (m_rewoundAt == psn)
    {
        return;
    }
    m_rewoundAt = psn;
    m_seq.nxt = psn;
    NotifyTxWork();
}

void
RdmaRequester::AcknowledgeUpTo(uint64_t psn, RdmaAckSample ack)
{
    // Everything up to and including psn has been executed by the responder.
    const uint64_t before = m_seq.una;
    while (!m_sq.IsEmpty())
    {
        RdmaSendWqe& w = m_sq.Front();
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
    if (m_sq.IsEmpty())
    {
        m_seq.una = std::max(m_seq.una, std::min(psn + 1, m_sq.GetNextPsn()));
    }
    if (m_seq.nxt < m_seq.una)
    {
        m_seq.nxt = m_seq.una;
    }
    if (m_seq.una > before)
    {
        m_timers.OnProgress();
        ack.ackedBytes = (m_seq.una - before) * m_mtu;
        m_cc->OnAck(ack);
        m_ccState.m_bytesInFlight = InFlightBytes();
        NotifyTxWork();
    }
}

void
RdmaRequester::ReceiveAcknowledge(const RoceBthHeader& bth, Ptr<Packet> packet, uint8_t hops)
{
    const uint64_t psn = RoceBthHeader::UnwrapPsn(bth.GetPsn(), m_seq.una);
    IntTrailer intEcho;
    if (bth.GetIntEcho() && bth.GetIntHops() != 0)
    {
        packet->RemoveTrailer(intEcho);
    }
    m_ext.RemoveAckEcho(packet);
    RoceAethHeader aeth;
    packet->RemoveHeader(aeth);
    if (intEcho.GetCapacity() != 0 && aeth.IsAck())
    {
        m_cc->OnIntAck(intEcho, psn, m_seq.nxt);
    }
    if (bth.GetBecn())
    {
        m_counters->ecnEchoesReceived++;
        if (m_cc->WantsCnpInAckBecn())
        {
            // CnpDelivery AckBecn: the notification point flagged this ACK/NAK instead
            // of sending a CNP packet; react exactly as to one.
            ReceiveCnp(true);
        }
    }
    if (aeth.IsAck())
    {
        // RTT of the newest PSN the ACK covers, from its transmit timestamp to now (ACKs
        // reach the requester as they arrive at the NIC). A NAK is sent when a later PSN
        // arrives out of order, so it carries no sample.
        RdmaAckSample ack;
        ack.ecnEcho = bth.GetBecn();
        ack.hops = hops;
        Time sent;
        // Karn's rule (Karn and Partridge, SIGCOMM'87; RFC 6298 3): no sample from a
        // PSN sent before a retransmission. A resent packet is acknowledged up to the
        // responder's expected PSN, whose own send time then says nothing of this RTT.
        if (m_rttSamples && psn >= m_rttSampleFrom && m_txTimes.Lookup(psn, sent))
        {
            ack.rtt = Simulator::Now() - sent;
        }
        AcknowledgeUpTo(psn, ack);
        return;
    }
    m_counters->naksReceived++;
    if (psn > 0)
    {
        AcknowledgeUpTo(psn - 1);
    }
    if (aeth.IsRnrNak())
    {
        m_seq.nxt = psn;
        m_timers.StartRnrWait();
        return;
    }
    if (aeth.GetNakCode() == RoceNakCode::PsnSequenceError)
    {
        uint64_t sack = RdmaLossRecovery::NO_SACK;
        if (packet->GetSize() >= 4)
        {
            RoceSackHeader sh;
            packet->RemoveHeader(sh);
            sack = RoceBthHeader::UnwrapPsn(sh.GetSackPsn(), m_seq.una);
        }
        m_timers.OnSequenceNak(psn, sack);
    }
}

void
RdmaRequester::ApplySequenceNak(uint64_t psn, uint64_t sack)
{
    m_cc->OnRetransmit(false);
    m_loss->OnSequenceNak(m_seq, psn, sack);
    m_rewoundAt = UINT64_MAX;
    NotifyTxWork();
}

void
RdmaRequester::ReceiveCnp(bool inAck)
{
    m_counters->cnpsReceived++;
    m_counters->cnpsReceivedInAck += inAck ? 1 : 0;
    m_cc->OnCnp();
}

void
RdmaRequester::ReceiveReadResponse(const RoceBthHeader& bth, Ptr<Packet> packet)
{
    const uint64_t psn = RoceBthHeader::UnwrapPsn(bth.GetPsn(), m_seq.una);
    RdmaSendWqe* w = nullptr;
    uint64_t placeAt = 0;
    uint32_t psnOffset = 0;
    const bool echoed = m_ext.RemoveFromReadResponse(packet, psnOffset, placeAt);
    if (echoed)
    {
        w = psnOffset <= psn ? m_sq.FindByFirstPsn(psn - psnOffset) : nullptr;
    }
    else
    {
        w = m_sq.Find(psn);
    }
    if (RoceBthHeader::HasAeth(bth.GetOpcode()))
    {
        RoceAethHeader aeth;
        packet->RemoveHeader(aeth);
    }
    if (!w || w->wr.verb != RdmaVerb::Read)
    {
        m_counters->duplicatesReceived++;
        return;
    }
    if (!echoed)
    {
        placeAt = w->wr.localAddr + (psn - w->firstPsn) * m_mtu;
    }
    const uint64_t expected = w->firstPsn + w->received;
    if (psn < expected || m_readTracker.IsReceived(psn))
    {
        m_counters->duplicatesReceived++;
        return;
    }
    // Requests before this READ were executed (the responder runs them in order).
    if (w->firstPsn > 0)
    {
        AcknowledgeUpTo(w->firstPsn - 1);
    }
    const bool inOrder = psn == expected && !m_sq.IsEmpty() && &m_sq.Front() == w;
    if (!inOrder && !m_loss->IsSelective())
    {
        // Go-back-N: drop it and re-request from the first missing response (unless an
        // earlier READ is still missing responses: its re-request comes first).
        m_counters->outOfOrderDropped++;
        if (psn > expected && &m_sq.Front() == w)
        {
            RewindTo(expected);
        }
        return;
    }
    m_owner->NotifyDataPlaced(m_qpn, placeAt, packet->GetSize());
    if (!inOrder)
    {
        // Selective repeat: keep it placed and treat it as a SACK, so that only the
        // missing responses before it are re-requested.
        m_counters->readResponsesOutOfOrder++;
        m_readTracker.Mark(psn);
        ApplySequenceNak(m_seq.una, psn);
        return;
    }
    w->received = m_readTracker.AdvanceInOrder(w->firstPsn, w->received + 1, w->nPackets);
    m_rewoundAt = UINT64_MAX;
    AcknowledgeUpTo(w->firstPsn + w->received - 1);
}

} // namespace ns3
