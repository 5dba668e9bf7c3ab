#include "pfc-deadlock-monitor.h"

#include "ns3/boolean.h"
#include "ns3/dcb-channel.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcDeadlockMonitor");
NS_OBJECT_ENSURE_REGISTERED(PfcDeadlockMonitor);

namespace
{
/** A queue's key: switch, port and class packed so that keys sort in that order. */
uint64_t
Key(uint32_t sw, uint32_t port, uint8_t cls)
{
    return (static_cast<uint64_t>(sw) << 32) | (static_cast<uint64_t>(port) << 3) | cls;
}
} // namespace

TypeId
PfcDeadlockMonitor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcDeadlockMonitor")
            .SetParent<Object>()
            .SetGroupName("Dcb")
            .AddConstructor<PfcDeadlockMonitor>()
            .AddAttribute("CheckInterval",
                          "Time between two searches of the wait-for graph. Default 100 us: "
                          "a deadlock is reported at most 100 us after its last queue is "
                          "held, far inside the 1 ms a watchdog needs at best (SONiC pfcwd "
                          "accepts detection times from 100 ms).",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&PfcDeadlockMonitor::m_interval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("StopOnDeadlock",
                          "Stop the simulation at the check that finds the first deadlock. "
                          "Default false (keep running: a PfcWatchdog may break it).",
                          BooleanValue(false), MakeBooleanAccessor(&PfcDeadlockMonitor::m_stop),
                          MakeBooleanChecker())
            .AddAttribute("Classes",
                          "Traffic classes watched (bit mask). Default 0xff: every class "
                          "(a class without PFC is never paused, so it adds no node).",
                          UintegerValue(0xff), MakeUintegerAccessor(&PfcDeadlockMonitor::m_classes),
                          MakeUintegerChecker<uint8_t>(1, 0xff))
            .AddTraceSource("Deadlock",
                            "A deadlock was found: its queues, when it formed, when found.",
                            MakeTraceSourceAccessor(&PfcDeadlockMonitor::m_deadlockTrace),
                            "ns3::PfcDeadlockMonitor::DeadlockCallback");
    return tid;
}

PfcDeadlockMonitor::PfcDeadlockMonitor() = default;

PfcDeadlockMonitor::~PfcDeadlockMonitor() = default;

void
PfcDeadlockMonitor::DoDispose()
{
    m_event.Cancel();
    m_switches.clear();
    Object::DoDispose();
}

void
PfcDeadlockMonitor::Install(const std::vector<Ptr<DcbSwitch>>& switches, Time start)
{
    m_switches = switches;
    m_peers.assign(switches.size(), {});
    for (std::size_t s = 0; s < switches.size(); ++s)
    {
        m_peers[s].resize(switches[s]->GetNPorts());
        for (uint32_t p = 0; p < switches[s]->GetNPorts(); ++p)
        {
            Ptr<DcbNetDevice> dev = switches[s]->GetPort(p);
            Ptr<DcbChannel> channel = dev->GetDcbChannel();
            Ptr<DcbNetDevice> peer = channel ? channel->GetPeer(dev) : nullptr;
            if (!peer)
            {
                continue;
            }
            Ptr<DcbSwitch> peerSwitch = peer->GetNode()->GetObject<DcbSwitch>();
            auto it = std::find(switches.begin(), switches.end(), peerSwitch);
            if (peerSwitch && it != switches.end())
            {
                m_peers[s][p].sw = it - switches.begin();
                m_peers[s][p].port = peer->GetIfIndex();
            }
        }
    }
    m_event.Cancel();
    m_event = Simulator::Schedule(start + m_interval, &PfcDeadlockMonitor::Check, this);
}

std::vector<PfcDeadlockMonitor::Deadlock>
PfcDeadlockMonitor::Find() const
{
    // Nodes: paused queues holding bytes, in (switch, port, class) order.
    std::vector<Queue> nodes;
    std::vector<uint64_t> keys;
    for (uint32_t s = 0; s < m_switches.size(); ++s)
    {
        for (uint32_t p = 0; p < m_switches[s]->GetNPorts(); ++p)
        {
            Ptr<DcbNetDevice> dev = m_switches[s]->GetPort(p);
            const uint8_t paused = dev->GetPausedMask() & m_classes;
            for (uint8_t c = 0; c < DcbNetDevice::N_CLASSES; ++c)
            {
                if (((paused >> c) & 1) && dev->GetQueueBytes(c) > 0)
                {
                    nodes.push_back(Queue{s, p, c, dev->GetPauseStart(c), dev->GetQueueBytes(c)});
                    keys.push_back(Key(s, p, c));
                }
            }
        }
    }
    const std::size_t n = nodes.size();
    auto indexOf = [&keys](uint64_t key) -> int64_t
    {
        auto it = std::lower_bound(keys.begin(), keys.end(), key);
        return it != keys.end() && *it == key ? it - keys.begin() : -1;
    };

    // Edges, and the nodes that can move by themselves.
    std::vector<std::vector<std::size_t>> successors(n);
    std::vector<std::vector<std::size_t>> predecessors(n);
    std::vector<bool> live(n, false);
    for (std::size_t u = 0; u < n; ++u)
    {
        const Peer& peer = m_peers[nodes[u].sw][nodes[u].port];
        if (peer.sw < 0)
        {
            live[u] = true; // paused by a host (or an unwatched node): not a switch cycle
            continue;
        }
        const auto ps = static_cast<uint32_t>(peer.sw);
        bool held = false;
        for (uint32_t p = 0; p < m_switches[ps]->GetNPorts(); ++p)
        {
            if (m_switches[ps]->GetPort(p)->GetQueueBytesWithTag(nodes[u].cls, peer.port) == 0)
            {
                continue;
            }
            held = true;
            const int64_t v = indexOf(Key(ps, p, nodes[u].cls));
            if (v < 0)
            {
                live[u] = true; // part of the group drains through an unpaused queue
            }
            else
            {
                successors[u].push_back(static_cast<std::size_t>(v));
                predecessors[v].push_back(u);
            }
        }
        live[u] = live[u] || !held;
    }
    std::vector<std::size_t> work;
    for (std::size_t u = 0; u < n; ++u)
    {
        if (live[u])
        {
            work.push_back(u);
        }
    }
    while (!work.empty())
    {
        const std::size_t v = work.back();
        work.pop_back();
        for (std::size_t u : predecessors[v])
        {
            if (!live[u])
            {
                live[u] = true;
                work.push_back(u);
            }
        }
    }

    // Strong components of the dead nodes.
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
    Graph graph(n);
    for (std::size_t u = 0; u < n; ++u)
    {
        for (std::size_t v : successors[u])
        {
            if (!live[u] && !live[v])
            {
                boost::add_edge(u, v, graph);
            }
        }
    }
    std::vector<std::size_t> component(n);
    const std::size_t nComponents = n == 0 ? 0 : boost::strong_components(graph, component.data());
    std::vector<std::vector<std::size_t>> members(nComponents);
    for (std::size_t u = 0; u < n; ++u)
    {
        if (!live[u])
        {
            members[component[u]].push_back(u);
        }
    }

    std::vector<Deadlock> found;
    for (const std::vector<std::size_t>& m : members)
    {
        const bool selfLoop =
            m.size() == 1 && std::find(successors[m[0]].begin(), successors[m[0]].end(), m[0]) !=
                                 successors[m[0]].end();
        if (m.size() < 2 && !selfLoop)
        {
            continue;
        }
        // Cycle order: from the lowest queue, follow the lowest successor not yet listed.
        std::vector<std::size_t> order{m.front()};
        std::vector<bool> listed(n, false);
        listed[m.front()] = true;
        for (bool advanced = true; advanced;)
        {
            advanced = false;
            for (std::size_t v : successors[order.back()])
            {
                if (!listed[v] && component[v] == component[m.front()] && !live[v])
                {
                    listed[v] = true;
                    order.push_back(v);
                    advanced = true;
                    break;
                }
            }
        }
        for (std::size_t u : m)
        {
            if (!listed[u])
            {
                order.push_back(u);
            }
        }
        Deadlock d;
        d.formed = Time(0);
        d.detected = Simulator::Now();
        for (std::size_t u : order)
        {
            d.queues.push_back(nodes[u]);
            d.formed = std::max(d.formed, nodes[u].pausedSince);
        }
        found.push_back(std::move(d));
    }
    return found;
}

void
PfcDeadlockMonitor::Check()
{
    ++m_checks;
    std::vector<Deadlock> found = Find();
    std::vector<std::vector<uint64_t>> active;
    bool reported = false;
    for (Deadlock& d : found)
    {
        std::vector<uint64_t> key;
        for (const Queue& q : d.queues)
        {
            key.push_back(Key(q.sw, q.port, q.cls));
        }
        std::sort(key.begin(), key.end());
        if (std::find(m_active.begin(), m_active.end(), key) == m_active.end())
        {
            NS_LOG_INFO("deadlock of " << d.queues.size() << " queues formed at "
                                       << d.formed.As(Time::US));
            m_deadlocks.push_back(d);
            m_deadlockTrace(d);
            reported = true;
        }
        active.push_back(std::move(key));
    }
    m_active = std::move(active);
    if (reported && m_stop)
    {
        Simulator::Stop();
        return;
    }
    m_event = Simulator::Schedule(m_interval, &PfcDeadlockMonitor::Check, this);
}

const std::vector<PfcDeadlockMonitor::Deadlock>&
PfcDeadlockMonitor::GetDeadlocks() const
{
    return m_deadlocks;
}

uint64_t
PfcDeadlockMonitor::GetChecks() const
{
    return m_checks;
}

} // namespace ns3
