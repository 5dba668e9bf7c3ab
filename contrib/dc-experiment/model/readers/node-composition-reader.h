/*
 * Reads the "nodes" section of an experiment file into a NodeComposition.
 */
#ifndef NODE_COMPOSITION_READER_H
#define NODE_COMPOSITION_READER_H

#include "node-composition.h"

#include "ns3/experiment-topology.h"
#include "ns3/host-model.h"
#include "ns3/json-schema-reader.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The "nodes" section: an array of entries, each selecting hosts and giving any of
 * "nic_profile", "host_model", "nic_cache" and "virtual_nics" (doc/dc-experiment.md,
 * "Per-node composition"). Entries apply in file order and field by field: a later entry's
 * field replaces an earlier one's for the hosts both select; fields an entry does
 * not give are left as earlier entries set them. A host's NIC profile with a "cc" section
 * gives the host its congestion control (NodeSpec::cc), as "cc_hosts" does.
 *
 * Selection ("hosts"): HostSelection's forms ("all"; a host name; a name range
 * "h0-h7"; a host index; {"range": [first, end]}; {"under": switches}; or an array of
 * any of these). A host selected twice by one entry is an error.
 */
class NodeCompositionReader
{
  public:
    /**
     * Parses a component section (the experiment parser's own checks: TypeId,
     * attributes, ranges) and returns its effective JSON.
     */
    using ComponentParser = std::function<nlohmann::ordered_json(
        const nlohmann::json* section, const std::string& pointer, const std::string& typeName,
        const std::string& baseType, ExperimentComponent& out)>;

    /**
     * \param section the "nodes" value (null when absent: \p composition untouched)
     * \param composition the hosts' composition so far ("cc_hosts",
     *        CongestionControlReader::ReadHosts), completed with the section; a host's final
     *        NIC profile with a "cc" becomes its congestion control
     * \param effective receives the section with every name resolved
     * \throw ExperimentConfigError naming the experiment file (or the NIC profile or
     *        host file) and the JSON pointer; a host whose NIC profile gives a congestion
     *        control that "cc_hosts" gave already: at the "nic_profile", naming the other
     */
    static void Read(const JsonSchemaReader& reader, const nlohmann::json* section,
                     const std::string& pointer, const ExperimentTopology& topology,
                     const ComponentParser& parseComponent, NodeComposition& composition,
                     nlohmann::ordered_json& effective);

    /**
     * Build the host model \p model describes (preset or file, then its overrides), read
     * from \p reader's file.
     * \throw ExperimentConfigError at \p model's pointer (an override: at its attribute),
     *        or naming the host graph file for an error inside it
     */
    static Ptr<HostModel> BuildHostModel(const NodeHostModel& model,
                                         const JsonSchemaReader& reader);

    /**
     * \return the NIC profile file for \p name: a path, or nic-profiles/<name>.json,
     * relative to the reader's path base (JsonSchemaReader::ResolvePath)
     */
    static std::string ResolveProfile(const JsonSchemaReader& reader, const std::string& name);
};

} // namespace ns3

#endif /* NODE_COMPOSITION_READER_H */
