/*
 * Fills DcbSwitch forwarding tables with all shortest paths (ECMP groups).
 */
#ifndef DCB_ROUTING_HELPER_H
#define DCB_ROUTING_HELPER_H

#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
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

    /** A route that UpdateRoutes changed. */
    struct RouteChange
    {
        Ptr<Node> node; //!< the switch
        Ipv4Address address;
        std::vector<uint32_t> before; //!< its ECMP group before (sorted ports)
        std::vector<uint32_t> after;  //!< and after (empty: no route, packets dropped)
    };

    /**
     * Recompute every switch's routes to \p hosts as PopulateRoutes does, over the
     * links that have no end in \p down (what a routing protocol sees once it has
     * withdrawn those links), and install those that differ from the switch's table;
     * a switch with no path left to an address gets an empty group. Run at set-up
     * or at a fault, never per packet.
     * \return the routes that changed, switch by switch
     */
    static std::vector<RouteChange> UpdateRoutes(const std::vector<HostAddress>& hosts,
                                                 const std::vector<Ptr<NetDevice>>& down);
};

} // namespace ns3

#endif /* DCB_ROUTING_HELPER_H */
