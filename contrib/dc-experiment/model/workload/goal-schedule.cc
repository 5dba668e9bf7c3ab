#include "goal-schedule.h"

#include <utility>

namespace ns3
{

GoalSchedule::GoalSchedule(std::string name, uint32_t nRanks, std::vector<GoalOp> ops,
                           std::vector<std::string> labels,
                           const std::vector<GoalDependency>& dependencies)
    : m_name(std::move(name))
    , m_nRanks(nRanks)
    , m_ops(std::move(ops))
    , m_labels(std::move(labels))
{
    m_labels.resize(m_ops.size());
    m_firstOp.assign(m_nRanks + 1, 0);
    for (const GoalOp& op : m_ops)
    {
        ++m_firstOp[op.rank + 1];
    }
    for (uint32_t r = 0; r < m_nRanks; ++r)
    {
        m_firstOp[r + 1] += m_firstOp[r];
    }
    Lay(dependencies, true, m_startOffsets, m_startSuccessors, m_startPredecessors);
    Lay(dependencies, false, m_endOffsets, m_endSuccessors, m_endPredecessors);
}

void
GoalSchedule::Lay(const std::vector<GoalDependency>& dependencies, bool onStart,
                  std::vector<uint32_t>& offsets, std::vector<uint32_t>& to,
                  std::vector<uint32_t>& predecessors)
{
    offsets.assign(m_ops.size() + 1, 0);
    predecessors.assign(m_ops.size(), 0);
    for (const GoalDependency& d : dependencies)
    {
        if (d.onStart == onStart)
        {
            ++offsets[d.on + 1];
            ++predecessors[d.op];
        }
    }
    for (std::size_t i = 0; i < m_ops.size(); ++i)
    {
        offsets[i + 1] += offsets[i];
    }
    to.assign(offsets.back(), 0);
    std::vector<uint32_t> next(offsets.begin(), offsets.end() - 1);
    for (const GoalDependency& d : dependencies)
    {
        if (d.onStart == onStart)
        {
            to[next[d.on]++] = d.op;
        }
    }
}

const std::string&
GoalSchedule::GetName() const
{
    return m_name;
}

uint32_t
GoalSchedule::GetNRanks() const
{
    return m_nRanks;
}

uint32_t
GoalSchedule::GetNOps() const
{
    return static_cast<uint32_t>(m_ops.size());
}

uint32_t
GoalSchedule::GetFirstOp(uint32_t rank) const
{
    return m_firstOp[rank];
}

const GoalOp&
GoalSchedule::GetOp(uint32_t op) const
{
    return m_ops[op];
}

const std::string&
GoalSchedule::GetLabel(uint32_t op) const
{
    return m_labels[op];
}

std::string
GoalSchedule::Describe(uint32_t op) const
{
    const GoalOp& o = m_ops[op];
    const std::string which =
        m_labels[op].empty() ? "#" + std::to_string(op - m_firstOp[o.rank]) : m_labels[op];
    return "rank " + std::to_string(o.rank) + " op " + which + " (line " + std::to_string(o.line) +
           ")";
}

GoalSchedule::OpRange
GoalSchedule::GetStartSuccessors(uint32_t op) const
{
    const uint32_t* base = m_startSuccessors.data();
    return OpRange{base + m_startOffsets[op], base + m_startOffsets[op + 1]};
}

GoalSchedule::OpRange
GoalSchedule::GetEndSuccessors(uint32_t op) const
{
    const uint32_t* base = m_endSuccessors.data();
    return OpRange{base + m_endOffsets[op], base + m_endOffsets[op + 1]};
}

uint32_t
GoalSchedule::GetNStartPredecessors(uint32_t op) const
{
    return m_startPredecessors[op];
}

uint32_t
GoalSchedule::GetNEndPredecessors(uint32_t op) const
{
    return m_endPredecessors[op];
}

uint64_t
GoalSchedule::GetNSends() const
{
    uint64_t n = 0;
    for (const GoalOp& op : m_ops)
    {
        n += op.kind == GoalOpKind::Send ? 1 : 0;
    }
    return n;
}

uint64_t
GoalSchedule::GetSentBytes() const
{
    uint64_t n = 0;
    for (const GoalOp& op : m_ops)
    {
        const uint64_t bytes = op.kind == GoalOpKind::Send ? op.size : 0;
        n = bytes > UINT64_MAX - n ? UINT64_MAX : n + bytes; // saturates: sizes reach 2^63
    }
    return n;
}

} // namespace ns3
