/*
 * On-chip memory of an RNIC: QPC, MTT and WQE caches backed by host memory.
 */
#ifndef RNIC_CACHE_MODEL_H
#define RNIC_CACHE_MODEL_H

#include "ns3/lru-index-cache.h"
#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * Three LRU caches keyed by queue pair (SRNIC, NSDI'23, section 3 and Table 1):
 * queue-pair contexts (QPC), memory translation entries of the QP's registered
 * buffer (MTT, one entry per QP: each QP works on one page-sized region in this
 * model) and work-queue entries (WQE, one cached entry per QP). The number of
 * entries of a cache is its capacity in bytes over its entry size, unless
 * EffectiveQpcEntries overrides the QPC's. An access that misses brings the entry
 * over PCIe (counted in GetPcieReadBytes); the scheduler that made the access
 * turns misses into delay. Replacement is LruIndexCache's (shared with the host module's
 * NicCache): O(1) per access; arrays grow with the QP count.
 */
class RnicCacheModel : public Object
{
  public:
    static TypeId GetTypeId();
    RnicCacheModel();

    /** The caches a QP turn may need. */
    enum CacheKind : uint8_t
    {
        QPC = 0,
        MTT,
        WQE,
        N_KINDS
    };

    /** Touch \p kind's entry of QP \p qpIndex (0-based). \return true on a hit. */
    bool Access(CacheKind kind, uint32_t qpIndex);
    /** \return entries \p kind holds. */
    uint32_t GetEntries(CacheKind kind) const;
    uint64_t GetHits(CacheKind kind) const;
    uint64_t GetMisses(CacheKind kind) const;
    /** \return bytes read over PCIe to fill misses. */
    uint64_t GetPcieReadBytes() const;

  private:
    uint32_t Capacity(CacheKind kind) const;
    uint32_t EntryBytes(CacheKind kind) const;

    uint64_t m_qpcBytes;
    uint32_t m_qpcEntryBytes;
    uint32_t m_effectiveQpcEntries;
    uint64_t m_mttBytes;
    uint32_t m_mttEntryBytes;
    uint64_t m_wqeBytes;
    uint32_t m_wqeEntryBytes;
    LruIndexCache m_lru[N_KINDS]; //!< one per kind, keyed by QP index
    uint64_t m_pcieReadBytes{0};
};

} // namespace ns3

#endif /* RNIC_CACHE_MODEL_H */
