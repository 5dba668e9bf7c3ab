#include "cached-qp-scheduler.h"

#include "rdma-nic.h"
#include "rdma-queue-pair.h"
#include "rnic-cache-model.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CachedQpScheduler);

TypeId
CachedQpScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CachedQpScheduler")
                            .SetParent<FetchQpScheduler>()
                            .SetGroupName("Rdma")
                            .AddConstructor<CachedQpScheduler>();
    return tid;
}

Time
CachedQpScheduler::FetchDelay(RdmaQueuePair* qp)
{
    Ptr<RnicCacheModel> cache = m_nic->GetCacheModel();
    if (!cache)
    {
        return Time(0);
    }
    const uint32_t index = qp->GetQpn() - RdmaNic::FIRST_QPN;
    bool hit = cache->Access(RnicCacheModel::QPC, index);
    const bool wqeHit = cache->Access(RnicCacheModel::WQE, index);
    hit = wqeHit && hit;
    hit = cache->Access(RnicCacheModel::MTT, index) && hit;
    if (HasHostModel())
    {
        if (index >= m_wqeFilled.size())
        {
            m_wqeFilled.resize(index + 1, 0); // once per new QP
        }
        m_wqeFilled[index] = wqeHit ? 0 : 1;
    }
    return hit ? Time(0) : FetchRoundTrip();
}

bool
CachedQpScheduler::WqeAlreadyRead(RdmaQueuePair* qp) const
{
    const uint32_t index = qp->GetQpn() - RdmaNic::FIRST_QPN;
    return HasHostModel() && index < m_wqeFilled.size() && m_wqeFilled[index];
}

void
CachedQpScheduler::DoDispose()
{
    m_wqeFilled.clear();
    FetchQpScheduler::DoDispose();
}

void
CachedQpScheduler::BeginTurn(RdmaQueuePair* qp)
{
}

bool
CachedQpScheduler::OnPacketSent(RdmaQueuePair* qp, uint32_t payload, bool endsWqe)
{
    return false; // one packet per turn
}

bool
CachedQpScheduler::PrefetchesNextTurn() const
{
    return false;
}

} // namespace ns3
