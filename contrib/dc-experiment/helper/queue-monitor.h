/*
 * The queue monitor: switch egress queue bytes, every monitors/queue_interval.
 */
#ifndef QUEUE_MONITOR_H
#define QUEUE_MONITOR_H

#include "experiment-monitor.h"

#include <fstream>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * With monitors/queue_interval above 0, queues.csv (`time_us,node,port,class,bytes`)
 * gets, every interval, one row per switch egress queue holding data. In a
 * distributed run each rank samples its own switches into queues-rank<R>.csv.
 */
class QueueMonitor : public ExperimentMonitor
{
  public:
    static constexpr const char* COLUMNS = "time_us,node,port,class,bytes";

    void Install(ExperimentRunContext& context) override;
    void Collect(ExperimentRunContext& context) override;

  private:
    void Sample();

    const ExperimentRunContext* m_context{nullptr};
    std::ofstream m_file;
};

} // namespace ns3

#endif /* QUEUE_MONITOR_H */
