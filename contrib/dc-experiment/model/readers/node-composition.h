/*
 * The composition of each host, resolved: its congestion control ("cc_hosts" or its NIC
 * profile's), and the "nodes" section's NIC profile, host model and NIC on-chip memory
 * (cache model and QP scheduler).
 */
#ifndef NODE_COMPOSITION_H
#define NODE_COMPOSITION_H

#include "ns3/experiment-component.h"

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * A NIC profile file (configs/nic-profiles/NAME.json) applied to one host:
 * its transport sections ("cc", "loss_recovery", "qp"). The fabric-wide sections a profile may also
 * hold
 * ("switch", "link", "buffer", "ecn") cannot differ per host; they are listed in
 * \p fabricSections and not applied.
 */
struct NodeNicProfile
{
    std::string name;                        //!< as written: a name or a path
    std::string path;                        //!< the resolved file
    bool hasCc{false};                       //!< the profile has a "cc" section
    ExperimentComponent cc;                  //!< its congestion control
    bool hasLossRecovery{false};             //!< it has a "loss_recovery" section
    ExperimentComponent lossRecovery;        //!< its loss recovery
    ExperimentComponent qp;                  //!< its "qp" attributes (may be empty)
    std::vector<std::string> fabricSections; //!< present in the file, not applied per host
    std::string pointer;                     //!< of the "nic_profile" field
};

/**
 * \ingroup dc-experiment
 * An intra-host model for one host: a preset of HostPresetHelper or a file read by
 * HostModelReader, then per-resource attribute overrides. The NIC's DMA goes from
 * the RnicPort \p rnic to \p memory.
 */
struct NodeHostModel
{
    std::string preset; //!< a HostPresetHelper name, or "" for \p file
    std::string file;   //!< a HostModelReader file (resolved), or ""
    std::string rnic{"rnic0"};
    std::string memory{"mem0"};
    /** (resource, attribute, value) in file order. */
    std::vector<std::pair<std::string, std::pair<std::string, std::string>>> overrides;
    std::string label;   //!< for nodes.csv: the preset or file name, "+n overrides"
    std::string pointer; //!< of the "host_model" field
};

/**
 * \ingroup dc-experiment
 * The NIC's on-chip memory: an RnicCacheModel (QPC, MTT, WQE caches) and the QP
 * scheduler that turns its misses into PCIe fetches.
 */
struct NodeNicCache
{
    std::string label;             //!< the preset name, or "custom"
    ExperimentComponent scheduler; //!< a QpScheduler type and attributes
    ExperimentComponent cache;     //!< ns3::RnicCacheModel attributes
    std::string pointer;           //!< of the "nic_cache" field
};

/**
 * \ingroup dc-experiment
 * The DFabric rack a host is a compute node of ("dfabric_rack", DfabricRackReader):
 * DfabricRackHelper's keys after the entries that gave them, field by field. The hosts
 * under one ToR with a description form one rack (they must have the same one).
 */
struct NodeDfabricRack
{
    nlohmann::json description; //!< DfabricRackHelper::Configure keys (no "hosts")
    std::string pointer;        //!< of the last entry's "dfabric_rack" field
    std::size_t entry{0};       //!< that entry's index in "nodes"
};

/**
 * \ingroup dc-experiment
 * A congestion control of its own for some hosts: a "cc_hosts" entry, or the "cc" of a
 * NIC profile given in "nodes".
 */
struct NodeCongestionControl
{
    ExperimentComponent cc; //!< the algorithm and its attributes
    std::string pointer;    //!< where the file gives it: "/cc_hosts/K" or ".../nic_profile"
};

/**
 * \ingroup dc-experiment
 * What the composition gives one host; each field is absent (-1) or an index
 * into NodeComposition's tables.
 */
struct NodeSpec
{
    int32_t cc{-1}; //!< into NodeComposition::congestionControls; -1: the experiment's "cc"
    int32_t nicProfile{-1};
    int32_t hostModel{-1};
    int32_t nicCache{-1};
    int32_t nicPus{-1}; //!< "nic_pus": an index into NodeComposition::nicPus
    int32_t dfabricRack{-1};
    uint32_t virtualNics{0}; //!< addresses of the NIC ("virtual_nics"); 0: not given (1)
};

/**
 * \ingroup dc-experiment
 * The composition of every host (doc/dc-experiment.md, "Per-node composition"): one
 * NodeSpec per host, from "cc_hosts" (each host's congestion control) and the validated
 * "nodes" section, whose later entries override earlier ones field by field. The one place
 * a host's congestion control lives: "cc_hosts" is its JSON form, a NIC profile with a "cc"
 * its "nodes" form; a host given both is an error.
 */
struct NodeComposition
{
    std::vector<NodeCongestionControl> congestionControls;
    std::vector<NodeNicProfile> nicProfiles;
    std::vector<NodeHostModel> hostModels;
    std::vector<NodeNicCache> nicCaches;
    std::vector<ExperimentComponent> nicPus; //!< ns3::NicProcessingUnits attributes
    std::vector<NodeDfabricRack> dfabricRacks;
    /** By host index; empty when there is neither a "nodes" nor a "cc_hosts" section. */
    std::vector<NodeSpec> hosts;
    bool nodesSection{false}; //!< the file has a "nodes" section (NodeComposer, nodes.csv)

    /**
     * \return host \p host's own congestion control, or null: the experiment's "cc"
     */
    const ExperimentComponent* GetCongestionControl(uint32_t host) const
    {
        return host < hosts.size() && hosts[host].cc >= 0 ? &congestionControls[hosts[host].cc].cc
                                                          : nullptr;
    }

    /** \return true when "nodes" gives no host anything (congestion controls aside). */
    bool IsEmpty() const
    {
        for (const NodeSpec& s : hosts)
        {
            if (s.nicProfile >= 0 || s.hostModel >= 0 || s.nicCache >= 0 || s.nicPus >= 0 ||
                s.dfabricRack >= 0 || s.virtualNics > 0)
            {
                return false;
            }
        }
        return true;
    }
};

} // namespace ns3

#endif /* NODE_COMPOSITION_H */
