#include "experiment-composer.h"

namespace ns3
{

void
ExperimentComposer::CheckConfig(const ExperimentRunContext& /* context */)
{
}

void
ExperimentComposer::Compose(ExperimentRunContext& /* context */)
{
}

void
ExperimentComposer::Install(ExperimentRunContext& /* context */)
{
}

} // namespace ns3
