/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nic-processing-units.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

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
                          MakeTimeAccessor(&NicProcessingUnits::m_sendCost), MakeTimeChecker())
            .AddAttribute("WriteCost",
                          "PU time of one WRITE request. Default 11 ns ~ 1 / 90 Mrps "
                          "(Husky Fig. 4, CX-5).",
                          TimeValue(NanoSeconds(11)),
                          MakeTimeAccessor(&NicProcessingUnits::m_writeCost), MakeTimeChecker())
            .AddAttribute("ReadCost",
                          "PU time of one READ request. Default 17 ns ~ 1 / 60 Mrps "
                          "(Husky Fig. 4, CX-5: 'approximately 60 Mrps').",
                          TimeValue(NanoSeconds(17)),
                          MakeTimeAccessor(&NicProcessingUnits::m_readCost), MakeTimeChecker())
            .AddAttribute("CompareSwapCost",
                          "PU time of one CAS request. Default 208 ns ~ 1 / 4.8 Mrps (Husky "
                          "Fig. 4, CX-5).",
                          TimeValue(NanoSeconds(208)),
                          MakeTimeAccessor(&NicProcessingUnits::m_casCost), MakeTimeChecker())
            .AddAttribute("FetchAddCost",
                          "PU time of one FAA request. Default 192 ns ~ 1 / 5.2 Mrps (Husky "
                          "Fig. 4, CX-5).",
                          TimeValue(NanoSeconds(192)),
                          MakeTimeAccessor(&NicProcessingUnits::m_faaCost), MakeTimeChecker());
    return tid;
}

NicProcessingUnits::NicProcessingUnits() = default;

NicProcessingUnits::~NicProcessingUnits() = default;

void
NicProcessingUnits::DoDispose()
{
    m_event.Cancel();
    m_queue.clear();
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
    return m_queue.size();
}

void
NicProcessingUnits::Submit(Verb verb, uint32_t tenant, Callback<void> done)
{
    NS_ABORT_MSG_IF(verb >= N_VERBS, "NicProcessingUnits: unknown verb " << int(verb));
    if (tenant >= m_processed.size())
    {
        m_processed.resize(tenant + 1, 0);
    }
    m_queue.push_back({verb, tenant, done});
    if (!m_busy)
    {
        StartNext();
    }
}

void
NicProcessingUnits::StartNext()
{
    if (m_queue.empty())
    {
        m_busy = false;
        return;
    }
    m_busy = true;
    m_event = Simulator::Schedule(GetCost(m_queue.front().verb), &NicProcessingUnits::Finish, this);
}

void
NicProcessingUnits::Finish()
{
    Request r = m_queue.front();
    m_queue.pop_front();
    m_processed[r.tenant]++;
    StartNext();
    if (!r.done.IsNull())
    {
        r.done();
    }
}

} // namespace ns3
