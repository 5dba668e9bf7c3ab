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
} // namespace

void
DcbRoutingHelper::PopulateRoutes(const std::vector<HostAddress>& hosts)
{
    if (hosts.empty())
    {
        return;
    }
    const uint32_t nNodes = NodeList::GetNNodes();
    std::vector<std::vector<Link>> adjacency(nNodes);
    std::vector<Ptr<DcbSwitch>> switchOf(nNodes);
    for (uint32_t id = 0; id < nNodes; ++id)
    {
        Ptr<Node> node = NodeList::GetNode(id);
        switchOf[id] = node->GetObject<DcbSwitch>();
        for (uint32_t i = 0; i < node->GetNDevices(); ++i)
        {
            Ptr<DcbNetDevice> dev = DynamicCast<DcbNetDevice>(node->GetDevice(i));
            if (!dev || !dev->GetDcbChannel())
            {
                continue;
            }
            Ptr<DcbNetDevice> peer = dev->GetDcbChannel()->GetPeer(dev);
            if (peer)
            {
                adjacency[id].push_back(Link{i, peer->GetNode()->GetId()});
            }
        }
    }

    uint32_t lo = std::numeric_limits<uint32_t>::max();
    uint32_t hi = 0;
    for (const auto& h : hosts)
    {
        lo = std::min(lo, h.address.Get());
        hi = std::max(hi, h.address.Get());
    }
    for (uint32_t id = 0; id < nNodes; ++id)
    {
        if (switchOf[id])
        {
            switchOf[id]->SetAddressRange(Ipv4Address(lo), hi - lo + 1);
        }
    }

    // Group hosts by the set of switches they attach to (set-up only, not per packet).
    std::map<std::vector<uint32_t>, std::vector<const HostAddress*>> groups;
    for (const auto& h : hosts)
    {
        std::vector<uint32_t> attach;
        for (const Link& l : adjacency[h.host->GetId()])
        {
            if (switchOf[l.peer])
            {
                attach.push_back(l.peer);
            }
        }
        std::sort(attach.begin(), attach.end());
        attach.erase(std::unique(attach.begin(), attach.end()), attach.end());
        NS_ABORT_MSG_IF(attach.empty(), "DcbRoutingHelper: host node "
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
            for (const Link& l : adjacency[u])
            {
                if (switchOf[l.peer] && dist[l.peer] == unreachable)
                {
                    dist[l.peer] = dist[u] + 1;
                    frontier.push_back(l.peer);
                }
            }
        }
        for (uint32_t id = 0; id < nNodes; ++id)
        {
            if (!switchOf[id] || dist[id] == unreachable)
            {
                continue;
            }
            for (const HostAddress* h : members)
            {
                ports.clear();
                for (const Link& l : adjacency[id])
                {
                    const bool direct = dist[id] == 0 && l.peer == h->host->GetId();
                    const bool closer =
                        dist[id] > 0 && switchOf[l.peer] && dist[l.peer] == dist[id] - 1;
                    if (direct || closer)
                    {
                        ports.push_back(l.port);
                    }
                }
                if (!ports.empty())
                {
                    switchOf[id]->SetRoute(h->address, ports);
                }
            }
        }
    }
}

} // namespace ns3
