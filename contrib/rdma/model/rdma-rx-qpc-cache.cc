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
            .AddAttribute("EntryBytes",
                          "Bytes of one QP context, read from host memory on a miss (through "
                          "the NIC's host model only). Default 375 B, a ConnectX QPC (SRNIC "
                          "NSDI'23 section 3); an assumption for Gen1.",
                          UintegerValue(375), MakeUintegerAccessor(&RdmaRxQpcCache::m_entryBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("HitServiceTime",
                          "Receive processing of every data packet (a hit costs only this). "
                          "Default 0: the pipeline keeps up with the wire on hits.",
                          TimeValue(Time(0)), MakeTimeAccessor(&RdmaRxQpcCache::m_hitServiceTime),
                          MakeTimeChecker(Time(0)));
    return tid;
}

RdmaRxQpcCache::RdmaRxQpcCache()
    : m_entries(64)
    , m_entryBytes(375)
{
}

void
RdmaRxQpcCache::Install(Ptr<RdmaNic> nic)
{
    m_cache = CreateObject<RnicCacheModel>();
    m_cache->SetAttribute("EffectiveQpcEntries", UintegerValue(m_entries));
    m_cache->SetAttribute("QpcEntryBytes", UintegerValue(m_entryBytes));
    m_nic = PeekPointer(nic);
    nic->GetRxPipeline()->AddServiceDelay(
        MakeCallback(&RdmaRxQpcCache::ServiceDelay, Ptr<RdmaRxQpcCache>(this)));
}

Time
RdmaRxQpcCache::ServiceDelay(uint32_t qpn, uint32_t /* payload */)
{
    const uint64_t filled = m_cache->GetPcieReadBytes();
    if (m_cache->Access(RnicCacheModel::QPC, qpn - RdmaNic::FIRST_QPN))
    {
        return m_hitServiceTime;
    }
    Ptr<HostModel> host = m_nic ? m_nic->GetHostModel() : nullptr;
    if (!host)
    {
        return m_hitServiceTime + m_missPenalty;
    }
    if (host != m_host)
    {
        m_host = host;
        m_hostRtt = host->GetPathLatency(m_nic->GetHostRnic(), m_nic->GetHostMemory());
    }
    const uint64_t bytes = m_cache->GetPcieReadBytes() - filled;
    m_hostFillBytes += bytes;
    host->RequestDma(m_nic->GetHostRnic(), m_nic->GetHostMemory(), HostModel::DMA_READ, bytes,
                     MakeNullCallback<void, Time>());
    return m_hitServiceTime + m_hostRtt;
}

uint64_t
RdmaRxQpcCache::GetHostFillBytes() const
{
    return m_hostFillBytes;
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
    m_host = nullptr;
    m_nic = nullptr;
    Object::DoDispose();
}

} // namespace ns3
