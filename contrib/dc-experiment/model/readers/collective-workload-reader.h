/*
 * Reads the "collectives" section of an experiment file.
 */
#ifndef COLLECTIVE_WORKLOAD_READER_H
#define COLLECTIVE_WORKLOAD_READER_H

#include "experiment-collective.h"
#include "node-composition-reader.h"

#include "ns3/experiment-topology.h"
#include "ns3/json-schema-reader.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The "collectives" section: an array of ring collectives (doc/dc-experiment.md,
 * "Collectives"). Each entry has "type" ("ring_allreduce" or "allgather"), "hosts"
 * (a selection as in "nodes", at least two distinct hosts, in ring order), "bytes"
 * (the model bytes each iteration reduces), "over" ("maestro" or "qps"), and
 * optionally "name", "start", "iterations", "compute_time" and, with "over":
 * "maestro", "maestro": {"endpoint": {MaestroEndpoint attributes}, "qp_manager":
 * {MaestroQpManager attributes}}.
 */
class CollectiveWorkloadReader
{
  public:
    /**
     * \param section the "collectives" value (null when absent)
     * \param parseComponent the experiment parser's attribute checks (as for "nodes")
     * \param effective receives the section with hosts named and defaults filled in
     *        (null when absent)
     * \throw ExperimentConfigError naming the experiment file and the JSON pointer
     */
    static std::vector<ExperimentCollective> Read(
        const JsonSchemaReader& reader, const nlohmann::json* section, const std::string& pointer,
        const ExperimentTopology& topology,
        const NodeCompositionReader::ComponentParser& parseComponent,
        nlohmann::ordered_json& effective);
};

} // namespace ns3

#endif /* COLLECTIVE_WORKLOAD_READER_H */
