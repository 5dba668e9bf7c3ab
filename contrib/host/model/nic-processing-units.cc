/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nic-processing-units.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NicProcessingUnits");
NS_OBJECT_ENSURE_REGISTERED(NicProcessingUnits);

TypeId
NicProcessingUnits::GetTypeId()
{
    // Husky (Kong et al., OSDI'23 §3.3, Fig. 4), ConnectX-5 100 Gb/s, 8 B requests, <1% cache
    // misses: alone, SEND and WRITE reach "more than 90 Mrps", READ ~60, FAA 5.2, CAS 4.8 Mrps.
    // Costs are whole nanoseconds (ns-3's default time resolution).
    static TypeId tid =
        TypeId("ns3::NicProcessingUnits")
            .SetParent<Object>()
            .SetGroupName("Host")
            .AddConstructor<NicProcessingUnits>()
            .AddAttribute("SendCost",
                          "PU time of one SEND request. Default 11 ns ~ 1 / 90 Mrps "
                          "(Husky Fig. 4, CX-5: 'more than 90 Mrps').",
                          TimeValue(NanoSeconds(11)),
                          MakeTimeAccessor(&NicProcessingUnits::m_sendCost),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("WriteCost",
                          "PU time of one WRITE request. Default 11 ns ~ 1 / 90 Mrps "
                          "(Husky Fig. 4, CX-5).",
                          TimeValue(NanoSeconds(11)),
                          MakeTimeAccessor(&NicProcessingUnits::m_writeCost),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ReadCost",
                          "PU time of one READ request. Default 17 ns ~ 1 / 60 Mrps "
                          "(Husky Fig. 4, CX-5: 'approximately 60 Mrps').",
                          TimeValue(NanoSeconds(17)),
                          MakeTimeAccessor(&NicProcessingUnits::m_readCost),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CompareSwapCost",
                          "PU time of one CAS request. Default 208 ns ~ 1 / 4.8 Mrps (Husky "
                          "Fig. 4, CX-5).",
                          TimeValue(NanoSeconds(208)),
                          MakeTimeAccessor(&NicProcessingUnits::m_casCost),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FetchAddCost",
                          "PU time of one FAA request. Default 192 ns ~ 1 / 5.2 Mrps (Husky "
                          "Fig. 4, CX-5).",
                          TimeValue(NanoSeconds(192)),
                          MakeTimeAccessor(&NicProcessingUnits::m_faaCost),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Units",
                          "Processing units serving requests in parallel; each holds a request "
                          "for Units x its verb's cost (the aggregate rate stays the verb's) "
                          "plus the cache's MissPenalty on a miss. Default 1, one aggregate "
                          "server (Husky gives no unit count; 8 is used for its NIC-cache "
                          "experiment).",
                          UintegerValue(1), MakeUintegerAccessor(&NicProcessingUnits::m_units),
                          MakeUintegerChecker<uint32_t>(1, 4096));
    return tid;
}

NicProcessingUnits::NicProcessingUnits() = default;

NicProcessingUnits::~NicProcessingUnits() = default;

void
NicProcessingUnits::DoDispose()
{
    for (auto& e : m_events)
    {
        e.Cancel();
    }
    m_queue.clear();
    m_inService.clear();
    m_cache = nullptr;
    Object::DoDispose();
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
        case COMPARE_SWAP:
            return m_casCost;
        default:
            return m_faaCost;
    }
}

uint64_t
NicProcessingUnits::GetProcessed(uint32_t tenant) const
{
    return tenant < m_processed.size() ? m_processed[tenant] : 0;
}

uint32_t
NicProcessingUnits::GetQueueLength() const
{
    return m_queue.size() + (m_inService.size() - m_freeUnits.size()); // waiting + in service
}

void
NicProcessingUnits::SetCache(Ptr<NicCache> cache)
{
    m_cache = cache;
}

void
NicProcessingUnits::Submit(Verb verb, uint32_t tenant, Callback<void> done, uint32_t cacheKey)
{
    NS_ABORT_MSG_IF(verb >= N_VERBS, "NicProcessingUnits: unknown verb " << int(verb));
    if (tenant >= m_processed.size())
    {
        m_processed.resize(tenant + 1, 0);
    }
    if (m_inService.empty())
    {
        // First request: Units is final now (attributes are set before use).
        m_inService.resize(m_units);
        m_events.resize(m_units);
        for (uint32_t u = m_units; u > 0; --u)
        {
            m_freeUnits.push_back(u - 1);
        }
    }
    m_queue.push_back({verb, tenant, done, cacheKey});
    StartNext();
}

void
NicProcessingUnits::StartNext()
{
    while (!m_queue.empty() && !m_freeUnits.empty())
    {
        const uint32_t unit = m_freeUnits.back();
        m_freeUnits.pop_back();
        Request& r = m_inService[unit];
        r = m_queue.front();
        m_queue.pop_front();
        Time service = GetCost(r.verb) * static_cast<int64_t>(m_units);
        if (m_cache && r.cacheKey != NicCache::NONE && !m_cache->Access(r.cacheKey))
        {
            service += m_cache->GetMissPenalty();
        }
        m_events[unit] = Simulator::Schedule(service, &NicProcessingUnits::Finish, this, unit);
    }
}

void
NicProcessingUnits::Finish(uint32_t unit)
{
    Callback<void> done = m_inService[unit].done;
    m_processed[m_inService[unit].tenant]++;
    m_inService[unit].done = Callback<void>();
    m_freeUnits.push_back(unit);
    StartNext();
    if (!done.IsNull())
    {
        done();
    }
}

} // namespace ns3
