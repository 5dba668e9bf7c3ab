/*
 * Reads the "dfabric_rack" field of "nodes" entries: DFabric racks (CXL-pooled NICs and
 * memory) composed from the hosts of a ToR.
 */
#ifndef DFABRIC_RACK_READER_H
#define DFABRIC_RACK_READER_H

#include "experiment-collective.h"
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
 * A "nodes" entry's "dfabric_rack" (doc/dc-experiment.md, "DFabric racks"): the selected
 * hosts are compute nodes of a DFabric rack (contrib/host DfabricRackHelper: a CXL
 * switch, each node's local memory on a CXL link, a pool of NICs and optionally a pool of
 * CXL memory devices). The rack of a host is its ToR: the hosts under one ToR that have a
 * "dfabric_rack" form one rack, compute nodes cn0.. in host order, and must end with the
 * same description. The value is an object of DfabricRackHelper's keys ("nic_pool_size",
 * "memory_pool_devices", "nic", "cxl_link", "switch", "local_memory", "pool_memory",
 * "nic_pool"; not "hosts": the rack's nodes are its hosts) or "none". Entries apply field
 * by field: a later entry's keys replace the earlier ones' same keys for the hosts both
 * select; "none" removes the host from its rack.
 *
 * Collectives "over": "dfabric" run a RingAllreduce over DfabricRackHops between these racks; Check
 * makes sure that each of their hosts has a rack and that the ring visits each rack's hosts one
 * after the other.
 */
class DfabricRackReader
{
  public:
    /** One rack: the hosts under one ToR that have a "dfabric_rack". */
    struct Rack
    {
        uint32_t tor;                //!< switch index (topology.switches)
        std::vector<uint32_t> hosts; //!< ascending host indices: compute nodes cn0..
        int32_t description;         //!< index into NodeComposition::dfabricRacks
    };

    /**
     * Read entry \p entry's "dfabric_rack" at \p pointer and give it to \p selected hosts of
     * \p composition (merged into what earlier entries gave them).
     * \return its effective JSON: the keys as given (filling in defaults would override
     *         earlier entries when the file is loaded again), or "none"
     * \throw ExperimentConfigError at the offending field
     */
    static nlohmann::ordered_json ReadEntry(const JsonSchemaReader& reader,
                                            const nlohmann::json& value, const std::string& pointer,
                                            std::size_t entry,
                                            const std::vector<uint32_t>& selected,
                                            NodeComposition& composition);

    /**
     * \return the racks of \p composition, by ToR in switch order
     * \throw ExperimentConfigError when hosts of one ToR were given different descriptions
     */
    static std::vector<Rack> GetRacks(const JsonSchemaReader& reader,
                                      const ExperimentTopology& topology,
                                      const NodeComposition& composition);

    /**
     * Check the racks and the collectives "over": "dfabric" (every host in a rack, each
     * rack's hosts consecutive in ring order).
     * \throw ExperimentConfigError at the collective's "hosts"
     */
    static void Check(const JsonSchemaReader& reader, const ExperimentTopology& topology,
                      const NodeComposition& composition,
                      const std::vector<ExperimentCollective>& collectives);
};

} // namespace ns3

#endif /* DFABRIC_RACK_READER_H */
