#include "rnic-cache-model.h"

#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RnicCacheModel);

TypeId
RnicCacheModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RnicCacheModel")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RnicCacheModel>()
            .AddAttribute("QpcCacheBytes",
                          "On-chip bytes for queue-pair contexts. Default 2 MiB: the whole "
                          "on-chip SRAM of a ConnectX-5 (SRNIC, NSDI'23, Table 2).",
                          UintegerValue(2u << 20),
                          MakeUintegerAccessor(&RnicCacheModel::m_qpcBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("QpcEntryBytes",
                          "Bytes of one QPC. Default 375 (the ConnectX estimate of SRNIC "
                          "section 3; SRNIC's own QPC is 210 B).",
                          UintegerValue(375),
                          MakeUintegerAccessor(&RnicCacheModel::m_qpcEntryBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("EffectiveQpcEntries",
                          "Calibrated number of QPCs the cache really keeps (0: "
                          "QpcCacheBytes / QpcEntryBytes). Commercial RNICs share the SRAM "
                          "with WQE, MTT and other state and lose performance far earlier "
                          "than 2 MiB / 375 B = 5592 QPs: the ConnectX-6 knee of SRNIC Fig. 9 "
                          "is ~256 QPs, the value the Cx5/Cx6 profiles set.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RnicCacheModel::m_effectiveQpcEntries),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MttCacheBytes",
                          "On-chip bytes for memory translation entries. Default 256 KiB "
                          "(model assumption; one 8 B entry per QP region).",
                          UintegerValue(256u << 10),
                          MakeUintegerAccessor(&RnicCacheModel::m_mttBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("MttEntryBytes", "Bytes of one MTT entry. Default 8 (a 64-bit address).",
                          UintegerValue(8), MakeUintegerAccessor(&RnicCacheModel::m_mttEntryBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("WqeCacheBytes",
                          "On-chip bytes for cached work-queue entries (0: none, as SRNIC's "
                          "cache-free scheduler). Default 256 KiB (model assumption).",
                          UintegerValue(256u << 10),
                          MakeUintegerAccessor(&RnicCacheModel::m_wqeBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("WqeEntryBytes",
                          "Bytes of one WQE. Default 64 (a ConnectX send WQE basic block, "
                          "Mellanox PRM).",
                          UintegerValue(64), MakeUintegerAccessor(&RnicCacheModel::m_wqeEntryBytes),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

RnicCacheModel::RnicCacheModel() = default;

uint32_t
RnicCacheModel::EntryBytes(CacheKind kind) const
{
    return kind == QPC ? m_qpcEntryBytes : (kind == MTT ? m_mttEntryBytes : m_wqeEntryBytes);
}

uint32_t
RnicCacheModel::Capacity(CacheKind kind) const
{
    if (kind == QPC && m_effectiveQpcEntries > 0)
    {
        return m_effectiveQpcEntries;
    }
    const uint64_t bytes = kind == QPC ? m_qpcBytes : (kind == MTT ? m_mttBytes : m_wqeBytes);
    const uint64_t n = bytes / EntryBytes(kind);
    return n > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(n);
}

uint32_t
RnicCacheModel::GetEntries(CacheKind kind) const
{
    return Capacity(kind);
}

bool
RnicCacheModel::Access(CacheKind kind, uint32_t qpIndex)
{
    const bool hit = m_lru[kind].Touch(qpIndex, Capacity(kind));
    if (!hit)
    {
        m_pcieReadBytes += EntryBytes(kind);
    }
    return hit;
}

uint64_t
RnicCacheModel::GetHits(CacheKind kind) const
{
    return m_lru[kind].GetHits();
}

uint64_t
RnicCacheModel::GetMisses(CacheKind kind) const
{
    return m_lru[kind].GetMisses();
}

uint64_t
RnicCacheModel::GetPcieReadBytes() const
{
    return m_pcieReadBytes;
}

} // namespace ns3
