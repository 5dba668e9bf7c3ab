/*
 * The rate monitor: each flow's congestion-control rate, every monitors/rate_interval.
 */
#ifndef RATE_MONITOR_H
#define RATE_MONITOR_H

#include "periodic-csv-monitor.h"

namespace ns3
{

/**
 * \ingroup dc-experiment
 * With monitors/rate_interval above 0, rates.csv (`time_us,flow,rate_gbps`) gets,
 * every interval, the congestion controller's rate of each flow in progress (started,
 * not completed), read from the flow's data sender. In a distributed run each rank
 * samples the flows whose source it simulates into rates-rank<R>.csv.
 */
class RateMonitor : public PeriodicCsvMonitor
{
  public:
    static constexpr const char* COLUMNS = "time_us,flow,rate_gbps";

    RateMonitor();

  private:
    Time GetInterval(const ExperimentMonitors& monitors) const override;
    void WriteRows(const ExperimentRunContext& context, const std::string& now,
                   std::ostream& out) override;
};

} // namespace ns3

#endif /* RATE_MONITOR_H */
