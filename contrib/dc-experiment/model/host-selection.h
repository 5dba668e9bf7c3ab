/*
 * The one grammar by which an experiment file names hosts: one host (a flow's ends,
 * "cc_hosts") or a selection ("nodes", "collectives", "host_dma_flows",
 * "monitors/hostping").
 */
#ifndef HOST_SELECTION_H
#define HOST_SELECTION_H

#include "ns3/experiment-topology.h"
#include "ns3/json-schema-reader.h"

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Hosts named in an experiment file, resolved to their indices into the topology's
 * hosts.
 *
 * One host (SelectHost): its name ("h3") or its index. A switch's name, an unknown
 * name or an index out of range is an error naming the pointer and the hosts that
 * exist.
 *
 * A selection (Select): one host as above; "all"; a name range "h0-h7" (both ends
 * included, every name between them must exist); {"range": [first, end]} (indices,
 * end excluded); {"under": "s0"} or {"under": ["s0", "s1"]} (the hosts whose link goes
 * to those switches: hosts carry no role of their own, their ToR stands for it); or a
 * non-empty array of any of these. A host selected twice is an error.
 */
class HostSelection
{
  public:
    /** \p reader and \p topology must outlive the selection. */
    HostSelection(const JsonSchemaReader& reader, const ExperimentTopology& topology);

    /** \return the host \p value names. \throw ExperimentConfigError at \p pointer */
    uint32_t SelectHost(const nlohmann::json& value, const std::string& pointer) const;
    /**
     * \return the hosts \p value selects, in selection order
     * \throw ExperimentConfigError at \p pointer for an unknown host or switch, a bad form,
     *        or a host selected twice
     */
    std::vector<uint32_t> Select(const nlohmann::json& value, const std::string& pointer) const;

  private:
    /** \return the index of host \p name. \throw ExperimentConfigError when none */
    uint32_t ByName(const std::string& name, const std::string& pointer) const;
    /** Append the hosts one form (not an array) selects to \p out. */
    void AddForm(const nlohmann::json& v, const std::string& pointer,
                 std::vector<uint32_t>& out) const;
    /** Append the hosts linked to the switches \p under names to \p out. */
    void AddUnder(const nlohmann::json& v, const std::string& pointer,
                  std::vector<uint32_t>& out) const;

    const JsonSchemaReader& m_reader;
    const ExperimentTopology& m_topology;
    std::map<std::string, uint32_t> m_hostIndex;
};

} // namespace ns3

#endif /* HOST_SELECTION_H */
