/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LRU_INDEX_CACHE_H
#define LRU_INDEX_CACHE_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup host
 * A least-recently-used set of small integer keys (queue-pair or object indices) with hit and
 * miss counts: the replacement policy of the on-chip caches of an RNIC (the host module's
 * NicCache, the rdma module's RnicCacheModel). An intrusive doubly linked list over vectors
 * indexed by key: O(1) per access, no allocation once the key range is known (the vectors grow
 * when a larger key is first seen, at configuration time). Here, in the host module, because
 * host must not depend on rdma.
 */
class LruIndexCache
{
  public:
    static constexpr uint32_t NONE = UINT32_MAX;

    /**
     * Touch \p key's entry. A hit makes it the most recent; a miss brings it in, evicting the
     * least recent entry when \p capacity entries are held (a capacity of 0 holds nothing).
     * \return true on a hit
     */
    bool Touch(uint32_t key, uint32_t capacity);
    /** Drop every entry (the counts stay). */
    void Clear();
    /** \return the entries held. */
    uint32_t GetSize() const;
    uint64_t GetHits() const;
    uint64_t GetMisses() const;

  private:
    void Unlink(uint32_t key);
    void PushFront(uint32_t key);

    std::vector<uint32_t> m_prev;
    std::vector<uint32_t> m_next;
    std::vector<uint8_t> m_present;
    uint32_t m_head{NONE}; //!< most recent
    uint32_t m_tail{NONE}; //!< least recent
    uint32_t m_size{0};
    uint64_t m_hits{0};
    uint64_t m_misses{0};
};

} // namespace ns3

#endif /* LRU_INDEX_CACHE_H */
