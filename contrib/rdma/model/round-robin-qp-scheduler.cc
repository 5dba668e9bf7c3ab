#include "round-robin-qp-scheduler.h"

#include "rdma-queue-pair.h"

#include "ns3/boolean.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoundRobinQpScheduler);

TypeId
RoundRobinQpScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoundRobinQpScheduler")
            .SetParent<QpScheduler>()
            .SetGroupName("Rdma")
            .AddConstructor<RoundRobinQpScheduler>()
            .AddAttribute("HeadOfLineBlocking",
                          "Optional NIC flaw, 'congestion leaking' (Azure NSDI'23 section "
                          "8.3): the scheduler waits for the rate limiter of the QP whose "
                          "turn it is rather than skipping it, so all QPs of the NIC are "
                          "throttled to the slowest one. Default false (fixed firmware).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoundRobinQpScheduler::m_headOfLineBlocking),
                          MakeBooleanChecker());
    return tid;
}

void
RoundRobinQpScheduler::DoDispose()
{
    m_active.clear();
    QpScheduler::DoDispose();
}

void
RoundRobinQpScheduler::NotifyTxWork(RdmaQueuePair* qp)
{
    if (!qp->IsInActiveList())
    {
        qp->SetInActiveList(true);
        m_active.push_back(qp);
    }
}

bool
RoundRobinQpScheduler::IsIdle() const
{
    return m_active.empty();
}

Ptr<Packet>
RoundRobinQpScheduler::Dequeue(uint8_t pausedMask, RdmaQueuePair*& out, Time& wakeAt)
{
    const Time now = Simulator::Now();
    wakeAt = Time::Max();
    const std::size_t n = m_active.size();
    for (std::size_t visited = 0; visited < n && !m_active.empty(); ++visited)
    {
        const std::size_t idx = m_rrNext % m_active.size();
        RdmaQueuePair* qp = m_active[idx];
        if (!qp->HasTxWork())
        {
            qp->SetInActiveList(false);
            m_active[idx] = m_active.back();
            m_active.pop_back();
            continue;
        }
        m_rrNext = idx + 1;
        if (pausedMask & (1u << qp->GetTrafficClass()))
        {
            continue;
        }
        if (qp->GetNextTxTime() > now)
        {
            wakeAt = std::min(wakeAt, qp->GetNextTxTime());
            if (m_headOfLineBlocking)
            {
                m_rrNext = idx; // the head QP's rate limiter blocks the others
                return nullptr;
            }
            continue;
        }
        Ptr<Packet> p = qp->BuildNextPacket();
        if (p)
        {
            if (qp->IsMidBurst())
            {
                m_rrNext = idx; // a per-burst pacer's burst leaves back-to-back
            }
            out = qp;
            return p;
        }
    }
    return nullptr;
}

} // namespace ns3
