/*
 * Reader for the HPCC simulator's topology file format.
 */
#ifndef HPCC_TOPOLOGY_READER_H
#define HPCC_TOPOLOGY_READER_H

#include "experiment-topology.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Reads an HPCC-format topology into an ExperimentTopology (the same form a
 * `custom` topology expands to):
 *
 * ```
 * <nodes> <switches> <links>
 * <switch id> ... (switches ids)
 * <src> <dst> <rate> <delay> <error_rate>   (links lines)
 * ```
 *
 * Node ids run 0..nodes-1; those not listed as switches are hosts. Rates are
 * ns3::DataRate strings ("100Gbps"), delays duration strings ("1000ns",
 * "0.001ms"); error_rate must be 0 (random link loss is not modelled). Hosts
 * are named `h<id>` and switches `s<id>` after their HPCC ids, and numbered in
 * id order (host index i is the i-th non-switch id), whatever the order of the
 * ids (switches first, as in the HPCC simulator's own example, in the middle or
 * interleaved); the topology's hpccHostOfNode maps each id to its host index.
 * Every host has exactly one link, to a switch; every node must be connected.
 * Errors name file:line. As the HPCC simulator, the reader takes the announced
 * number of links and ignores what follows them (its example files end with
 * notes on the format): one line of the topology's warnings says so.
 */
class HpccTopologyReader
{
  public:
    /**
     * Read \p text named \p name.
     * \return the topology, with hpccHostOfNode (for each HPCC node id, its host index, or -1
     * for a switch) and warnings (the lines after the announced links, ignored) filled in
     * \throw ExperimentConfigError
     */
    static ExperimentTopology Read(const std::string& text, const std::string& name);
};

} // namespace ns3

#endif /* HPCC_TOPOLOGY_READER_H */
