/*
 * Splits an experiment's network into partitions for a distributed (MPI) run.
 */
#ifndef FABRIC_PARTITIONER_H
#define FABRIC_PARTITIONER_H

#include "experiment-topology.h"

#include "ns3/json-schema-reader.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Gives every node of an ExperimentTopology a partition (the ns-3 system id, one
 * per MPI rank) from the shape of the network alone, so that every rank computes
 * the same assignment.
 *
 * A node's tier is its hop distance from the nearest host: hosts 0, ToRs 1, then
 * Aggs/spines 2, cores 3 (fat-tree), or T1/T2/regional hub for regional networks.
 * The partitioner cuts the network at a tier: the nodes below it fall into
 * connected groups, which stay whole; the nodes at and above it are spread over
 * the partitions.
 *
 * - Mode::Pod cuts at the top tier: a group is a pod of a fat-tree, a rack of a
 *   leaf-spine, a datacenter of a regional network (joined by the hub).
 * - Mode::Rack cuts at tier 2: a group is one ToR with its hosts.
 *
 * Groups, ordered by their lowest node number, go to partitions in contiguous
 * blocks balanced by host count; cut switches, in node order, in equal blocks.
 * Every link between partitions needs a positive delay: it is the lookahead.
 */
class FabricPartitioner
{
  public:
    enum class Mode : uint8_t
    {
        Pod,
        Rack,
    };

    /** \return false if \p name is neither "pod" nor "rack". */
    static bool ParseMode(const std::string& name, Mode& mode);

    /** \return the tier of every node (configuration numbering: hosts, then switches). */
    static std::vector<uint32_t> GetTiers(const ExperimentTopology& topo);

    /**
     * \return the partition of every node of \p topo, the topology described at \p pointer
     *   of \p reader's file
     * \throw ConfigError at \p pointer when the network cannot be split (fewer groups
     *   than partitions, a zero-delay link between partitions)
     */
    static std::vector<uint32_t> Partition(const ExperimentTopology& topo, uint32_t nPartitions,
                                           Mode mode, const JsonSchemaReader& reader,
                                           const std::string& pointer);
};

} // namespace ns3

#endif /* FABRIC_PARTITIONER_H */
