#include "fabric-bisection.h"

#include "ns3/abort.h"

#include <algorithm>
#include <limits>
#include <queue>
#include <vector>

namespace ns3
{

namespace
{

/** Residual graph for Dinic's maximum flow (bit/s capacities). */
class MaxFlow
{
  public:
    explicit MaxFlow(uint32_t nodes)
        : m_first(nodes, NONE)
        , m_level(nodes)
        , m_next(nodes)
    {
    }

    /** An undirected link: capacity \p cap in both directions. */
    void AddEdge(uint32_t a, uint32_t b, uint64_t capAb, uint64_t capBa)
    {
        m_arcs.push_back(Arc{b, m_first[a], capAb});
        m_first[a] = static_cast<uint32_t>(m_arcs.size() - 1);
        m_arcs.push_back(Arc{a, m_first[b], capBa});
        m_first[b] = static_cast<uint32_t>(m_arcs.size() - 1);
    }

    uint64_t Run(uint32_t s, uint32_t t)
    {
        uint64_t total = 0;
        while (Levels(s, t))
        {
            m_next = m_first;
            while (uint64_t f = Push(s, t, std::numeric_limits<uint64_t>::max()))
            {
                total += f;
            }
        }
        return total;
    }

  private:
    static constexpr uint32_t NONE = std::numeric_limits<uint32_t>::max();

    struct Arc
    {
        uint32_t to;
        uint32_t next; //!< next arc out of the same node
        uint64_t cap;  //!< residual capacity
    };

    bool Levels(uint32_t s, uint32_t t)
    {
        std::fill(m_level.begin(), m_level.end(), -1);
        std::queue<uint32_t> q;
        m_level[s] = 0;
        q.push(s);
        while (!q.empty())
        {
            const uint32_t u = q.front();
            q.pop();
            for (uint32_t e = m_first[u]; e != NONE; e = m_arcs[e].next)
            {
                if (m_arcs[e].cap > 0 && m_level[m_arcs[e].to] < 0)
                {
                    m_level[m_arcs[e].to] = m_level[u] + 1;
                    q.push(m_arcs[e].to);
                }
            }
        }
        return m_level[t] >= 0;
    }

    /** One augmenting path in the level graph (depth <= number of tiers). */
    uint64_t Push(uint32_t u, uint32_t t, uint64_t limit)
    {
        if (u == t)
        {
            return limit;
        }
        for (uint32_t& e = m_next[u]; e != NONE; e = m_arcs[e].next)
        {
            Arc& arc = m_arcs[e];
            if (arc.cap == 0 || m_level[arc.to] != m_level[u] + 1)
            {
                continue;
            }
            const uint64_t f = Push(arc.to, t, std::min(limit, arc.cap));
            if (f > 0)
            {
                arc.cap -= f;
                m_arcs[e ^ 1].cap += f;
                return f;
            }
        }
        return 0;
    }

    std::vector<Arc> m_arcs;
    std::vector<uint32_t> m_first;
    std::vector<int32_t> m_level;
    std::vector<uint32_t> m_next;
};

} // namespace

DataRate
FabricBisection::Compute(const ExperimentTopology& topology)
{
    const auto nHosts = static_cast<uint32_t>(topology.hosts.size());
    NS_ABORT_MSG_IF(nHosts < 2, "FabricBisection: needs at least two hosts");
    const uint32_t nodes = topology.GetNNodes();
    const uint32_t source = nodes;
    const uint32_t sink = nodes + 1;
    // Larger than any cut: the sum of all link rates.
    uint64_t unbounded = 1;
    for (const ExperimentLink& l : topology.links)
    {
        unbounded += l.rate.GetBitRate();
    }
    MaxFlow graph(nodes + 2);
    for (const ExperimentLink& l : topology.links)
    {
        graph.AddEdge(l.a, l.b, l.rate.GetBitRate(), l.rate.GetBitRate());
    }
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        if (h < nHosts / 2)
        {
            graph.AddEdge(source, h, unbounded, 0);
        }
        else
        {
            graph.AddEdge(h, sink, unbounded, 0);
        }
    }
    return DataRate(graph.Run(source, sink));
}

} // namespace ns3
