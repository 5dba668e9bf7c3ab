/*
 * The rate each link of an experiment runs at over the run: its topology rate, changed by
 * the link_rate and host_rate faults.
 */
#ifndef LINK_RATE_TIMELINE_H
#define LINK_RATE_TIMELINE_H

#include "fault-plan.h"

#include "ns3/data-rate.h"
#include "ns3/experiment-topology.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The rate in force on each link of a topology at any time of the run: the link's rate
 * from the topology, and from each `link_rate` or `host_rate` fault's time on, the fault's
 * rate (both ends of the link, as FaultInjector sets them; events at one time in file
 * order, the last winning). A link that is down keeps its rate here. Built once, before the
 * run; the queries walk the link's few changes.
 */
class LinkRateTimeline
{
  public:
    /** \return the link of host \p host (its only one). */
    static uint32_t HostLink(const ExperimentTopology& topology, uint32_t host);
    /** \return the link a LinkRate or HostRate event \p event changes. */
    static uint32_t RateLink(const ExperimentTopology& topology, const FaultEvent& event);

    LinkRateTimeline() = default;
    /** \p topology's links and the rate faults of \p faults. */
    LinkRateTimeline(const ExperimentTopology& topology, const FaultPlan& faults);

    /** \return the rate of link \p link at \p time (after any change at \p time). */
    DataRate GetRate(uint32_t link, Time time) const;
    /** \return true when link \p link's rate changes in (\p from, \p to]. */
    bool Changes(uint32_t link, Time from, Time to) const;
    /**
     * \return the bits link \p link can carry from \p from to \p to at the rates in force:
     * the integral of its rate, in one direction (double(rate) x seconds for a window
     * without a change).
     */
    double Capacity(uint32_t link, Time from, Time to) const;

  private:
    /** A rate from a time on. */
    struct Change
    {
        Time time;
        DataRate rate;
    };

    std::vector<std::vector<Change>> m_changes; //!< per link, by time; first at time 0
};

} // namespace ns3

#endif /* LINK_RATE_TIMELINE_H */
