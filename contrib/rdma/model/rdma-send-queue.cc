#include "rdma-send-queue.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

RoceOpcode
RdmaSendWqe::SegmentOpcode(uint32_t index) const
{
    const bool first = index == 0;
    const bool last = index + 1 == nPackets;
    if (wr.verb == RdmaVerb::Send)
    {
        return first ? (last ? RoceOpcode::SendOnly : RoceOpcode::SendFirst)
                     : (last ? RoceOpcode::SendLast : RoceOpcode::SendMiddle);
    }
    if (wr.hasImm)
    {
        return first ? (last ? RoceOpcode::WriteOnlyImm : RoceOpcode::WriteFirst)
                     : (last ? RoceOpcode::WriteLastImm : RoceOpcode::WriteMiddle);
    }
    return first ? (last ? RoceOpcode::WriteOnly : RoceOpcode::WriteFirst)
                 : (last ? RoceOpcode::WriteLast : RoceOpcode::WriteMiddle);
}

void
RdmaSendQueue::Post(const RdmaWorkRequest& wr, uint32_t nPackets, Time now)
{
    m_wqes.push_back(RdmaSendWqe{wr, m_nextPsn, nPackets, 0, now});
    m_nextPsn += nPackets;
}

uint64_t
RdmaSendQueue::GetNextPsn() const
{
    return m_nextPsn;
}

bool
RdmaSendQueue::IsEmpty() const
{
    return m_wqes.empty();
}

uint32_t
RdmaSendQueue::GetSize() const
{
    return static_cast<uint32_t>(m_wqes.size());
}

RdmaSendWqe&
RdmaSendQueue::Front()
{
    return m_wqes.front();
}

RdmaSendWqe*
RdmaSendQueue::Find(uint64_t psn)
{
    for (RdmaSendWqe& w : m_wqes)
    {
        if (psn >= w.firstPsn && psn < w.firstPsn + w.nPackets)
        {
            return &w;
        }
    }
    return nullptr;
}

uint32_t
RdmaSendQueue::CountFrom(uint64_t psn) const
{
    if (m_wqes.empty() || psn >= m_nextPsn)
    {
        return 0;
    }
    // Ordered by first PSN: the WQEs after the one holding psn start above it.
    auto it = std::upper_bound(m_wqes.begin(), m_wqes.end(), psn,
                               [](uint64_t p, const RdmaSendWqe& w) { return p < w.firstPsn; });
    const auto after = static_cast<uint32_t>(m_wqes.end() - it);
    return it == m_wqes.begin() ? after : after + 1;
}

RdmaSendWqe*
RdmaSendQueue::FindByFirstPsn(uint64_t firstPsn)
{
    // The queue is ordered by first PSN: the echo names the WQE directly.
    auto it = std::lower_bound(m_wqes.begin(), m_wqes.end(), firstPsn,
                               [](const RdmaSendWqe& w, uint64_t p) { return w.firstPsn < p; });
    return it != m_wqes.end() && it->firstPsn == firstPsn ? &*it : nullptr;
}

RdmaCompletion
RdmaSendQueue::PopFront(uint32_t qpn, RdmaWcStatus status)
{
    const RdmaSendWqe& w = m_wqes.front();
    RdmaCompletion c;
    c.qpn = qpn;
    c.wrId = w.wr.wrId;
    c.verb = w.wr.verb;
    c.status = status;
    c.bytes = w.wr.length;
    c.postTime = w.postTime;
    c.completionTime = Simulator::Now();
    m_wqes.pop_front();
    return c;
}

} // namespace ns3
