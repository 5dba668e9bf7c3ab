#include "rdma-tx-timestamp-ring.h"

#include <algorithm>

namespace ns3
{

void
RdmaTxTimestampRing::SetMaxSlots(uint64_t maxSlots)
{
    m_maxSlots = std::max<uint64_t>(1, std::min(maxSlots, DEFAULT_MAX_SLOTS));
}

void
RdmaTxTimestampRing::Grow(uint64_t needed)
{
    uint64_t size = std::max<uint64_t>(MIN_SLOTS, m_slots.size());
    while (size < needed)
    {
        size *= 2;
    }
    size = std::min(size, m_maxSlots);
    if (size <= m_slots.size())
    {
        return;
    }
    std::vector<Slot> slots(size);
    for (const Slot& s : m_slots)
    {
        if (s.psnPlusOne != 0)
        {
            slots[(s.psnPlusOne - 1) % size] = s;
        }
    }
    m_slots.swap(slots);
}

void
RdmaTxTimestampRing::Record(uint64_t psn, uint64_t oldestInFlight, Time when)
{
    const uint64_t inFlight = psn >= oldestInFlight ? psn - oldestInFlight + 1 : 1;
    if (inFlight > m_slots.size() && m_slots.size() < m_maxSlots)
    {
        Grow(inFlight);
    }
    Slot& s = m_slots[psn % m_slots.size()];
    s.psnPlusOne = psn + 1;
    s.when = when;
}

bool
RdmaTxTimestampRing::Lookup(uint64_t psn, Time& when) const
{
    if (m_slots.empty())
    {
        return false;
    }
    const Slot& s = m_slots[psn % m_slots.size()];
    if (s.psnPlusOne != psn + 1)
    {
        return false;
    }
    when = s.when;
    return true;
}

uint64_t
RdmaTxTimestampRing::GetSlots() const
{
    return m_slots.size();
}

void
RdmaTxTimestampRing::Clear()
{
    m_slots.clear();
    m_slots.shrink_to_fit();
}

} // namespace ns3
