/*
 * Fills DcbSwitch forwarding tables with all shortest paths (ECMP groups).
 */
#ifndef DCB_ROUTING_HELPER_H
#define DCB_ROUTING_HELPER_H

#include "ns3/ipv4-address.h"
#include "ns3/node.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup dcb
 * Computes shortest-path ECMP routes over the switch graph.
 *
 * Hosts attached to the same set of switches share one breadth-first search,
 * so the cost is O(#attachment sets × (switches + links)) — one BFS per ToR in a
 * fat-tree — rather than all pairs.
 */
class DcbRoutingHelper
{
  public:
    struct HostAddress
    {
        Ipv4Address address;
        Ptr<Node> host;
    };

    /**
     * Route every address in \p hosts at every switch reachable from them.
     * Addresses need not be contiguous, but the forwarding tables span the range
     * from the smallest to the largest.
     */
    static void PopulateRoutes(const std::vector<HostAddress>& hosts);
};

} // namespace ns3

#endif /* DCB_ROUTING_HELPER_H */
