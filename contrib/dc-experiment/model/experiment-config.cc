#include "experiment-config.h"

#include "experiment-config-parser.h"
#include "transport-compatibility.h"

#include "ns3/hpcc-config-translator.h"
#include "ns3/json-schema-reader.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace ns3
{

namespace
{

/**
 * The directory the relative paths of the experiment file \p name are relative to: its
 * "paths_relative_to" (itself relative to the file's directory; ./roce-lab writes it into
 * an edited copy, input.json, naming the original's directory), else "" (the file's own).
 */
std::string
PathBase(const std::string& name, const nlohmann::json& root)
{
    const JsonSchemaReader reader(name);
    const char* key = ExperimentConfig::PATHS_RELATIVE_TO;
    const nlohmann::json* given = root.is_object() ? JsonSchemaReader::Find(root, key) : nullptr;
    if (!given)
    {
        return "";
    }
    const std::string pointer = JsonSchemaReader::Child("", key);
    if (!given->is_string() || given->get<std::string>().empty())
    {
        reader.Fail(pointer, "expected the path of a directory (relative paths in the file are "
                             "relative to it), got " +
                                 given->dump());
    }
    reader.CheckNoNul(*given, pointer);
    const std::string dir = reader.ResolvePath(given->get<std::string>());
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
    {
        reader.Fail(pointer, "no directory \"" + dir + "\"");
    }
    return dir;
}

} // namespace

// ------------------------------------------------------------------ ExperimentConfig

ExperimentConfig
ExperimentConfig::LoadFile(const std::string& path, const CommandLineAttributes& commandLine)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw ExperimentConfigError(path, "", "cannot open the file");
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (HpccConfigTranslator::IsHpccConfig(text.str()))
    {
        std::vector<std::string> warnings;
        const nlohmann::ordered_json json =
            HpccConfigTranslator::Translate(text.str(), path, warnings);
        ExperimentConfig config = LoadString(json.dump(2), path, commandLine);
        // What the translation says comes first, then what reading its files found.
        config.m_warnings.insert(config.m_warnings.begin(), warnings.begin(), warnings.end());
        return config;
    }
    return LoadString(text.str(), path, commandLine);
}

ExperimentConfig
ExperimentConfig::LoadString(const std::string& text, const std::string& name,
                             const CommandLineAttributes& commandLine)
{
    const nlohmann::json root = JsonSchemaReader(name).ParseText(text);
    const JsonSchemaReader reader(name, PathBase(name, root));
    ExperimentConfig config;
    config.m_source = name;
    ExperimentConfigParser parser(reader, config, commandLine);
    const std::vector<Ptr<WorkloadGenerator>> workloads = parser.Parse(root);
    // Parsed: now the generators make the flows, each from its own streams.
    int64_t stream = WORKLOAD_STREAM;
    for (const Ptr<WorkloadGenerator>& workload : workloads)
    {
        stream += workload->AssignStreams(stream);
        for (ExperimentFlow& flow : workload->Generate(config.m_topology))
        {
            flow.id = static_cast<uint32_t>(config.m_flows.size());
            config.m_flows.push_back(std::move(flow));
        }
        workload->Dispose();
    }
    if (config.m_flows.empty() && config.m_collectives.empty() && config.m_jobs.empty() &&
        config.m_notStartedFlows.empty())
    {
        reader.Fail("/flows", "the experiment has no flows (give \"flows\", \"flow_sets\", "
                              "\"flows_file\", \"workload\", \"collectives\" or \"jobs\")");
    }
    // Hosts with NIC profiles of their own ("nodes"): both ends of each flow must talk.
    TransportCompatibility::Check(reader, config);
    return config;
}

const std::string&
ExperimentConfig::GetSource() const
{
    return m_source;
}

uint32_t
ExperimentConfig::GetSeed() const
{
    return m_seed;
}

Time
ExperimentConfig::GetStopTime() const
{
    return m_stopTime;
}

bool
ExperimentConfig::GetProgress() const
{
    return m_progress;
}

const std::string&
ExperimentConfig::GetScheduler() const
{
    return m_scheduler;
}

const ExperimentTopology&
ExperimentConfig::GetTopology() const
{
    return m_topology;
}

const ExperimentComponent&
ExperimentConfig::GetNic() const
{
    return m_nic;
}

const ExperimentComponent&
ExperimentConfig::GetSwitch() const
{
    return m_switch;
}

const ExperimentComponent&
ExperimentConfig::GetLink() const
{
    return m_link;
}

const std::vector<ExperimentFlow>&
ExperimentConfig::GetNotStartedFlows() const
{
    return m_notStartedFlows;
}

const std::vector<std::string>&
ExperimentConfig::GetWarnings() const
{
    return m_warnings;
}

const ExperimentComponent&
ExperimentConfig::GetBuffer() const
{
    return m_buffer;
}

const ExperimentComponent&
ExperimentConfig::GetBuffer(uint32_t sw) const
{
    return sw < m_bufferOfSwitch.size() && m_bufferOfSwitch[sw] >= 0
               ? m_bufferSwitches[m_bufferOfSwitch[sw]]
               : m_buffer;
}

const ExperimentComponent*
ExperimentConfig::GetLoadBalancer(uint32_t sw) const
{
    return sw < m_loadBalancerOfSwitch.size() && m_loadBalancerOfSwitch[sw] >= 0
               ? &m_loadBalancers[m_loadBalancerOfSwitch[sw]]
               : nullptr;
}

const ExperimentComponent*
ExperimentConfig::GetPathEntropy(uint32_t host) const
{
    return host < m_pathEntropyOfHost.size() && m_pathEntropyOfHost[host] >= 0
               ? &m_pathEntropies[m_pathEntropyOfHost[host]]
               : nullptr;
}

bool
ExperimentConfig::HasLoadBalancing() const
{
    return !m_loadBalancers.empty() || !m_pathEntropies.empty();
}

const ExperimentComponent&
ExperimentConfig::GetEcn() const
{
    return m_ecn;
}

const std::vector<EcnLinkRateEntry>&
ExperimentConfig::GetEcnByLinkRate() const
{
    return m_ecnByLinkRate;
}

const ExperimentComponent&
ExperimentConfig::GetCongestionControl() const
{
    return m_cc;
}

const ExperimentComponent&
ExperimentConfig::GetCongestionControl(uint32_t host) const
{
    const ExperimentComponent* own = m_nodes.GetCongestionControl(host);
    return own ? *own : m_cc;
}

const ExperimentComponent&
ExperimentConfig::GetLossRecovery() const
{
    return m_lossRecovery;
}

const ExperimentComponent&
ExperimentConfig::GetQueuePair() const
{
    return m_qp;
}

std::string
ExperimentConfig::CheckStream(uint64_t bytes, uint64_t messageBytes, uint64_t outstanding,
                              std::string& field)
{
    if (bytes < 1 || bytes > MAX_STREAM_BYTES)
    {
        field = "bytes";
        return "a message stream's total must be in [1, " + std::to_string(MAX_STREAM_BYTES) +
               "] bytes, got " + std::to_string(bytes);
    }
    if (messageBytes < 1 || messageBytes > MAX_FLOW_BYTES)
    {
        field = "message_bytes";
        return "must be in [1, " + std::to_string(MAX_FLOW_BYTES) + "] bytes, got " +
               std::to_string(messageBytes);
    }
    if (messageBytes > bytes)
    {
        field = "message_bytes";
        return "message_bytes " + std::to_string(messageBytes) + " exceeds the flow's bytes " +
               std::to_string(bytes);
    }
    if (outstanding < 1 || outstanding > MAX_OUTSTANDING)
    {
        field = "outstanding";
        return "must be in [1, " + std::to_string(MAX_OUTSTANDING) + "], got " +
               std::to_string(outstanding);
    }
    if (outstanding * messageBytes > MAX_FLOW_BYTES)
    {
        field = "outstanding";
        return "outstanding x message_bytes = " + std::to_string(outstanding * messageBytes) +
               " bytes in flight exceeds " + std::to_string(MAX_FLOW_BYTES) +
               " (keeps the PSNs in flight inside the 24-bit PSN window)";
    }
    field.clear();
    return "";
}

const std::vector<ExperimentFlow>&
ExperimentConfig::GetFlows() const
{
    return m_flows;
}

const ExperimentPfcSafety&
ExperimentConfig::GetPfcSafety() const
{
    return m_pfcSafety;
}

const ExperimentComponent&
ExperimentConfig::GetDeadlockMonitor() const
{
    return m_deadlockMonitor;
}

const ExperimentComponent&
ExperimentConfig::GetPfcWatchdog() const
{
    return m_pfcWatchdog;
}

const ExperimentMonitors&
ExperimentConfig::GetMonitors() const
{
    return m_monitors;
}

const FaultPlan&
ExperimentConfig::GetFaults() const
{
    return m_faults;
}

const std::vector<ExperimentCollective>&
ExperimentConfig::GetCollectives() const
{
    return m_collectives;
}

const std::vector<ExperimentJob>&
ExperimentConfig::GetJobs() const
{
    return m_jobs;
}

const std::vector<ExperimentHostDmaFlow>&
ExperimentConfig::GetHostDmaFlows() const
{
    return m_hostDmaFlows;
}

const NodeComposition&
ExperimentConfig::GetNodes() const
{
    return m_nodes;
}

const ExperimentOutputs&
ExperimentConfig::GetOutputs() const
{
    return m_outputs;
}

const PcapSelection&
ExperimentConfig::GetPcap() const
{
    return m_pcap;
}

const nlohmann::ordered_json&
ExperimentConfig::EffectiveJson() const
{
    return m_effective;
}

} // namespace ns3
