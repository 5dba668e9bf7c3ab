#include "fetch-qp-scheduler.h"

#include "rdma-nic.h"
#include "rdma-queue-pair.h"
#include "rnic-cache-model.h"
#include "roce-bth-header.h"

#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FetchQpScheduler);

TypeId
FetchQpScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FetchQpScheduler")
            .SetParent<QpScheduler>()
            .SetGroupName("Rdma")
            .AddAttribute("MaxOutstandingFetches",
                          "PCIe reads (WQE or context fetches) in flight at once. Default 32: "
                          "the 5-bit PCIe Tag field without Extended Tags (PCIe 3.0 base spec "
                          "2.2.6.2).",
                          UintegerValue(32), MakeUintegerAccessor(&FetchQpScheduler::m_maxFetches),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("PcieRoundTrip",
                          "Latency of one fetch from host memory (a PCIe read round trip). "
                          "Default 1.1 us (SRNIC, NSDI'23, section 4.3).",
                          TimeValue(NanoSeconds(1100)),
                          MakeTimeAccessor(&FetchQpScheduler::m_pcieRtt), MakeTimeChecker(Time(0)));
    return tid;
}

void
FetchQpScheduler::DoDispose()
{
    m_waiting.clear();
    m_fetching.clear();
    m_ready.clear();
    m_queued.clear();
    m_current = nullptr;
    m_host = nullptr;
    QpScheduler::DoDispose();
}

uint64_t
FetchQpScheduler::GetFetches() const
{
    return m_fetches;
}

uint64_t
FetchQpScheduler::GetTurns() const
{
    return m_turns;
}

void
FetchQpScheduler::SetHostModel(Ptr<HostModel> host, uint32_t rnic, uint32_t memory)
{
    m_host = host;
    m_hostRnic = rnic;
    m_hostMemory = memory;
    m_hostRtt = host ? host->GetPathLatency(rnic, memory) : Time(0);
}

uint64_t
FetchQpScheduler::GetHostFetchBytes() const
{
    return m_hostFetchBytes;
}

uint64_t
FetchQpScheduler::GetHostWqeBytes() const
{
    return m_hostWqeBytes;
}

uint64_t
FetchQpScheduler::GetHostFetchDmas() const
{
    return m_hostFetchDmas;
}

bool
FetchQpScheduler::HasHostModel() const
{
    return m_host != nullptr;
}

uint64_t
FetchQpScheduler::FetchReadBytes(RdmaQueuePair* /* qp */)
{
    return 0;
}

Time
FetchQpScheduler::FetchRoundTrip() const
{
    return m_host ? m_hostRtt : m_pcieRtt;
}

uint8_t&
FetchQpScheduler::Queued(RdmaQueuePair* qp)
{
    const uint32_t index = qp->GetQpn() - RdmaNic::FIRST_QPN;
    if (index >= m_queued.size())
    {
        m_queued.resize(index + 1, 0);
    }
    return m_queued[index];
}

void
FetchQpScheduler::Enqueue(RdmaQueuePair* qp)
{
    qp->SetInActiveList(true);
    Queued(qp) = 1;
    m_waiting.push_back(qp);
}

void
FetchQpScheduler::NotifyTxWork(RdmaQueuePair* qp)
{
    if (!qp->IsInActiveList())
    {
        Enqueue(qp);
    }
}

void
FetchQpScheduler::Leave(RdmaQueuePair* qp)
{
    Queued(qp) = 0;
    if (qp != m_current)
    {
        qp->SetInActiveList(false);
    }
}

void
FetchQpScheduler::EndTurn()
{
    RdmaQueuePair* qp = m_current;
    m_current = nullptr;
    if (Queued(qp))
    {
        return; // its next turn is already being fetched
    }
    if (qp->HasTxWork())
    {
        Enqueue(qp); // unused WQEs are dropped: the next turn fetches again
    }
    else
    {
        qp->SetInActiveList(false);
    }
}

bool
FetchQpScheduler::IsIdle() const
{
    return m_current == nullptr && m_waiting.empty() && m_fetching.empty() && m_ready.empty();
}

Ptr<Packet>
FetchQpScheduler::Dequeue(uint8_t pausedMask, RdmaQueuePair*& out, Time& wakeAt)
{
    const Time now = Simulator::Now();
    wakeAt = Time::Max();
    // Arrived fetches, in the order they arrive.
    while (true)
    {
        std::size_t best = m_fetching.size();
        for (std::size_t i = 0; i < m_fetching.size(); ++i)
        {
            if (m_fetching[i].done <= now &&
                (best == m_fetching.size() || m_fetching[i].done < m_fetching[best].done))
            {
                best = i;
            }
        }
        if (best == m_fetching.size())
        {
            break;
        }
        m_ready.push_back(m_fetching[best].qp);
        m_fetching.erase(m_fetching.begin() + static_cast<std::ptrdiff_t>(best));
    }
    // Issue fetches for the schedule queue's head.
    while (!m_waiting.empty() && m_fetching.size() < m_maxFetches)
    {
        RdmaQueuePair* qp = m_waiting.front();
        m_waiting.pop_front();
        if (!qp->HasTxWork())
        {
            Leave(qp);
            continue;
        }
        Ptr<RnicCacheModel> cache = m_host ? m_nic->GetCacheModel() : nullptr;
        const uint64_t filled = cache ? cache->GetPcieReadBytes() : 0;
        const Time delay = FetchDelay(qp);
        if (m_host)
        {
            // The misses' entries and the WQEs the turn needs cross the host's PCIe path as
            // one DMA read; the fetch's own delay stays the path's round trip (FetchRoundTrip).
            const uint64_t wqes = FetchReadBytes(qp);
            const uint64_t bytes = (cache ? cache->GetPcieReadBytes() - filled : 0) + wqes;
            if (bytes > 0)
            {
                m_hostFetchBytes += bytes;
                m_hostWqeBytes += wqes;
                m_hostFetchDmas++;
                m_host->RequestDma(m_hostRnic, m_hostMemory, HostModel::DMA_READ, bytes,
                                   MakeNullCallback<void, Time>());
            }
        }
        if (delay.IsStrictlyPositive())
        {
            m_fetches++;
            m_fetching.push_back(Fetch{now + delay, qp});
        }
        else
        {
            m_ready.push_back(qp);
        }
    }
    for (std::size_t tries = m_ready.size() + 1; tries > 0; --tries)
    {
        if (!m_current)
        {
            if (m_ready.empty())
            {
                break;
            }
            RdmaQueuePair* qp = m_ready.front();
            m_ready.pop_front();
            if (!qp->HasTxWork())
            {
                Leave(qp);
                continue;
            }
            if ((pausedMask & (1u << qp->GetTrafficClass())) || qp->GetNextTxTime() > now)
            {
                if (qp->GetNextTxTime() > now)
                {
                    wakeAt = std::min(wakeAt, qp->GetNextTxTime());
                }
                m_ready.push_back(qp); // keeps what it fetched
                continue;
            }
            m_current = qp;
            Queued(qp) = 0;
            m_turns++;
            BeginTurn(qp);
            if (PrefetchesNextTurn())
            {
                Enqueue(qp);
            }
        }
        RdmaQueuePair* qp = m_current;
        if (qp->HasTxWork() && !(pausedMask & (1u << qp->GetTrafficClass())) &&
            qp->GetNextTxTime() > now && m_ready.empty())
        {
            // Only its pacer holds the QP back and no other QP is ready: the turn keeps
            // what it fetched and resumes then. (A transmit pipeline reading ahead pulls
            // sooner than the wire; ending the turn there would refetch every packet.)
            wakeAt = std::min(wakeAt, qp->GetNextTxTime());
            break;
        }
        if (!qp->HasTxWork() || (pausedMask & (1u << qp->GetTrafficClass())) ||
            qp->GetNextTxTime() > now)
        {
            EndTurn();
            continue;
        }
        const uint64_t before = qp->GetCounters().payloadBytesSent;
        Ptr<Packet> p = qp->BuildNextPacket();
        if (!p)
        {
            EndTurn();
            continue;
        }
        RoceBthHeader bth;
        p->PeekHeader(bth);
        const RoceOpcode op = bth.GetOpcode();
        const bool endsWqe = RoceBthHeader::IsLastOrOnly(op) || op == RoceOpcode::ReadRequest;
        const auto payload = static_cast<uint32_t>(qp->GetCounters().payloadBytesSent - before);
        if (!OnPacketSent(qp, payload, endsWqe))
        {
            EndTurn();
        }
        out = qp;
        return p;
    }
    for (const Fetch& f : m_fetching)
    {
        wakeAt = std::min(wakeAt, f.done);
    }
    return nullptr;
}

} // namespace ns3
