/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "lru-index-cache.h"

#include <algorithm>

namespace ns3
{

void
LruIndexCache::Unlink(uint32_t key)
{
    const uint32_t p = m_prev[key];
    const uint32_t n = m_next[key];
    (p == NONE ? m_head : m_next[p]) = n;
    (n == NONE ? m_tail : m_prev[n]) = p;
}

void
LruIndexCache::PushFront(uint32_t key)
{
    m_prev[key] = NONE;
    m_next[key] = m_head;
    (m_head == NONE ? m_tail : m_prev[m_head]) = key;
    m_head = key;
}

bool
LruIndexCache::Touch(uint32_t key, uint32_t capacity)
{
    if (key >= m_present.size())
    {
        // Configuration-time growth: the key range of the QPs or objects.
        const auto n = std::max<std::size_t>(key + std::size_t{1}, 2 * m_present.size());
        m_prev.resize(n, NONE);
        m_next.resize(n, NONE);
        m_present.resize(n, 0);
    }
    if (m_present[key])
    {
        ++m_hits;
        Unlink(key);
        PushFront(key);
        return true;
    }
    ++m_misses;
    if (capacity == 0)
    {
        return false;
    }
    if (m_size >= capacity)
    {
        const uint32_t victim = m_tail;
        Unlink(victim);
        m_present[victim] = 0;
        --m_size;
    }
    m_present[key] = 1;
    PushFront(key);
    ++m_size;
    return false;
}

void
LruIndexCache::Clear()
{
    for (uint32_t k = m_head; k != NONE; k = m_next[k])
    {
        m_present[k] = 0;
    }
    m_head = NONE;
    m_tail = NONE;
    m_size = 0;
}

uint32_t
LruIndexCache::GetSize() const
{
    return m_size;
}

uint64_t
LruIndexCache::GetHits() const
{
    return m_hits;
}

uint64_t
LruIndexCache::GetMisses() const
{
    return m_misses;
}

} // namespace ns3
