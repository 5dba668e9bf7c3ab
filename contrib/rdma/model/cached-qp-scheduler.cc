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
    hit = cache->Access(RnicCacheModel::WQE, index) && hit;
    hit = cache->Access(RnicCacheModel::MTT, index) && hit;
    return hit ? Time(0) : FetchRoundTrip();
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
