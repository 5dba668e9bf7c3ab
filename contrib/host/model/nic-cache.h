/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NIC_CACHE_H
#define NIC_CACHE_H

#include "lru-index-cache.h"

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup host
 * An RNIC's on-chip metadata cache (ICM/QPC, MTT/MPT; Husky, NSDI'23, section 3.2) shared by
 * every tenant of the node: an LRU of Entries entries keyed by object index. Control verbs
 * act on it too: Invalidate() drops every entry, as Husky speculates MR deregistration does
 * to the MTT/MPT cache. A miss costs its consumer (the RNIC's processing units, the
 * packet pipeline) MissPenalty more: the context is fetched from host memory over PCIe and
 * the pipeline stage waits for it. Replacement is LruIndexCache's (shared with the rdma module's
 * RnicCacheModel): O(1) per access, no allocation after the key range is known.
 */
class NicCache : public Object
{
  public:
    /// No key: a request that needs no cache entry.
    static constexpr uint32_t NONE = LruIndexCache::NONE;

    static TypeId GetTypeId();
    NicCache();

    /// Touch key's entry. \return true on a hit; a miss brings it in, evicting the LRU entry.
    bool Access(uint32_t key);
    /// Drop every entry (e.g. MR deregistration invalidating the MTT/MPT cache).
    void Invalidate();
    /// \return the extra time a request whose entry missed spends in its consumer.
    Time GetMissPenalty() const;
    uint32_t GetEntries() const;
    uint32_t GetSize() const;
    uint64_t GetHits() const;
    uint64_t GetMisses() const;

  private:
    uint32_t m_entries;
    Time m_missPenalty;
    LruIndexCache m_lru;
};

} // namespace ns3

#endif /* NIC_CACHE_H */
