/*
 * summary.json's "exactly_once": flows whose bytes were not placed exactly once.
 */
#ifndef EXACTLY_ONCE_MONITOR_H
#define EXACTLY_ONCE_MONITOR_H

#include "experiment-monitor.h"

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Adds "exactly_once" to summary.json (DeliveryChecker::Summarize) from the flows'
 * placement counts, which the runner takes from its DeliveryChecker into each flow's
 * result (merged over the ranks of a distributed run).
 */
class ExactlyOnceMonitor : public ExperimentMonitor
{
  public:
    void AddToSummary(const ExperimentRunContext& context,
                      nlohmann::ordered_json& summary) const override;
};

} // namespace ns3

#endif /* EXACTLY_ONCE_MONITOR_H */
