#include "dcb-routing-helper.h"

#include "ns3/abort.h"
#include "ns3/dcb-channel.h"
#include "ns3/dcb-net-device.h"
#include "ns3/dcb-switch.h"
#include "ns3/node-list.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <map>

namespace ns3
{

namespace
{
/** Neighbour of a node through one of its ports. */
struct Link
{
    uint32_t port;
    uint32_t peer; //!< node id
};

/** The nodes' links, without those with an end in a list of down devices. */
struct Graph
{
    std::vector<std::vector<Link>> adjacency; //!< per node id
    std::vector<Ptr<DcbSwitch>> switchOf;     //!< per node id: null for a host
};

Graph
BuildGraph(const std::vector<Ptr<NetDevice>>& down)
{
    const auto isDown = [&down](const Ptr<NetDevice>& dev)
    { return std::find(down.begin(), down.end(), dev) != down.end(); };
    const uint32_t nNodes = NodeList::GetNNodes();
    Graph g;
    g.adjacency.resize(nNodes);
    g.switchOf.resize(nNodes);
    for (uint32_t id = 0; id < nNodes; ++id)
    {
        Ptr<Node> node = NodeList::GetNode(id);
        g.switchOf[id] = node->GetObject<DcbSwitch>();
        for (uint32_t i = 0; i < node->GetNDevices(); ++i)
        {
            Ptr<DcbNetDevice> dev = DynamicCast<DcbNetDevice>(node->GetDevice(i));
            if (!dev || !dev->GetDcbChannel())
            {
                continue;
            }
            Ptr<DcbNetDevice> peer = dev->GetDcbChannel()->GetPeer(dev);
            if (peer && !isDown(dev) && !isDown(peer))
            {
                g.adjacency[id].push_back(Link{i, peer->GetNode()->GetId()});
            }
        }
    }
    return g;
}

/**
 * Call \p route(switch node id, address, ports) for every switch and every address of
 * \p hosts, with the switch's ports on shortest paths to the address (empty where the
 * switch has no path). With \p strict, a host linked to no switch is an error; without,
 * it is unreachable.
 */
template <typename RouteFunction>
void
ComputeRoutes(const Graph& g, const std::vector<DcbRoutingHelper::HostAddress>& hosts, bool strict,
              RouteFunction route)
{
    const uint32_t nNodes = static_cast<uint32_t>(g.adjacency.size());
    // Group hosts by the set of switches they attach to (set-up only, not per packet).
    std::map<std::vector<uint32_t>, std::vector<const DcbRoutingHelper::HostAddress*>> groups;
    for (const auto& h : hosts)
    {
        std::vector<uint32_t> attach;
        for (const Link& l : g.adjacency[h.host->GetId()])
        {
            if (g.switchOf[l.peer])
            {
                attach.push_back(l.peer);
            }
        }
        std::sort(attach.begin(), attach.end());
        attach.erase(std::unique(attach.begin(), attach.end()), attach.end());
        NS_ABORT_MSG_IF(strict && attach.empty(), "DcbRoutingHelper: host node "
                                                      << h.host->GetId() << " (" << h.address
                                                      << ") is not linked to any switch");
        groups[attach].push_back(&h);
    }

    const uint32_t unreachable = std::numeric_limits<uint32_t>::max();
    std::vector<uint32_t> dist(nNodes);
    std::vector<uint32_t> ports;
    for (const auto& [attach, members] : groups)
    {
        std::fill(dist.begin(), dist.end(), unreachable);
        std::deque<uint32_t> frontier;
        for (uint32_t s : attach)
        {
            dist[s] = 0;
            frontier.push_back(s);
        }
        while (!frontier.empty())
        {
            const uint32_t u = frontier.front();
            frontier.pop_front();
            for (const Link& l : g.adjacency[u])
            {
                if (g.switchOf[l.peer] && dist[l.peer] == unreachable)
                {
                    dist[l.peer] = dist[u] + 1;
                    frontier.push_back(l.peer);
                }
            }
        }
        for (uint32_t id = 0; id < nNodes; ++id)
        {
            if (!g.switchOf[id])
            {
                continue;
            }
            for (const DcbRoutingHelper::HostAddress* h : members)
            {
                ports.clear();
                for (const Link& l : g.adjacency[id])
                {
                    if (dist[id] == unreachable)
                    {
                        break;
                    }
                    const bool direct = dist[id] == 0 && l.peer == h->host->GetId();
                    const bool closer =
                        dist[id] > 0 && g.switchOf[l.peer] && dist[l.peer] == dist[id] - 1;
                    if (direct || closer)
                    {
                        ports.push_back(l.port);
                    }
                }
                route(id, h->address, ports);
            }
        }
    }
}
} // namespace

void
DcbRoutingHelper::PopulateRoutes(const std::vector<HostAddress>& hosts)
{
    if (hosts.empty())
    {
        return;
    }
    const Graph g = BuildGraph({});
    uint32_t lo = std::numeric_limits<uint32_t>::max();
    uint32_t hi = 0;
    for (const auto& h : hosts)
    {
        lo = std::min(lo, h.address.Get());
        hi = std::max(hi, h.address.Get());
    }
    for (const Ptr<DcbSwitch>& sw : g.switchOf)
    {
        if (sw)
        {
            sw->SetAddressRange(Ipv4Address(lo), hi - lo + 1);
        }
    }
    ComputeRoutes(g, hosts, true,
                  [&g](uint32_t id, Ipv4Address address, const std::vector<uint32_t>& ports)
                  {
                      if (!ports.empty())
                      {
                          g.switchOf[id]->SetRoute(address, ports);
                      }
                  });
}

std::vector<DcbRoutingHelper::RouteChange>
DcbRoutingHelper::UpdateRoutes(const std::vector<HostAddress>& hosts,
                               const std::vector<Ptr<NetDevice>>& down)
{
    const Graph g = BuildGraph(down);
    std::vector<RouteChange> changes;
    std::vector<uint32_t> sorted;
    ComputeRoutes(
        g, hosts, false,
        [&](uint32_t id, Ipv4Address address, const std::vector<uint32_t>& ports)
        {
            sorted = ports;
            std::sort(sorted.begin(), sorted.end());
            const std::vector<uint32_t>& before = g.switchOf[id]->GetRoute(address);
            if (before != sorted)
            {
                changes.push_back(RouteChange{NodeList::GetNode(id), address, before, sorted});
                g.switchOf[id]->SetRoute(address, sorted);
            }
        });
    std::stable_sort(changes.begin(), changes.end(),
                     [](const RouteChange& a, const RouteChange& b)
                     { return a.node->GetId() < b.node->GetId(); });
    return changes;
}

} // namespace ns3
