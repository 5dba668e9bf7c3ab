/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nic-processing-units.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(NicProcessingUnits);

TypeId
NicProcessingUnits::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NicProcessingUnits")
            .SetParent<Object>()
            .SetGroupName("Host")
            .AddConstructor<NicProcessingUnits>()
            .AddAttribute("Units",
                          "Processing units working in parallel. Default 8 (assumption: Husky "
                          "does not give the count; only Units / cost, the rate, is fitted).",
                          UintegerValue(8), MakeUintegerAccessor(&NicProcessingUnits::m_units),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("SendCost",
                          "Unit time per SEND. Default 88 ns: 8 units / 88 ns = 90.9 Mrps "
                          "(Husky Fig. 4, CX-5: SEND and WRITE > 90 Mrps).",
                          TimeValue(NanoSeconds(88)),
                          MakeTimeAccessor(&NicProcessingUnits::m_sendCost),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute(
                "WriteCost", "Unit time per WRITE. Default 88 ns (90.9 Mrps, Husky Fig. 4).",
                TimeValue(NanoSeconds(88)), MakeTimeAccessor(&NicProcessingUnits::m_writeCost),
                MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ReadCost",
                          "Unit time per READ. Default 133 ns: 60.2 Mrps (Husky section 3.3: "
                          "READ approximately 60 Mrps).",
                          TimeValue(NanoSeconds(133)),
                          MakeTimeAccessor(&NicProcessingUnits::m_readCost),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute(
                "FetchAddCost", "Unit time per FETCH_ADD. Default 1538 ns: 5.2 Mrps (Husky 3.3).",
                TimeValue(NanoSeconds(1538)), MakeTimeAccessor(&NicProcessingUnits::m_fetchAddCost),
                MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("CompareSwapCost",
                          "Unit time per COMPARE_SWAP. Default 1667 ns: 4.8 Mrps (Husky 3.3).",
                          TimeValue(NanoSeconds(1667)),
                          MakeTimeAccessor(&NicProcessingUnits::m_compareSwapCost),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("MissPenalty",
                          "Extra unit time of a request whose metadata misses the NicCache: a "
                          "PCIe read round trip to host memory. Default 1 us (Hostping Fig. 4: "
                          "~1 us RNIC-to-memory read latency; SRNIC/Kalia: PCIe read ~1 us).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&NicProcessingUnits::m_missPenalty),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("RequestProcessed", "A unit finished a request: tenant, verb.",
                            MakeTraceSourceAccessor(&NicProcessingUnits::m_processed),
                            "ns3::NicProcessingUnits::RequestTracedCallback");
    return tid;
}

NicProcessingUnits::NicProcessingUnits()
    : m_units(8)
    , m_busy(0)
    , m_turn(0)
{
}

NicProcessingUnits::~NicProcessingUnits() = default;

void
NicProcessingUnits::DoDispose()
{
    m_queues.clear();
    m_cache = nullptr;
    Object::DoDispose();
}

uint32_t
NicProcessingUnits::AddTenant()
{
    m_queues.emplace_back();
    m_completed.push_back(0);
    return m_queues.size() - 1;
}

void
NicProcessingUnits::SetCache(Ptr<NicCache> cache)
{
    m_cache = cache;
}

void
NicProcessingUnits::Submit(uint32_t tenant, Verb verb, DoneCallback done, uint32_t cacheKey)
{
    NS_ABORT_MSG_UNLESS(tenant < m_queues.size(), "NicProcessingUnits: no tenant " << tenant);
    NS_ABORT_MSG_UNLESS(verb < N_VERBS, "NicProcessingUnits: unknown verb");
    m_queues[tenant].push_back({verb, cacheKey, done});
    Serve();
}

void
NicProcessingUnits::Serve()
{
    const uint32_t n = m_queues.size();
    while (m_busy < m_units)
    {
        // Next tenant with a waiting request, starting at the one whose turn it is.
        uint32_t tenant = n;
        for (uint32_t k = 0; k < n; ++k)
        {
            uint32_t t = (m_turn + k) % n;
            if (!m_queues[t].empty())
            {
                tenant = t;
                break;
            }
        }
        if (tenant == n)
        {
            return;
        }
        m_turn = (tenant + 1) % n;
        Request r = std::move(m_queues[tenant].front());
        m_queues[tenant].pop_front();
        ++m_busy;
        Time busy = GetCost(r.verb);
        if (m_cache && r.key != NicCache::NONE && !m_cache->Access(r.key))
        {
            busy += m_missPenalty;
        }
        Simulator::Schedule(busy, &NicProcessingUnits::OnProcessed, this, tenant, r);
    }
}

void
NicProcessingUnits::OnProcessed(uint32_t tenant, Request request)
{
    --m_busy;
    ++m_completed[tenant];
    m_processed(tenant, request.verb);
    Serve();
    if (!request.done.IsNull())
    {
        request.done();
    }
}

Time
NicProcessingUnits::GetCost(Verb verb) const
{
    switch (verb)
    {
        case SEND:
            return m_sendCost;
        case WRITE:
            return m_writeCost;
        case READ:
            return m_readCost;
        case FETCH_ADD:
            return m_fetchAddCost;
        default:
            return m_compareSwapCost;
    }
}

uint64_t
NicProcessingUnits::GetCompleted(uint32_t tenant) const
{
    return m_completed.at(tenant);
}

uint32_t
NicProcessingUnits::GetQueued(uint32_t tenant) const
{
    return m_queues.at(tenant).size();
}

} // namespace ns3
