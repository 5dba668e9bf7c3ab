#include "experiment-monitor.h"

namespace ns3
{

void
ExperimentMonitor::CheckConfig(const ExperimentRunContext& /* context */)
{
}

void
ExperimentMonitor::Prepare(ExperimentRunContext& /* context */)
{
}

void
ExperimentMonitor::Install(ExperimentRunContext& /* context */)
{
}

void
ExperimentMonitor::Collect(ExperimentRunContext& /* context */)
{
}

void
ExperimentMonitor::Write(ExperimentRunContext& /* context */)
{
}

void
ExperimentMonitor::AddToSummary(const ExperimentRunContext& /* context */,
                                nlohmann::ordered_json& /* summary */) const
{
}

} // namespace ns3
