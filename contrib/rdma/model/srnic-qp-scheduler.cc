#include "srnic-qp-scheduler.h"

#include "rdma-nic.h"
#include "rdma-queue-pair.h"
#include "rnic-cache-model.h"

#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SrnicQpScheduler);

TypeId
SrnicQpScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SrnicQpScheduler")
            .SetParent<FetchQpScheduler>()
            .SetGroupName("Rdma")
            .AddConstructor<SrnicQpScheduler>()
            .AddAttribute("WqesPerFetch",
                          "WQEs fetched per turn (n). Default 8 (SRNIC, NSDI'23, section 4.3).",
                          UintegerValue(8), MakeUintegerAccessor(&SrnicQpScheduler::m_wqesPerFetch),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("BurstBytes",
                          "Most bytes one turn sends. Default 16384 (16 KB, SRNIC section 4.3).",
                          UintegerValue(16384),
                          MakeUintegerAccessor(&SrnicQpScheduler::m_burstBytes),
                          MakeUintegerChecker<uint32_t>(256))
            .AddAttribute("WqeBytes",
                          "Bytes of one send WQE the fetch reads from host memory (read over "
                          "the host model only). Default 64 B: SRNIC, NSDI'23, section 3 "
                          "(\"8 WQEs (64 B*8)\" per QP).",
                          UintegerValue(64), MakeUintegerAccessor(&SrnicQpScheduler::m_wqeBytes),
                          MakeUintegerChecker<uint32_t>(1, 4096));
    return tid;
}

Time
SrnicQpScheduler::FetchDelay(RdmaQueuePair* qp)
{
    Ptr<RnicCacheModel> cache = m_nic->GetCacheModel();
    if (!cache)
    {
        return FetchRoundTrip();
    }
    const uint32_t index = qp->GetQpn() - RdmaNic::FIRST_QPN;
    const bool qpcHit = cache->Access(RnicCacheModel::QPC, index);
    const bool mttHit = cache->Access(RnicCacheModel::MTT, index);
    return (qpcHit && mttHit) ? FetchRoundTrip() : 2 * FetchRoundTrip();
}

uint64_t
SrnicQpScheduler::FetchReadBytes(RdmaQueuePair* qp)
{
    // "Fetches from that SQ up to n WQEs" (section 4.3): those posted and not yet sent, and
    // at least the one a retransmission resends from.
    const uint32_t wqes = std::min(m_wqesPerFetch, std::max(1u, qp->GetUnsentWorkRequests()));
    return uint64_t(wqes) * m_wqeBytes;
}

bool
SrnicQpScheduler::WqeAlreadyRead(RdmaQueuePair* /* qp */) const
{
    return HasHostModel();
}

void
SrnicQpScheduler::BeginTurn(RdmaQueuePair* qp)
{
    const RdmaCcState& cc = qp->GetCcState();
    const uint64_t credit =
        cc.m_window > cc.m_bytesInFlight ? cc.m_window - cc.m_bytesInFlight : qp->GetMtu();
    m_wqesLeft = m_wqesPerFetch;
    m_bytesLeft = std::min<uint64_t>(m_burstBytes, std::max<uint64_t>(credit, qp->GetMtu()));
}

bool
SrnicQpScheduler::OnPacketSent(RdmaQueuePair* qp, uint32_t payload, bool endsWqe)
{
    m_bytesLeft = payload >= m_bytesLeft ? 0 : m_bytesLeft - payload;
    if (endsWqe)
    {
        m_wqesLeft--;
    }
    return m_wqesLeft > 0 && m_bytesLeft > 0;
}

bool
SrnicQpScheduler::PrefetchesNextTurn() const
{
    return true; // the next fetch overlaps this turn's burst (section 4.3 pipeline)
}

} // namespace ns3
