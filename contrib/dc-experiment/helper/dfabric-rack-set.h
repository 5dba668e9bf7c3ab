/*
 * The DFabric racks an experiment's "nodes" compose (one per ToR with "dfabric_rack" hosts).
 */
#ifndef DFABRIC_RACK_SET_H
#define DFABRIC_RACK_SET_H

#include "ns3/dfabric-rack-helper.h"
#include "ns3/experiment-config.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Builds the DFabric racks of ExperimentConfig::GetNodes (DfabricRackReader::GetRacks):
 * for each, a DfabricRackHelper configured by its "dfabric_rack" description, with one
 * compute node per host, in host order. Collectives "over": "dfabric" take their rings'
 * racks from it, so collectives sharing a rack share its NIC pool, links and memories.
 */
class DfabricRackSet
{
  public:
    explicit DfabricRackSet(const ExperimentConfig& config);

    /**
     * \return the racks of a ring over \p hosts (in ring order; each rack's hosts one after
     *         the other, as DfabricRackReader::Check makes sure): per run of hosts in one
     *         rack, that rack with its compute nodes' memories in ring order
     */
    std::vector<DfabricRack> GetRing(const std::vector<uint32_t>& hosts) const;

  private:
    std::vector<DfabricRack> m_racks;
    std::vector<int32_t> m_rackOf; //!< per host: index into m_racks, or -1
    std::vector<uint32_t> m_node;  //!< per host: its compute node index in its rack
};

} // namespace ns3

#endif /* DFABRIC_RACK_SET_H */
