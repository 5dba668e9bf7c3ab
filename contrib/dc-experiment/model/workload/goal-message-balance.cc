#include "goal-message-balance.h"

#include "ns3/config-error-list.h"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

namespace ns3
{

namespace
{

/** Operations of one kind and pattern at one destination: how many, the first, how many left. */
struct OpClass
{
    uint64_t count{0};
    uint32_t first{0};
    uint64_t left{0};
};

void
AddTo(OpClass& c, uint32_t op)
{
    if (c.count == 0)
    {
        c.first = op;
    }
    ++c.count;
    ++c.left;
}

/** Maximum flow by shortest augmenting paths (Edmonds-Karp) on a small graph. */
class FlowGraph
{
  public:
    explicit FlowGraph(uint32_t nodes)
        : m_out(nodes)
    {
    }

    /** \return the index of the new edge \p from -> \p to of capacity \p capacity. */
    uint32_t AddEdge(uint32_t from, uint32_t to, uint64_t capacity)
    {
        const auto e = static_cast<uint32_t>(m_to.size());
        m_to.push_back(to);
        m_capacity.push_back(capacity);
        m_out[from].push_back(e);
        m_to.push_back(from); // residual edge e ^ 1
        m_capacity.push_back(0);
        m_out[to].push_back(e + 1);
        return e;
    }

    /** \return the residual capacity of edge \p e. */
    uint64_t Residual(uint32_t e) const { return m_capacity[e]; }

    void MaxFlow(uint32_t source, uint32_t sink)
    {
        std::vector<uint32_t> via(m_out.size());
        std::vector<uint32_t> queue;
        while (true)
        {
            std::fill(via.begin(), via.end(), UINT32_MAX);
            queue.assign(1, source);
            for (std::size_t head = 0; head < queue.size() && via[sink] == UINT32_MAX; ++head)
            {
                for (uint32_t e : m_out[queue[head]])
                {
                    const uint32_t to = m_to[e];
                    if (m_capacity[e] > 0 && to != source && via[to] == UINT32_MAX)
                    {
                        via[to] = e;
                        queue.push_back(to);
                    }
                }
            }
            if (via[sink] == UINT32_MAX)
            {
                return;
            }
            uint64_t push = UINT64_MAX;
            for (uint32_t v = sink; v != source; v = m_to[via[v] ^ 1])
            {
                push = std::min(push, m_capacity[via[v]]);
            }
            for (uint32_t v = sink; v != source; v = m_to[via[v] ^ 1])
            {
                m_capacity[via[v]] -= push;
                m_capacity[via[v] ^ 1] += push;
            }
        }
    }

  private:
    std::vector<std::vector<uint32_t>> m_out;
    std::vector<uint32_t> m_to;
    std::vector<uint64_t> m_capacity;
};

std::string
Plural(uint64_t n, const char* what)
{
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

/** Check the messages to rank \p dst: \p sends addressed to it, \p recvs it posts. */
void
CheckDestination(const GoalSchedule& schedule, uint32_t dst, const std::vector<uint32_t>& sends,
                 const std::vector<uint32_t>& recvs, ConfigErrorList& problems)
{
    using Key = std::pair<uint32_t, uint32_t>; // (source, tag)
    std::map<Key, OpClass> sent;
    std::map<Key, OpClass> exact;
    std::map<uint32_t, OpClass> anySource; // by tag
    std::map<uint32_t, OpClass> anyTag;    // by source
    OpClass anything;
    for (uint32_t op : sends)
    {
        AddTo(sent[Key(schedule.GetOp(op).rank, schedule.GetOp(op).tag)], op);
    }
    for (uint32_t op : recvs)
    {
        const GoalOp& r = schedule.GetOp(op);
        if (r.peer == GoalOp::ANY && r.tag == GoalOp::ANY)
        {
            AddTo(anything, op);
        }
        else if (r.peer == GoalOp::ANY)
        {
            AddTo(anySource[r.tag], op);
        }
        else if (r.tag == GoalOp::ANY)
        {
            AddTo(anyTag[r.peer], op);
        }
        else
        {
            AddTo(exact[Key(r.peer, r.tag)], op);
        }
    }
    const std::string to = "rank " + std::to_string(dst);
    auto fail = [&](uint32_t op, const std::string& reason) {
        problems.Add(ExperimentConfigError(schedule.GetName(), schedule.GetOp(op).line, 1, reason));
    };
    // Exact recvs take only their own class.
    for (auto& [key, c] : exact)
    {
        OpClass& s = sent[key];
        const std::string from = "rank " + std::to_string(key.first);
        const std::string tag = "tag " + std::to_string(key.second);
        if (s.count < c.count)
        {
            fail(c.first, "recv from " + from + " " + tag + " at " + to +
                              " has no matching send: " + from + " sends " +
                              Plural(s.count, "message") + " with " + tag + " to " + to + ", " +
                              to + " posts " + Plural(c.count, "recv") + " for them");
        }
        s.left -= std::min(s.left, c.count);
    }
    // Any-source and any-tag recvs: a maximum flow from the sends left to them.
    if (!anySource.empty() || !anyTag.empty())
    {
        const uint32_t source = 0;
        const uint32_t sink = 1;
        uint32_t nodes = 2;
        std::map<uint32_t, uint32_t> tagNode;
        std::map<uint32_t, uint32_t> sourceNode;
        for (const auto& entry : anySource)
        {
            tagNode[entry.first] = nodes++;
        }
        for (const auto& entry : anyTag)
        {
            sourceNode[entry.first] = nodes++;
        }
        std::vector<std::pair<OpClass*, uint32_t>> fed; // send class, its edge from the source
        FlowGraph graph(nodes + static_cast<uint32_t>(sent.size()));
        for (auto& [key, s] : sent)
        {
            const auto t = tagNode.find(key.second);
            const auto f = sourceNode.find(key.first);
            if (s.left == 0 || (t == tagNode.end() && f == sourceNode.end()))
            {
                continue;
            }
            const uint32_t node = nodes++;
            fed.emplace_back(&s, graph.AddEdge(source, node, s.left));
            if (t != tagNode.end())
            {
                graph.AddEdge(node, t->second, UINT64_MAX);
            }
            if (f != sourceNode.end())
            {
                graph.AddEdge(node, f->second, UINT64_MAX);
            }
        }
        std::vector<std::pair<OpClass*, uint32_t>> demand; // recv class, its edge to the sink
        for (auto& [tag, c] : anySource)
        {
            demand.emplace_back(&c, graph.AddEdge(tagNode[tag], sink, c.count));
        }
        for (auto& [from, c] : anyTag)
        {
            demand.emplace_back(&c, graph.AddEdge(sourceNode[from], sink, c.count));
        }
        graph.MaxFlow(source, sink);
        for (auto& [s, e] : fed)
        {
            s->left = graph.Residual(e);
        }
        for (auto& [c, e] : demand)
        {
            const GoalOp& r = schedule.GetOp(c->first);
            const std::string pattern = r.peer == GoalOp::ANY
                                            ? "any source with tag " + std::to_string(r.tag)
                                            : "rank " + std::to_string(r.peer) + " with any tag";
            if (graph.Residual(e) > 0)
            {
                fail(c->first, "recv from " + pattern + " at " + to +
                                   " has no matching send: " + Plural(graph.Residual(e), "recv") +
                                   " of the " + std::to_string(c->count) +
                                   " such are left without a send to take");
            }
        }
    }
    // What is left goes to the recvs that take anything.
    uint64_t left = 0;
    for (const auto& entry : sent)
    {
        left += entry.second.left;
    }
    if (left < anything.count)
    {
        fail(anything.first, "recv from any source with any tag at " + to +
                                 " has no matching send: " + Plural(anything.count - left, "recv") +
                                 " of the " + std::to_string(anything.count) +
                                 " such are left without a send to take");
        return;
    }
    uint64_t excess = left - anything.count;
    for (auto it = sent.begin(); it != sent.end() && excess > 0; ++it)
    {
        const OpClass& s = it->second;
        if (s.left == 0)
        {
            continue;
        }
        const uint64_t unmatched = std::min(excess, s.left);
        excess -= unmatched;
        const std::string from = "rank " + std::to_string(it->first.first);
        const std::string tag = "tag " + std::to_string(it->first.second);
        fail(s.first, "send from " + from + " to " + to + " " + tag + " has no matching recv: " +
                          from + " sends " + Plural(s.count, "message") + " with " + tag + " to " +
                          to + ", " + std::to_string(unmatched) +
                          (unmatched == 1 ? " is" : " are") + " left without a recv at " + to);
    }
}

} // namespace

void
GoalMessageBalance::Check(const GoalSchedule& schedule)
{
    const uint32_t n = schedule.GetNRanks();
    std::vector<std::vector<uint32_t>> sendsTo(n);
    std::vector<std::vector<uint32_t>> recvsAt(n);
    for (uint32_t op = 0; op < schedule.GetNOps(); ++op)
    {
        const GoalOp& o = schedule.GetOp(op);
        if (o.kind == GoalOpKind::Send)
        {
            sendsTo[o.peer].push_back(op);
        }
        else if (o.kind == GoalOpKind::Recv)
        {
            recvsAt[o.rank].push_back(op);
        }
    }
    ConfigErrorList problems(schedule.GetName());
    for (uint32_t dst = 0; dst < n; ++dst)
    {
        CheckDestination(schedule, dst, sendsTo[dst], recvsAt[dst], problems);
    }
    problems.ThrowIfAny();
}

} // namespace ns3
