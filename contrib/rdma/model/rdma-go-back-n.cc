#include "rdma-go-back-n.h"

#include "ns3/boolean.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaGoBackN);

TypeId
RdmaGoBackN::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaGoBackN")
            .SetParent<RdmaLossRecovery>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaGoBackN>()
            .AddAttribute("AckTimeoutExponent",
                          "Local ACK timeout exponent n: timeout = 4.096 us x 2^n (IBTA "
                          "C9-141, ConnectX). Default 14 (67.1 ms), perftest's default "
                          "timeout; 0 is mapped to 1 (the spec's 0 means infinite).",
                          UintegerValue(14),
                          MakeUintegerAccessor(&RdmaGoBackN::m_ackTimeoutExponent),
                          MakeUintegerChecker<uint32_t>(0, 31))
            .AddAttribute("AdaptiveRetransmission",
                          "Use ConnectX's adaptive retransmission timeout (NVIDIA, "
                          "\"Adaptive Retransmission: Parameters Control\", ROCE_ACCL "
                          "roce_adp_retrans_en) instead of the fixed IBTA one: start at "
                          "AdaptiveInitialTimeout, double on each timeout without progress, "
                          "capped by the IBTA timeout; back to the start on progress. Default "
                          "false (IBTA); the Cx5/Cx6 profiles turn it on.",
                          BooleanValue(false), MakeBooleanAccessor(&RdmaGoBackN::m_adaptive),
                          MakeBooleanChecker())
            .AddAttribute("AdaptiveInitialTimeout",
                          "First adaptive timeout. Default 4 us: the firmware's minimum time "
                          "base (NVIDIA ADP documentation); the default profile's values are "
                          "unpublished, so this is the most aggressive documented setting.",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&RdmaGoBackN::m_adaptiveInitial),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute(
                "NakReactionTime",
                "Time from a PSN-sequence-error NAK's arrival until the requester resends "
                "from the NAK'd PSN; until then the transmit engine keeps sending what it "
                "had scheduled (NAK handling, re-fetch of the WQE and payload, transmit "
                "pipeline drain). Default 0 (ideal hardware). The Cx5/Cx6 profiles use a "
                "calibrated 24 us: SRNIC Fig. 11's CX-6 keeps its MAC at ~97 Gb/s while "
                "goodput is 25 Gb/s at 1 % loss, i.e. ~285 packets resent per loss "
                "(rdma.md); the value is not published.",
                TimeValue(Time(0)), MakeTimeAccessor(&RdmaGoBackN::m_nakReaction),
                MakeTimeChecker(Time(0)));
    return tid;
}

RdmaGoBackN::RdmaGoBackN() = default;

Ptr<RdmaLossRecovery>
RdmaGoBackN::Fork() const
{
    Ptr<RdmaGoBackN> copy = CopyObject<RdmaGoBackN>(this);
    copy->m_backoff = 0;
    copy->m_unaAtTimeout = 0;
    return copy;
}

RdmaLossRecovery::RxVerdict
RdmaGoBackN::DoClassify(uint64_t psn, uint64_t expected) const
{
    if (psn == expected)
    {
        return RxVerdict::Accept;
    }
    return psn < expected ? RxVerdict::Duplicate : RxVerdict::OutOfOrder;
}

void
RdmaGoBackN::DoSequenceNak(RdmaTxSequence& seq, uint64_t psn, uint64_t sackPsn)
{
    // A NAK at psn acknowledges everything before it; go back and resend from psn.
    if (psn > seq.high)
    {
        return; // names a PSN never sent
    }
    if (psn < seq.una)
    {
        // The NAK'd gap was filled after the NAK left (its packet was overtaken, not
        // lost: per-packet path entropy, or ACKs overtaking the NAK) and ACKs moved una
        // past it, before the rewind (NakReactionTime holds it). The responder dropped
        // whatever arrived between the NAK and the gap's packet, and NAKs a gap once: go
        // back to the oldest unacknowledged PSN, or those packets would wait for the
        // retransmission timeout (67 ms at the IBTA default) with nothing else sent.
        seq.nxt = std::min(seq.nxt, seq.una);
        return;
    }
    seq.una = psn;
    seq.nxt = psn;
}

void
RdmaGoBackN::DoTimeout(RdmaTxSequence& seq)
{
    m_backoff = (m_backoff > 0 && seq.una == m_unaAtTimeout) ? m_backoff + 1 : 1;
    m_unaAtTimeout = seq.una;
    seq.nxt = seq.una;
}

Time
RdmaGoBackN::IbtaTimeout() const
{
    const uint32_t n = m_ackTimeoutExponent == 0 ? 1 : m_ackTimeoutExponent;
    return NanoSeconds(4096) * static_cast<int64_t>(uint64_t(1) << n);
}

Time
RdmaGoBackN::DoGetRetransmitTimeout(const RdmaTxSequence& seq) const
{
    if (!m_adaptive)
    {
        return IbtaTimeout();
    }
    // Doubling only while the same PSN keeps timing out; progress starts over.
    const uint32_t k = seq.una == m_unaAtTimeout ? std::min<uint32_t>(m_backoff, 30) : 0;
    return std::min(IbtaTimeout(), m_adaptiveInitial * static_cast<int64_t>(uint64_t(1) << k));
}

Time
RdmaGoBackN::DoGetNakReactionTime() const
{
    return m_nakReaction;
}

} // namespace ns3
