/*
 * The links between two tiers of a Clos fabric, shared by the built-in shapes.
 */
#ifndef CLOS_TIER_H
#define CLOS_TIER_H

#include "experiment-topology.h"

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The links between two tiers of a Clos fabric (FatTreeTopology, RegionalTopology): the
 * nodes of the lower tier form groups of equal size (a ToR's hosts, a pod's ToRs, a
 * cluster's T0s), and each node links to every switch of its group's block in the upper
 * tier (the pod's Aggs, the cluster's T1s; a block of one: the ToR of a host).
 */
class ClosTier
{
  public:
    /**
     * Append to \p t's links, in lower-node order, then upper-switch order: node
     * \p lowerFirst + i (i < \p lowerCount) to switches \p upperFirst + g x \p upperPerGroup
     * + j (j < \p upperPerGroup), g = i / \p lowerPerGroup its group.
     */
    static void Link(ExperimentTopology& t, uint32_t lowerFirst, uint32_t lowerCount,
                     uint32_t lowerPerGroup, uint32_t upperFirst, uint32_t upperPerGroup,
                     DataRate rate, Time delay);
};

} // namespace ns3

#endif /* CLOS_TIER_H */
