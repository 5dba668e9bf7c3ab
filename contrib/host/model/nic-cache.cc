/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nic-cache.h"

#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(NicCache);

TypeId
NicCache::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NicCache")
            .SetParent<Object>()
            .SetGroupName("Host")
            .AddConstructor<NicCache>()
            .AddAttribute("Entries",
                          "Entries the cache holds. Default 1024 (assumption: vendors do not "
                          "publish MTT/MPT cache sizes; Husky measures only miss rates).",
                          UintegerValue(1024), MakeUintegerAccessor(&NicCache::m_entries),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MissPenalty",
                          "Extra time a request spends in its consumer when its entry misses: a "
                          "PCIe read round trip to host memory. Default 1 us (Hostping Fig. 4: "
                          "~1 us RNIC-to-memory reads; the reference's PCIe read ~1 us).",
                          TimeValue(MicroSeconds(1)), MakeTimeAccessor(&NicCache::m_missPenalty),
                          MakeTimeChecker(Seconds(0)));
    return tid;
}

NicCache::NicCache()
    : m_entries(1024)
    , m_head(NONE)
    , m_tail(NONE)
    , m_size(0)
    , m_hits(0)
    , m_misses(0)
{
}

void
NicCache::Unlink(uint32_t key)
{
    uint32_t p = m_prev[key];
    uint32_t n = m_next[key];
    (p == NONE ? m_head : m_next[p]) = n;
    (n == NONE ? m_tail : m_prev[n]) = p;
}

void
NicCache::PushFront(uint32_t key)
{
    m_prev[key] = NONE;
    m_next[key] = m_head;
    (m_head == NONE ? m_tail : m_prev[m_head]) = key;
    m_head = key;
}

bool
NicCache::Access(uint32_t key)
{
    if (key >= m_present.size())
    {
        // Configuration-time growth: the key range of a tenant's objects.
        uint32_t n = std::max<uint32_t>(key + 1, 2 * m_present.size());
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
    if (m_size >= m_entries)
    {
        uint32_t victim = m_tail;
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
NicCache::Invalidate()
{
    for (uint32_t k = m_head; k != NONE; k = m_next[k])
    {
        m_present[k] = 0;
    }
    m_head = NONE;
    m_tail = NONE;
    m_size = 0;
}

Time
NicCache::GetMissPenalty() const
{
    return m_missPenalty;
}

uint32_t
NicCache::GetEntries() const
{
    return m_entries;
}

uint32_t
NicCache::GetSize() const
{
    return m_size;
}

uint64_t
NicCache::GetHits() const
{
    return m_hits;
}

uint64_t
NicCache::GetMisses() const
{
    return m_misses;
}

} // namespace ns3
