/*
 * Gen1 receive-side QPC cache. Specification: Azure NSDI'23 section 7.2 and
 * design/spec-buffers-pfc-dcqcn.md section 4.
 */
#include "rdma-rx-qpc-cache.h"

#include "rdma-nic.h"
#include "rdma-rx-pipeline.h"

#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaRxQpcCache);

TypeId
RdmaRxQpcCache::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaRxQpcCache")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaRxQpcCache>()
            .AddAttribute("Entries",
                          "QP contexts the Gen1 receive path caches (count of QPs, LRU). Azure "
                          "says only that Gen1 has 'limited cache resources' [AZURE 7.2]; default "
                          "64 is an assumption, far below the ~256-QP knee of a ConnectX-6 "
                          "(SRNIC NSDI'23 Fig. 9), for a NIC two generations older.",
                          UintegerValue(64), MakeUintegerAccessor(&RdmaRxQpcCache::m_entries),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MissPenalty",
                          "Extra receive processing of a packet whose QP context misses: one "
                          "context fetch over PCIe. Default 1.1 us, the PCIe round trip of a "
                          "NIC fetch (SRNIC NSDI'23 section 4.3); an assumption for Gen1.",
                          TimeValue(NanoSeconds(1100)),
                          MakeTimeAccessor(&RdmaRxQpcCache::m_missPenalty),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("HitServiceTime",
                          "Receive processing of every data packet (a hit costs only this). "
                          "Default 0: the pipeline keeps up with the wire on hits.",
                          TimeValue(Time(0)), MakeTimeAccessor(&RdmaRxQpcCache::m_hitServiceTime),
                          MakeTimeChecker(Time(0)));
    return tid;
}

RdmaRxQpcCache::RdmaRxQpcCache()
    : m_entries(64)
{
}

void
RdmaRxQpcCache::Install(Ptr<RdmaNic> nic)
{
    m_cache = CreateObject<RnicCacheModel>();
    m_cache->SetAttribute("EffectiveQpcEntries", UintegerValue(m_entries));
    nic->GetRxPipeline()->AddServiceDelay(
        MakeCallback(&RdmaRxQpcCache::ServiceDelay, Ptr<RdmaRxQpcCache>(this)));
}

Time
RdmaRxQpcCache::ServiceDelay(uint32_t qpn, uint32_t /* payload */)
{
    const bool hit = m_cache->Access(RnicCacheModel::QPC, qpn - RdmaNic::FIRST_QPN);
    return hit ? m_hitServiceTime : m_hitServiceTime + m_missPenalty;
}

uint64_t
RdmaRxQpcCache::GetHits() const
{
    return m_cache ? m_cache->GetHits(RnicCacheModel::QPC) : 0;
}

uint64_t
RdmaRxQpcCache::GetMisses() const
{
    return m_cache ? m_cache->GetMisses(RnicCacheModel::QPC) : 0;
}

void
RdmaRxQpcCache::DoDispose()
{
    m_cache = nullptr;
    Object::DoDispose();
}

} // namespace ns3
