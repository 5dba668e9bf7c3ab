#include "experiment-workload.h"

namespace ns3
{

void
ExperimentWorkload::CheckConfig(const ExperimentRunContext& /* context */)
{
}

void
ExperimentWorkload::SetUp(ExperimentRunContext& /* context */)
{
}

void
ExperimentWorkload::Start(ExperimentRunContext& /* context */)
{
}

void
ExperimentWorkload::Collect(ExperimentRunContext& /* context */)
{
}

void
ExperimentWorkload::Write(ExperimentRunContext& /* context */)
{
}

void
ExperimentWorkload::AddToSummary(const ExperimentRunContext& /* context */,
                                 nlohmann::ordered_json& /* summary */) const
{
}

void
ExperimentWorkload::SetOnDone(Callback<void> done)
{
    m_onDone = done;
}

void
ExperimentWorkload::NotifyDone() const
{
    if (!m_onDone.IsNull())
    {
        m_onDone();
    }
}

} // namespace ns3
