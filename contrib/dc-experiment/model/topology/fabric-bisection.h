/*
 * Bisection bandwidth of an experiment topology, by max-flow / min-cut.
 */
#ifndef FABRIC_BISECTION_H
#define FABRIC_BISECTION_H

#include "experiment-topology.h"

#include "ns3/data-rate.h"

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The bisection bandwidth of a topology: the capacity of the smallest set of
 * links whose removal separates the first half of the hosts (topology order,
 * ⌊n/2⌋ hosts) from the rest, in one direction. Every link carries its rate
 * in each direction. Computed exactly as a maximum flow from a super-source
 * attached to the first half to a super-sink attached to the second half
 * (Dinic's algorithm; max-flow = min-cut), so host links count too: a fabric
 * faster than its hosts has the hosts' bisection.
 *
 * For the built-in topologies the hosts are numbered rack by rack (and pod by
 * pod), so the split is the usual one: for SRNIC's 1:1 fat-trees and a
 * non-blocking leaf-spine it is n/2 host links; for a leaf-spine whose leaves
 * have less uplink than host capacity it is half the leaves' uplinks. For a
 * topology file whose hosts are not numbered by rack it is the cut between
 * the two index halves, which may be larger than the worst-case bisection.
 */
class FabricBisection
{
  public:
    /** \return the bisection bandwidth of \p topology (at least two hosts). */
    static DataRate Compute(const ExperimentTopology& topology);
};

} // namespace ns3

#endif /* FABRIC_BISECTION_H */
