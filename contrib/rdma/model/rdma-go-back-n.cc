#include "rdma-go-back-n.h"

#include "ns3/uinteger.h"

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
                          MakeUintegerChecker<uint32_t>(0, 31));
    return tid;
}

RdmaGoBackN::RdmaGoBackN() = default;

Ptr<RdmaLossRecovery>
RdmaGoBackN::Fork() const
{
    return CopyObject<RdmaGoBackN>(this);
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
    if (psn < seq.una || psn > seq.high)
    {
        return; // stale NAK
    }
    seq.una = psn;
    seq.nxt = psn;
}

void
RdmaGoBackN::DoTimeout(RdmaTxSequence& seq)
{
    seq.nxt = seq.una;
}

Time
RdmaGoBackN::DoGetRetransmitTimeout(const RdmaTxSequence& seq) const
{
    const uint32_t n = m_ackTimeoutExponent == 0 ? 1 : m_ackTimeoutExponent;
    return NanoSeconds(4096) * static_cast<int64_t>(uint64_t(1) << n);
}

} // namespace ns3
