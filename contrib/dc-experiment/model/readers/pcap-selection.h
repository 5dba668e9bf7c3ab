/*
 * The "pcap" section of an experiment file: which nodes' ports write packet captures.
 */
#ifndef PCAP_SELECTION_H
#define PCAP_SELECTION_H

#include "ns3/experiment-topology.h"
#include "ns3/json-schema-reader.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The ports that write pcap files: `"pcap": {"hosts": [...], "switches": [...], "ports": ...}`.
 *
 * "hosts" and "switches" are "all" or arrays whose entries are node names as the topology
 * names them ("h3", "s0"), ranges of such names ("h0..h7": the same prefix, both ends
 * included) or, for switches, a role ("tor", "leaf", "T1"); a host may also be given by its
 * index. "ports" is "all" (the default) or an array of port numbers (a node's devices in the
 * order of its links, as ports.csv numbers them). Each selected port writes
 * pcap/<node>-<port>.pcap (LINKTYPE_ETHERNET, nanosecond timestamps, the frames it sends and
 * receives) in the run's output directory.
 */
class PcapSelection
{
  public:
    /**
     * Read the section \p section (nullptr: absent, nothing captured) found at \p pointer.
     * \param[out] effective the section with names resolved, for config.json
     * \throw ExperimentConfigError
     */
    static PcapSelection Read(const JsonSchemaReader& reader, const nlohmann::json* section,
                              const std::string& pointer, const ExperimentTopology& topology,
                              nlohmann::ordered_json& effective);

    /** \return the selected nodes (hosts 0 .. H-1, then switches), ascending. */
    const std::vector<uint32_t>& GetNodes() const;
    /** \return true if port \p port of a selected node is captured. */
    bool IncludesPort(uint32_t port) const;
    /** \return true if nothing is captured. */
    bool IsEmpty() const;
    /** \return the capture file of port \p port of node \p name, relative to the run. */
    static std::string FileName(const std::string& name, uint32_t port);

  private:
    std::vector<uint32_t> m_nodes;
    bool m_allPorts{true};
    std::vector<uint32_t> m_ports; //!< when not all, ascending
};

} // namespace ns3

#endif /* PCAP_SELECTION_H */
