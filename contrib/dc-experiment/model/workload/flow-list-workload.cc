#include "flow-list-workload.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FlowListWorkload);

TypeId
FlowListWorkload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FlowListWorkload")
                            .SetParent<WorkloadGenerator>()
                            .SetGroupName("DcExperiment")
                            .AddConstructor<FlowListWorkload>();
    return tid;
}

void
FlowListWorkload::SetFlows(std::vector<ExperimentFlow> flows)
{
    m_flows = std::move(flows);
}

std::vector<ExperimentFlow>
FlowListWorkload::Generate(const ExperimentTopology& /* topology */)
{
    return m_flows;
}

} // namespace ns3
