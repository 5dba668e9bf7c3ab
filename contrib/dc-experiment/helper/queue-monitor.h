/*
 * The queue monitor: switch egress queue bytes, every monitors/queue_interval.
 */
#ifndef QUEUE_MONITOR_H
#define QUEUE_MONITOR_H

#include "periodic-csv-monitor.h"

namespace ns3
{

/**
 * \ingroup dc-experiment
 * With monitors/queue_interval above 0, queues.csv (`time_us,node,port,class,bytes`)
 * gets, every interval, one row per switch egress queue holding data (from
 * monitors/queue_start to monitors/queue_end when given). In a
 * distributed run each rank samples its own switches into queues-rank<R>.csv.
 */
class QueueMonitor : public PeriodicCsvMonitor
{
  public:
    static constexpr const char* COLUMNS = "time_us,node,port,class,bytes";

    QueueMonitor();

  private:
    Time GetInterval(const ExperimentMonitors& monitors) const override;
    void GetWindow(const ExperimentMonitors& monitors, Time& start, Time& end) const override;
    void WriteRows(const ExperimentRunContext& context, const std::string& now,
                   std::ostream& out) override;
};

} // namespace ns3

#endif /* QUEUE_MONITOR_H */
