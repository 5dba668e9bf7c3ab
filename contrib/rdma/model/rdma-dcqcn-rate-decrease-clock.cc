#include "rdma-dcqcn-rate-decrease-clock.h"

#include "rdma-dcqcn-alpha-rule.h"

namespace ns3
{

bool
RdmaDcqcnRateDecreaseClock::CutsNow(bool hasCut, Time lastCut, Time now) const
{
    return interval.IsZero() ||
           (timing == SINCE_LAST_CUT && (!hasCut || now - lastCut >= interval));
}

Time
RdmaDcqcnRateDecreaseClock::NextCheck(Time lastCut, Time firstCnp, Time now) const
{
    // PeriodicCheck: the next tick of the clock (a tick at now has run already).
    return timing == SINCE_LAST_CUT ? lastCut + interval
                                    : RdmaDcqcnNextTick(firstCnp, interval, now);
}

} // namespace ns3
