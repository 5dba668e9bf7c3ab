/*
 * Reads "cc_hosts" into the node composition and checks the congestion control against
 * the link rates.
 */
#ifndef CONGESTION_CONTROL_READER_H
#define CONGESTION_CONTROL_READER_H

#include "experiment-component-reader.h"
#include "node-composition.h"

#include "ns3/experiment-topology.h"
#include "ns3/host-selection.h"
#include "ns3/json-schema-reader.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The congestion control of each host: "cc" for all, "cc_hosts" ([{"hosts": [...],
 * "cc": {"type": ..., attributes}}, ...]) for a NIC generation mix, read into the hosts'
 * NodeComposition (where a NIC profile of "nodes" may also give one). Check() builds each
 * algorithm with its attributes and asks it (RdmaCongestionOps::CheckAttributes)
 * whether it can run at the line rate of each host's link, so that what would abort
 * when a queue pair starts is a located error at load time.
 */
class CongestionControlReader
{
  public:
    /**
     * Read "cc_hosts" (\p entries, null when absent: \p effective and \p nodes untouched).
     * \param nodes receives the entries (NodeComposition::congestionControls) and, per
     *        host, its entry (NodeSpec::cc; its hosts are sized when entries are given)
     * \throw ExperimentConfigError at a host given twice, naming the first
     */
    static void ReadHosts(const JsonSchemaReader& reader, const nlohmann::json* entries,
                          const std::string& pointer, const ExperimentTopology& topology,
                          const HostSelection& hosts, const ExperimentComponentReader& components,
                          NodeComposition& nodes, nlohmann::ordered_json& effective);

    /**
     * Check "cc" and the hosts' own congestion controls in \p nodes (the "cc_hosts"
     * entries) against each host's line rate.
     * \param topologyJson the "topology" section as written, \p topologyEffective as
     *        read (to name the field that set a rate)
     * \throw ExperimentConfigError at the attribute, naming where the rate was set
     */
    static void Check(const JsonSchemaReader& reader, const nlohmann::json& topologyJson,
                      const nlohmann::ordered_json& topologyEffective,
                      const ExperimentTopology& topology, const ExperimentComponent& cc,
                      const NodeComposition& nodes);
};

} // namespace ns3

#endif /* CONGESTION_CONTROL_READER_H */
