#include "experiment-run-context.h"

#include "ns3/abort.h"
#include "ns3/experiment-config-error.h"
#include "ns3/fabric-partitioner.h"

#include <filesystem>

namespace ns3
{

ExperimentRunContext::ExperimentRunContext(const ExperimentConfig& config,
                                           TopologyBuilder& topology,
                                           const std::string& outputDirectory,
                                           RunReadmeWriter& readme)
    : m_config(config)
    , m_topology(topology)
    , m_outputDirectory(outputDirectory)
    , m_readme(readme)
{
}

const ExperimentConfig&
ExperimentRunContext::GetConfig() const
{
    return m_config;
}

TopologyBuilder&
ExperimentRunContext::GetTopology() const
{
    return m_topology;
}

RunReadmeWriter&
ExperimentRunContext::GetReadme() const
{
    return m_readme;
}

const std::string&
ExperimentRunContext::GetOutputDirectory() const
{
    return m_outputDirectory;
}

std::string
ExperimentRunContext::OutputPath(const std::string& name) const
{
    return (std::filesystem::path(m_outputDirectory) / name).string();
}

void
ExperimentRunContext::SetPartition(const ExperimentPartition* partition)
{
    m_partition = partition;
}

const ExperimentPartition*
ExperimentRunContext::GetPartition() const
{
    return m_partition;
}

void
ExperimentRunContext::AssignSystemIds()
{
    if (!IsDistributed())
    {
        return;
    }
    std::vector<uint32_t> systemIds = FabricPartitioner::Partition(
        m_config.GetTopology(), m_partition->GetNRanks(), m_partition->GetMode(),
        JsonSchemaReader(m_config.GetSource()), "/topology");
    m_topology.SetSystemIds(std::move(systemIds));
}

bool
ExperimentRunContext::IsDistributed() const
{
    return m_partition && m_partition->GetNRanks() > 1;
}

bool
ExperimentRunContext::IsLocal(Ptr<Node> node) const
{
    return !IsDistributed() || node->GetSystemId() == m_partition->GetRank();
}

bool
ExperimentRunContext::IsWritingRank() const
{
    return !IsDistributed() || m_partition->GetRank() == 0;
}

std::string
ExperimentRunContext::MonitorFileName(const std::string& stem, bool forReadme) const
{
    if (!IsDistributed())
    {
        return stem + ".csv";
    }
    return stem + "-rank" + (forReadme ? "<R>" : std::to_string(m_partition->GetRank())) + ".csv";
}

std::string
ExperimentRunContext::PerRankNote() const
{
    return IsDistributed() ? "; one file per MPI rank R, for the switches and flows that rank "
                             "simulated (doc/mpi.md)"
                           : "";
}

void
ExperimentRunContext::SetFlows(FlowQueuePairs* flowQps, Callback<void, uint32_t> openFlow)
{
    m_flowQps = flowQps;
    m_openFlow = openFlow;
}

FlowQueuePairs&
ExperimentRunContext::GetFlowQueuePairs() const
{
    NS_ABORT_MSG_UNLESS(m_flowQps, "the flows are not set up yet");
    return *m_flowQps;
}

void
ExperimentRunContext::OpenFlow(uint32_t id) const
{
    m_openFlow(id);
}

void
ExperimentRunContext::SetResults(const std::vector<ExperimentFlowResult>* results)
{
    m_results = results;
}

const std::vector<ExperimentFlowResult>&
ExperimentRunContext::GetResults() const
{
    NS_ABORT_MSG_UNLESS(m_results, "the flows are not set up yet");
    return *m_results;
}

void
ExperimentRunContext::SetEndTime(Time end)
{
    m_endTime = end;
}

Time
ExperimentRunContext::GetEndTime() const
{
    return m_endTime;
}

} // namespace ns3
