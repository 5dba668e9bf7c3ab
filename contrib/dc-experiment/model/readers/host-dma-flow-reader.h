/*
 * Reads the "host_dma_flows" section of an experiment file.
 */
#ifndef HOST_DMA_FLOW_READER_H
#define HOST_DMA_FLOW_READER_H

#include "experiment-host-dma-flow.h"
#include "node-composition-reader.h"
#include "node-composition.h"

#include "ns3/experiment-topology.h"
#include "ns3/json-schema-reader.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The "host_dma_flows" section: an array of entries, each {"hosts" (a selection as in
 * "nodes"), "rnic" (default "rnic0"), "target" (default "mem0"), "start" (default
 * "0s"), "stop" (optional, after "start" and before "stop_time"), "attributes"
 * (ns3::HostDmaFlow: Kind, ChunkSize, MaxRate), "description"}, one stream per selected
 * host. Every selected host needs a host model from "nodes" in which \p rnic is an
 * RnicPort with a DMA path to \p target.
 */
class HostDmaFlowReader
{
  public:
    /**
     * \param section the "host_dma_flows" value (null when absent)
     * \param nodes the experiment's "nodes" (already read)
     * \param parseComponent the experiment parser's attribute checks
     * \param stopTime the run's stop_time
     * \param effective receives the section with hosts named and defaults filled in (null
     *        when absent)
     * \throw ExperimentConfigError naming the experiment file and the JSON pointer
     */
    static std::vector<ExperimentHostDmaFlow> Read(
        const JsonSchemaReader& reader, const nlohmann::json* section, const std::string& pointer,
        const ExperimentTopology& topology, const NodeComposition& nodes,
        const NodeCompositionReader::ComponentParser& parseComponent, Time stopTime,
        nlohmann::ordered_json& effective);
};

} // namespace ns3

#endif /* HOST_DMA_FLOW_READER_H */
