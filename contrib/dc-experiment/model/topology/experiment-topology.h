/*
 * The network of an experiment: hosts, switches and links, from the
 * "topology" section of an experiment file.
 */
#ifndef EXPERIMENT_TOPOLOGY_H
#define EXPERIMENT_TOPOLOGY_H

#include "ns3/data-rate.h"
#include "ns3/json-schema-reader.h"
#include "ns3/nstime.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * One link of the expanded topology. Nodes are numbered hosts first
 * (0 .. nHosts-1), then switches (nHosts .. nHosts+nSwitches-1).
 */
struct ExperimentLink
{
    uint32_t a;
    uint32_t b;
    DataRate rate;
    Time delay;
};

/**
 * \ingroup dc-experiment
 * A topology expanded to named hosts, named switches and links. Built-in types
 * (dumbbell, incast, leaf_spine) name hosts h0.. and switches s0..; custom
 * topologies declare their names. Every host has exactly one link, to a
 * switch, and every node is connected to the first host.
 */
struct ExperimentTopology
{
    std::string type; //!< dumbbell, incast, leaf_spine, fat_tree, regional, custom or file
    std::vector<std::string> hosts;
    std::vector<std::string> switches;
    /**
     * Role of each switch, parallel to switches ("" for none): fat_tree "tor",
     * "agg", "core"; leaf_spine "leaf", "spine"; regional "T0", "T1", "T2",
     * "RH"; custom (and roce-lab files) as
     * declared by a switch's "role". Buffer configurations can be given per role.
     */
    std::vector<std::string> switchRoles;
    std::vector<ExperimentLink> links;
    /** For HPCC-format files: host index of each HPCC node id (-1: switch); else empty. */
    std::vector<int64_t> hpccHostOfNode;
    /** What reading a topology file ignored, one line each (for the run's warnings). */
    std::vector<std::string> warnings;

    uint32_t GetNNodes() const;
    /** \return the name of node \p index (host or switch). */
    const std::string& GetNodeName(uint32_t index) const;
    /** \return the distinct non-empty switch roles, in order of first appearance. */
    std::vector<std::string> GetSwitchRoles() const;

    /**
     * Read the "topology" object \p topo found at \p pointer.
     * \param[out] effective the section with every default filled in
     * \throw ExperimentConfigError
     */
    static ExperimentTopology Parse(const JsonSchemaReader& reader, const nlohmann::json& topo,
                                    const std::string& pointer, nlohmann::ordered_json& effective);

  private:
    /** The "file" type: {"path", "format": "roce-lab" | "hpcc"}. */
    static void ParseFile(const JsonSchemaReader& reader, const nlohmann::json& topo,
                          const std::string& pointer, ExperimentTopology& t,
                          nlohmann::ordered_json& effective);
};

} // namespace ns3

#endif /* EXPERIMENT_TOPOLOGY_H */
