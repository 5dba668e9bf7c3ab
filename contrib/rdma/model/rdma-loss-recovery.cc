#include "rdma-loss-recovery.h"

#include "ns3/host-model.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaLossRecovery);

TypeId
RdmaLossRecovery::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaLossRecovery")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddAttribute("RetryCount",
                          "Retransmission timeouts in a row before the QP fails with "
                          "RetryExceeded. Default 7, the IBTA maximum of the 3-bit retry_cnt "
                          "that perftest and rdma_cm use.",
                          UintegerValue(7), MakeUintegerAccessor(&RdmaLossRecovery::m_retryLimit),
                          MakeUintegerChecker<uint32_t>(0, 7));
    return tid;
}

RdmaLossRecovery::~RdmaLossRecovery() = default;

RdmaLossRecovery::RxVerdict
RdmaLossRecovery::Classify(uint64_t psn, uint64_t expected) const
{
    return DoClassify(psn, expected);
}

RdmaLossRecovery::RxVerdict
RdmaLossRecovery::OnRequestArrival(uint64_t psn, uint64_t expected)
{
    return DoRequestArrival(psn, expected);
}

RdmaLossRecovery::RxVerdict
RdmaLossRecovery::DoRequestArrival(uint64_t psn, uint64_t expected)
{
    return DoClassify(psn, expected);
}

void
RdmaLossRecovery::SetQueuePairHooks(Callback<void> txReady, Callback<void, uint64_t> deliver)
{
    m_txReady = txReady;
    m_deliver = deliver;
}

void
RdmaLossRecovery::NotifyTxReady() const
{
    if (!m_txReady.IsNull())
    {
        m_txReady();
    }
}

void
RdmaLossRecovery::NotifyDeliver(uint64_t upTo) const
{
    if (!m_deliver.IsNull())
    {
        m_deliver(upTo);
    }
}

void
RdmaLossRecovery::DoDispose()
{
    m_txReady = MakeNullCallback<void>();
    m_deliver = MakeNullCallback<void, uint64_t>();
    Object::DoDispose();
}

void
RdmaLossRecovery::OnSequenceNak(RdmaTxSequence& seq, uint64_t psn, uint64_t sackPsn)
{
    DoSequenceNak(seq, psn, sackPsn);
}

void
RdmaLossRecovery::OnTimeout(RdmaTxSequence& seq)
{
    DoTimeout(seq);
}

Time
RdmaLossRecovery::GetRetransmitTimeout(const RdmaTxSequence& seq) const
{
    return DoGetRetransmitTimeout(seq);
}

uint32_t
RdmaLossRecovery::GetRetryLimit() const
{
    return m_retryLimit;
}

bool
RdmaLossRecovery::HasRetransmission(const RdmaTxSequence& seq) const
{
    return DoHasRetransmission(seq);
}

uint64_t
RdmaLossRecovery::NextTransmitPsn(const RdmaTxSequence& seq)
{
    return DoNextTransmitPsn(seq);
}

uint64_t
RdmaLossRecovery::GetInFlightCap() const
{
    return DoGetInFlightCap();
}

bool
RdmaLossRecovery::IsSelective() const
{
    return DoIsSelective();
}

bool
RdmaLossRecovery::DoIsSelective() const
{
    return false;
}

Time
RdmaLossRecovery::GetNakReactionTime() const
{
    return DoGetNakReactionTime();
}

Time
RdmaLossRecovery::DoGetNakReactionTime() const
{
    return Time(0);
}

void
RdmaLossRecovery::SetHostDma(Ptr<HostModel> host, uint32_t rnic, uint32_t memory)
{
    DoSetHostDma(host, rnic, memory);
}

void
RdmaLossRecovery::DoSetHostDma(Ptr<HostModel>, uint32_t, uint32_t)
{
}

bool
RdmaLossRecovery::DoHasRetransmission(const RdmaTxSequence& seq) const
{
    return false;
}

uint64_t
RdmaLossRecovery::DoNextTransmitPsn(const RdmaTxSequence& seq)
{
    return seq.nxt;
}

uint64_t
RdmaLossRecovery::DoGetInFlightCap() const
{
    return UINT64_MAX;
}

} // namespace ns3
