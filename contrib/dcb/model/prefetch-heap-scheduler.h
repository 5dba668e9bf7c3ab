/*
 * An event queue that fetches the next event's object while the current one runs.
 */
#ifndef PREFETCH_HEAP_SCHEDULER_H
#define PREFETCH_HEAP_SCHEDULER_H

#include "ns3/scheduler.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup dcb
 * A binary min-heap of events ordered by (time, insertion id), as every ns-3 scheduler
 * orders them, that asks the processor to fetch the next event's object as soon as the
 * current event is taken out: the simulator runs the current event while that load is
 * in flight, so the next event's first touch of its object (an arrival event written
 * one link delay earlier, usually out of cache) costs less.
 *
 * Outputs are those of any other ns-3 scheduler: the order is the same total order.
 * Remove (a cancelled event taken out early) is linear; ns-3 removes events only for
 * Simulator::Remove, which the fabric does not call per frame.
 */
class PrefetchHeapScheduler : public Scheduler
{
  public:
    static TypeId GetTypeId();

    PrefetchHeapScheduler() = default;
    ~PrefetchHeapScheduler() override = default;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

  private:
    std::vector<Event> m_heap; //!< binary min-heap by key
};

} // namespace ns3

#endif /* PREFETCH_HEAP_SCHEDULER_H */
