/*
 * A workload given in full: the "flows" array or a "flows_file" trace.
 */
#ifndef FLOW_LIST_WORKLOAD_H
#define FLOW_LIST_WORKLOAD_H

#include "workload-generator.h"

#include "ns3/experiment-config.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Replays a list of flows read in full: the experiment file's "flows" (FlowListReader)
 * or a trace ("flows_file": CSV or HPCC flow file, FlowTrace). Draws nothing.
 */
class FlowListWorkload : public WorkloadGenerator
{
  public:
    static TypeId GetTypeId();

    /** Set the flows to replay (checked by the reader: hosts exist, src != dst). */
    void SetFlows(std::vector<ExperimentFlow> flows);

    std::vector<ExperimentFlow> Generate(const ExperimentTopology& topology) override;

  private:
    std::vector<ExperimentFlow> m_flows;
};

} // namespace ns3

#endif /* FLOW_LIST_WORKLOAD_H */
