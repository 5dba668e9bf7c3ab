#include "exactly-once-monitor.h"

#include "delivery-checker.h"

namespace ns3
{

void
ExactlyOnceMonitor::AddToSummary(const ExperimentRunContext& context,
                                 nlohmann::ordered_json& summary) const
{
    summary["exactly_once"] =
        DeliveryChecker::Summarize(context.GetConfig().GetFlows(), context.GetResults());
}

} // namespace ns3
