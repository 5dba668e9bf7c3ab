/*
 * Reads a parsed experiment document into an ExperimentConfig.
 */
#ifndef EXPERIMENT_CONFIG_PARSER_H
#define EXPERIMENT_CONFIG_PARSER_H

#include "command-line-attributes.h"
#include "experiment-config.h"

#include "ns3/experiment-component-reader.h"
#include "ns3/json-schema-reader.h"
#include "ns3/workload-generator.h"

#include <nlohmann/json.hpp>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Reads a parsed experiment document into an ExperimentConfig, building its effective
 * (fully defaulted) form on the way: checks the top-level keys and hands each section
 * to its reader (ExperimentTopology, ExperimentComponentReader, CongestionControlReader,
 * SwitchBufferAssignment, FlowListReader, FlowSetReader, PoissonWorkloadReader,
 * MonitorsReader, PfcSafetyConfigReader, OutputsReader, PcapSelection, FaultPlan,
 * NodeCompositionReader), then checks what spans sections (line rates against the
 * congestion control, the ports' Mtu against the queue pairs' packets).
 *
 * Parsing makes no flows: the workload sections become WorkloadGenerators, which
 * ExperimentConfig runs once the whole file has been read.
 */
class ExperimentConfigParser
{
  public:
    ExperimentConfigParser(const JsonSchemaReader& reader, ExperimentConfig& config,
                           const CommandLineAttributes& commandLine);

    /**
     * Read \p root into the config.
     * \return the workload generators, in the order their flows are numbered
     * \throw ExperimentConfigError
     */
    std::vector<Ptr<WorkloadGenerator>> Parse(const nlohmann::json& root);

  private:
    void ParseBuffers(const nlohmann::json& root);
    void CheckLinkMtu() const;

    const JsonSchemaReader& m_reader;
    ExperimentConfig& m_config;
    ExperimentComponentReader m_components;
    const CommandLineAttributes& m_commandLine; //!< --ns3::Type::Attribute=value: they win
};

} // namespace ns3

#endif /* EXPERIMENT_CONFIG_PARSER_H */
