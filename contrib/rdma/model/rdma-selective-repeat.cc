#include "rdma-selective-repeat.h"

#include "ns3/boolean.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaSelectiveRepeat);

TypeId
RdmaSelectiveRepeat::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaSelectiveRepeat")
            .SetParent<RdmaLossRecovery>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaSelectiveRepeat>()
            .AddAttribute("BdpCap",
                          "Most packets in flight (IRN BDP-FC) and the responder's reordering "
                          "window, in packets. Default 100: the 104000 B BDP of a 100 Gb/s "
                          "leaf-spine (8.32 us RTT, ConWeave's IRN setting) over 1 KB MTU, "
                          "rounded down; IRN defines it as BDP / MTU.",
                          UintegerValue(100), MakeUintegerAccessor(&RdmaSelectiveRepeat::m_bdpCap),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("RtoLow",
                          "Retransmission timeout when at most RtoLowThreshold packets are "
                          "outstanding. Default 100 us (IRN, SIGCOMM'18; ConWeave's IrnRtoLow).",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&RdmaSelectiveRepeat::m_rtoLow),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RtoHigh",
                          "Retransmission timeout otherwise. Default 320 us (IRN, SIGCOMM'18; "
                          "ConWeave's IrnRtoHigh).",
                          TimeValue(MicroSeconds(320)),
                          MakeTimeAccessor(&RdmaSelectiveRepeat::m_rtoHigh),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RtoLowThreshold",
                          "Outstanding packets up to which RtoLow applies. Default 3 (IRN's "
                          "N = 3; TLT/ConWeave GetRto: in flight > 3 MTU uses RtoHigh).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&RdmaSelectiveRepeat::m_rtoLowThreshold),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "ReorderThreshold",
                "How far, in packets, a SACKed PSN must lie above a missing one before the "
                "requester takes the missing one for lost (and a retransmission sent before "
                "the SACKed packet's first transmission for lost again): RFC 6675's DupThresh "
                "in SACK terms. Default 1: IRN's rule (SIGCOMM'18), any SACK above a hole "
                "resends it at once, right for a network that keeps a QP's packets in order; "
                "where switches spray packets over paths (load balancing per packet), a "
                "threshold above the paths' reordering (TCP's 3 for mild reordering, more "
                "for spraying) keeps reordered packets from being resent, the tail being left "
                "to the timeout.",
                UintegerValue(1), MakeUintegerAccessor(&RdmaSelectiveRepeat::m_reorderThreshold),
                MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute(
                "LostRetransmissionDetection",
                "Queue a retransmission again as soon as a SACK names a packet first sent "
                "after it (SACK-based lost-retransmission detection, as TCP's "
                "draft-scheffenegger-tcpm-lrd; SRNIC's software retransmission module decides "
                "from the same SACK bitmaps, NSDI'23 4.4.2). Default true; false leaves a lost "
                "retransmission to the timeout.",
                BooleanValue(true),
                MakeBooleanAccessor(&RdmaSelectiveRepeat::m_detectLostRetransmissions),
                MakeBooleanChecker());
    return tid;
}

RdmaSelectiveRepeat::RdmaSelectiveRepeat() = default;

Ptr<RdmaLossRecovery>
RdmaSelectiveRepeat::Fork() const
{
    Ptr<RdmaSelectiveRepeat> copy = CopyObject<RdmaSelectiveRepeat>(this);
    copy->ResetState();
    return copy;
}

void
RdmaSelectiveRepeat::ResetState()
{
    // Allocated at the first SACK (MarkSacked): most QPs of a large run never need it.
    m_sacked.clear();
    m_sacked.shrink_to_fit();
    m_retransmit.clear();
    m_examinedUpTo = 0;
    m_resent.clear();
    m_lostRetransmissions = 0;
}

uint32_t
RdmaSelectiveRepeat::GetBdpCap() const
{
    return m_bdpCap;
}

Time
RdmaSelectiveRepeat::GetLostResendStall() const
{
    return m_detectLostRetransmissions ? Time(0) : m_rtoHigh;
}

uint64_t
RdmaSelectiveRepeat::GetLostRetransmissionsDetected() const
{
    return m_lostRetransmissions;
}

bool
RdmaSelectiveRepeat::IsSacked(uint64_t psn) const
{
    return !m_sacked.empty() && m_sacked[psn % m_sacked.size()] == psn + 1;
}

RdmaLossRecovery::RxVerdict
RdmaSelectiveRepeat::DoClassify(uint64_t psn, uint64_t expected) const
{
    if (psn == expected)
    {
        return RxVerdict::Accept;
    }
    if (psn < expected)
    {
        return RxVerdict::Duplicate;
    }
    return psn - expected < m_bdpCap ? RxVerdict::Buffer : RxVerdict::OutOfOrder;
}

void
RdmaSelectiveRepeat::MarkSacked(uint64_t psn)
{
    if (m_sacked.empty())
    {
        m_sacked.assign(m_bdpCap, 0);
    }
    m_sacked[psn % m_sacked.size()] = psn + 1;
}

void
RdmaSelectiveRepeat::QueueLost(uint64_t from, uint64_t to)
{
    for (uint64_t p = from; p < to; ++p)
    {
        if (!IsSacked(p))
        {
            m_retransmit.push_back(p);
        }
    }
}

void
RdmaSelectiveRepeat::DoSequenceNak(RdmaTxSequence& seq, uint64_t psn, uint64_t sackPsn)
{
    DecideOnNak(seq, psn, sackPsn);
}

void
RdmaSelectiveRepeat::DecideOnNak(const RdmaTxSequence& seq, uint64_t psn, uint64_t sackPsn)
{
    if (sackPsn == NO_SACK || sackPsn < seq.una || sackPsn >= seq.high)
    {
        return; // stale, or from a responder without SACKs
    }
    MarkSacked(sackPsn);
    // Everything the responder has not reported at least ReorderThreshold below the SACKed
    // PSN is lost; PSNs examined by an earlier NAK are not queued twice.
    const uint64_t from = std::max(seq.una, m_examinedUpTo);
    if (sackPsn + 1 >= from + m_reorderThreshold)
    {
        const uint64_t to = sackPsn + 1 - m_reorderThreshold;
        QueueLost(from, to);
        m_examinedUpTo = m_reorderThreshold == 1 ? sackPsn + 1 : to;
    }
    if (!m_detectLostRetransmissions)
    {
        return;
    }
    // A retransmission sent before the SACKed packet's first transmission should have
    // arrived before it: unless acknowledged or SACKed, it was lost again.
    while (!m_resent.empty() && m_resent.front().stamp + m_reorderThreshold - 1 <= sackPsn)
    {
        const uint64_t lost = m_resent.front().psn;
        m_resent.pop_front();
        if (lost >= seq.una && !IsSacked(lost))
        {
            m_retransmit.push_back(lost);
            m_lostRetransmissions++;
        }
    }
}

void
RdmaSelectiveRepeat::DoTimeout(RdmaTxSequence& seq)
{
    DecideOnTimeout(seq);
}

void
RdmaSelectiveRepeat::DecideOnTimeout(const RdmaTxSequence& seq)
{
    m_retransmit.clear();
    m_resent.clear();
    QueueLost(seq.una, seq.high);
    m_examinedUpTo = seq.high;
    if (m_retransmit.empty() && seq.una < seq.high)
    {
        // Every outstanding PSN is SACKed: the responder holds or executed them, and the
        // ACKs that would have covered them were lost. Resend the oldest as a probe (its
        // SACK mark forgotten, as RFC 2018 has a sender forget SACKs at a timeout): the
        // responder acknowledges a duplicate again, or SACKs it afresh. Without it nothing
        // would be sent, so nothing re-armed the timer and the QP waited forever.
        if (!m_sacked.empty())
        {
            m_sacked[seq.una % m_sacked.size()] = 0;
        }
        m_retransmit.push_back(seq.una);
    }
}

void
RdmaSelectiveRepeat::TakeRetransmissions(std::deque<uint64_t>& out)
{
    out.insert(out.end(), m_retransmit.begin(), m_retransmit.end());
    m_retransmit.clear();
}

void
RdmaSelectiveRepeat::RecordResend(uint64_t psn, const RdmaTxSequence& seq)
{
    if (m_detectLostRetransmissions)
    {
        while (!m_resent.empty() && m_resent.front().psn < seq.una)
        {
            m_resent.pop_front(); // acknowledged meanwhile
        }
        m_resent.push_back(Resend{psn, seq.high});
    }
}

Time
RdmaSelectiveRepeat::DoGetRetransmitTimeout(const RdmaTxSequence& seq) const
{
    return seq.high - seq.una <= m_rtoLowThreshold ? m_rtoLow : m_rtoHigh;
}

void
RdmaSelectiveRepeat::DropStale(const RdmaTxSequence& seq) const
{
    while (!m_retransmit.empty() &&
           (m_retransmit.front() < seq.una || IsSacked(m_retransmit.front())))
    {
        m_retransmit.pop_front();
    }
}

bool
RdmaSelectiveRepeat::DoHasRetransmission(const RdmaTxSequence& seq) const
{
    DropStale(seq);
    return !m_retransmit.empty();
}

uint64_t
RdmaSelectiveRepeat::DoNextTransmitPsn(const RdmaTxSequence& seq)
{
    DropStale(seq);
    if (m_retransmit.empty())
    {
        return seq.nxt;
    }
    const uint64_t psn = m_retransmit.front();
    m_retransmit.pop_front();
    RecordResend(psn, seq);
    return psn;
}

uint64_t
RdmaSelectiveRepeat::DoGetInFlightCap() const
{
    return m_bdpCap;
}

bool
RdmaSelectiveRepeat::DoIsSelective() const
{
    return true;
}

} // namespace ns3
