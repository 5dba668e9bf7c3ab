#include "rdma-read-response-tracker.h"

#include <algorithm>

namespace ns3
{

void
RdmaReadResponseTracker::SetCapacity(uint64_t packets)
{
    // A go-back-N recovery reports an unlimited cap but never marks anything.
    m_capacity = std::max<uint64_t>(1, std::min<uint64_t>(packets, 1u << 20));
    m_ring.clear();
}

void
RdmaReadResponseTracker::EnsureCapacity(uint64_t packets)
{
    if (packets <= m_capacity)
    {
        return;
    }
    const std::vector<uint64_t> old = std::move(m_ring);
    m_capacity = packets;
    m_ring.clear();
    for (uint64_t psnPlusOne : old)
    {
        if (psnPlusOne != 0)
        {
            Mark(psnPlusOne - 1);
        }
    }
}

void
RdmaReadResponseTracker::Mark(uint64_t psn)
{
    if (m_ring.empty())
    {
        m_ring.assign(m_capacity, 0); // allocated at the first out-of-order response
    }
    m_ring[psn % m_ring.size()] = psn + 1;
}

bool
RdmaReadResponseTracker::IsReceived(uint64_t psn) const
{
    return !m_ring.empty() && m_ring[psn % m_ring.size()] == psn + 1;
}

uint32_t
RdmaReadResponseTracker::AdvanceInOrder(uint64_t firstPsn, uint32_t received,
                                        uint32_t nPackets) const
{
    while (received < nPackets && IsReceived(firstPsn + received))
    {
        received++;
    }
    return received;
}

} // namespace ns3
