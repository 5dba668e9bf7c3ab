#include "link-rate-timeline.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

uint32_t
LinkRateTimeline::HostLink(const ExperimentTopology& topology, uint32_t host)
{
    for (uint32_t i = 0; i < topology.links.size(); ++i)
    {
        if (topology.links[i].a == host || topology.links[i].b == host)
        {
            return i;
        }
    }
    NS_ABORT_MSG("LinkRateTimeline: host " << host << " has no link");
}

uint32_t
LinkRateTimeline::RateLink(const ExperimentTopology& topology, const FaultEvent& event)
{
    return event.kind == FaultKind::LinkRate ? event.link : HostLink(topology, event.host);
}

LinkRateTimeline::LinkRateTimeline(const ExperimentTopology& topology, const FaultPlan& faults)
{
    m_changes.resize(topology.links.size());
    for (uint32_t i = 0; i < topology.links.size(); ++i)
    {
        m_changes[i].push_back(Change{Time(0), topology.links[i].rate});
    }
    std::vector<const FaultEvent*> events;
    for (const FaultEvent& e : faults.events)
    {
        if (e.kind == FaultKind::LinkRate || e.kind == FaultKind::HostRate)
        {
            events.push_back(&e);
        }
    }
    // In time order, those at one time in file order (as FaultInjector applies them).
    std::stable_sort(events.begin(), events.end(),
                     [](const FaultEvent* a, const FaultEvent* b) { return a->time < b->time; });
    for (const FaultEvent* e : events)
    {
        std::vector<Change>& c = m_changes[RateLink(topology, *e)];
        if (c.back().time == e->time)
        {
            c.back().rate = e->rate;
        }
        else
        {
            c.push_back(Change{e->time, e->rate});
        }
    }
}

DataRate
LinkRateTimeline::GetRate(uint32_t link, Time time) const
{
    const std::vector<Change>& c = m_changes[link];
    DataRate rate = c.front().rate;
    for (const Change& change : c)
    {
        if (change.time > time)
        {
            break;
        }
        rate = change.rate;
    }
    return rate;
}

bool
LinkRateTimeline::Changes(uint32_t link, Time from, Time to) const
{
    for (const Change& change : m_changes[link])
    {
        if (change.time > from && change.time <= to)
        {
            return true;
        }
    }
    return false;
}

double
LinkRateTimeline::Capacity(uint32_t link, Time from, Time to) const
{
    if (!Changes(link, from, to))
    {
        return static_cast<double>(GetRate(link, from).GetBitRate()) * (to - from).GetSeconds();
    }
    const std::vector<Change>& c = m_changes[link];
    double bits = 0;
    Time at = from;
    DataRate rate = GetRate(link, from);
    for (const Change& change : c)
    {
        if (change.time <= from)
        {
            continue;
        }
        if (change.time > to)
        {
            break;
        }
        bits += static_cast<double>(rate.GetBitRate()) * (change.time - at).GetSeconds();
        at = change.time;
        rate = change.rate;
    }
    return bits + static_cast<double>(rate.GetBitRate()) * (to - at).GetSeconds();
}

} // namespace ns3
