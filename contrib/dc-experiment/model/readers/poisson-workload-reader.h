/*
 * Reads the "workload" section of an experiment file (Poisson arrivals).
 */
#ifndef POISSON_WORKLOAD_READER_H
#define POISSON_WORKLOAD_READER_H

#include "ns3/experiment-topology.h"
#include "ns3/json-schema-reader.h"
#include "ns3/nstime.h"
#include "ns3/poisson-flow-generator.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * "workload": {"type": "poisson", "cdf", "cdf_format", "load", "duration", "start",
 * "priority", "verb", "host_link_rate", "load_reference"}: a PoissonFlowGenerator,
 * configured and checked here (the flow-size file is read and its sizes checked), run
 * after the file is parsed.
 */
class PoissonWorkloadReader
{
  public:
    /**
     * Read \p workload (null when absent: no generator, \p effective null).
     * \throw ExperimentConfigError
     */
    static Ptr<PoissonFlowGenerator> Read(const JsonSchemaReader& reader,
                                          const nlohmann::json* workload,
                                          const std::string& pointer,
                                          const ExperimentTopology& topology, Time stopTime,
                                          nlohmann::ordered_json& effective);
};

} // namespace ns3

#endif /* POISSON_WORKLOAD_READER_H */
