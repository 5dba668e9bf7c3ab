#include "job-step-compiler.h"

#include <utility>

namespace ns3
{

namespace
{

/** No operation (a step with nothing before it on its rank). */
constexpr uint32_t NONE = UINT32_MAX;

/** \return a x b, or UINT64_MAX past it. */
uint64_t
Times(uint64_t a, uint64_t b)
{
    return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/** \return a + b, or UINT64_MAX past it. */
uint64_t
Plus(uint64_t a, uint64_t b)
{
    return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

/**
 * The operations of one rank, step after step, appended to the schedule's vectors (ranks
 * are compiled in order, so the global indices are the rank's in file order).
 */
class RankEmitter
{
  public:
    RankEmitter(uint32_t rank, uint32_t ranks, std::vector<GoalOp>& ops,
                std::vector<std::string>& labels, std::vector<GoalDependency>& dependencies)
        : m_rank(rank)
        , m_ranks(ranks)
        , m_ops(ops)
        , m_labels(labels)
        , m_dependencies(dependencies)
    {
    }

    /** Emit step \p index, \p step, its tags from \p tag. */
    void Step(uint32_t index, const JobStep& step, uint32_t tag)
    {
        m_line = index + 1;
        m_prefix = "step" + std::to_string(index) + "_";
        switch (step.kind)
        {
            case JobStepKind::Compute:
            {
                const uint32_t gate = Gate();
                const uint32_t c = Add(GoalOpKind::Calc, step.calc, 0, 0, "compute");
                Require(c, gate);
                m_done = {c};
                break;
            }
            case JobStepKind::Allreduce:
            case JobStepKind::ReduceScatter:
            case JobStepKind::Allgather:
                Ring(step, tag);
                break;
            case JobStepKind::TreeAllreduce:
                Tree(step, tag);
                break;
            case JobStepKind::Alltoall:
                Alltoall(step, tag);
                break;
            case JobStepKind::Send:
                if (m_rank == step.from || m_rank == step.to)
                {
                    const uint32_t gate = Gate();
                    const uint32_t op =
                        m_rank == step.from
                            ? Add(GoalOpKind::Send, step.bytes, step.to, tag, "send")
                            : Add(GoalOpKind::Recv, step.bytes, step.from, tag, "recv");
                    Require(op, gate);
                    m_done = {op};
                }
                break;
            case JobStepKind::Pipeline:
                Pipeline(step, tag);
                break;
        }
    }

  private:
    /** \return the size of chunk \p chunk of \p bytes: bytes / n, the last + bytes mod n. */
    uint64_t Chunk(uint64_t bytes, uint32_t chunk) const { return Chunk(bytes, chunk, m_ranks); }

    /** \return chunk \p chunk of \p count of \p bytes: bytes / count, the last + the rest. */
    static uint64_t Chunk(uint64_t bytes, uint32_t chunk, uint32_t count)
    {
        return bytes / count + (chunk == count - 1 ? bytes % count : 0);
    }

    /** \return (m_rank + shift) mod n, \p shift in (-2n, 2n). */
    uint32_t Rank(int64_t shift) const
    {
        const int64_t n = m_ranks;
        return static_cast<uint32_t>(((static_cast<int64_t>(m_rank) + shift) % n + n) % n);
    }

    uint32_t Add(GoalOpKind kind, uint64_t size, uint32_t peer, uint32_t tag,
                 const std::string& what)
    {
        const auto op = static_cast<uint32_t>(m_ops.size());
        m_ops.push_back(GoalOp{size, m_rank, peer, tag, 0, 0, m_line, kind});
        m_labels.push_back(m_prefix + what);
        return op;
    }

    /** \p op starts when \p on has completed (nothing when \p on is NONE). */
    void Require(uint32_t op, uint32_t on)
    {
        if (on != NONE)
        {
            m_dependencies.push_back(GoalDependency{op, on, false});
        }
    }

    /**
     * \return what the step's first operations require: the previous step's one unawaited
     * operation, or a join of them (a zero-time calc), or NONE for the rank's first step.
     */
    uint32_t Gate()
    {
        if (m_done.empty())
        {
            return NONE;
        }
        if (m_done.size() == 1)
        {
            return m_done[0];
        }
        const uint32_t join = Add(GoalOpKind::Calc, 0, 0, 0, "join");
        for (uint32_t d : m_done)
        {
            Require(join, d);
        }
        m_done = {join};
        return join;
    }

    void Ring(const JobStep& step, uint32_t tag)
    {
        const uint32_t n = m_ranks;
        const uint32_t rounds = step.kind == JobStepKind::Allreduce ? 2 * (n - 1) : n - 1;
        const uint32_t succ = Rank(1);
        const uint32_t pred = Rank(-1);
        uint32_t ready = Gate();
        std::vector<uint32_t> sinks;
        for (uint32_t k = 0; k < rounds; ++k)
        {
            uint32_t sent;
            uint32_t received;
            bool reduce = false;
            const int64_t kk = k;
            if (step.kind == JobStepKind::Allgather)
            {
                sent = Rank(-kk);
                received = Rank(-kk - 1);
            }
            else if (k < n - 1) // reduce-scatter
            {
                sent = Rank(-kk);
                received = Rank(-kk - 1);
                reduce = step.calc > 0;
            }
            else // the all-reduce's all-gather, from the chunk reduce-scatter left
            {
                const int64_t j = kk - (n - 1);
                sent = Rank(1 - j);
                received = Rank(-j);
            }
            const std::string round = std::to_string(k);
            const uint32_t send =
                Add(GoalOpKind::Send, Chunk(step.bytes, sent), succ, tag + k, "send" + round);
            const uint32_t recv =
                Add(GoalOpKind::Recv, Chunk(step.bytes, received), pred, tag + k, "recv" + round);
            Require(send, ready);
            m_dependencies.push_back(GoalDependency{recv, send, true});
            ready = recv;
            if (reduce)
            {
                const uint32_t d = Add(GoalOpKind::Calc, step.calc, 0, 0, "reduce" + round);
                Require(d, recv);
                ready = d;
            }
            sinks.push_back(send);
        }
        sinks.push_back(ready);
        m_done = std::move(sinks);
    }

    /** \p op starts when every operation of \p on has completed. */
    void RequireAll(uint32_t op, const std::vector<uint32_t>& on)
    {
        for (uint32_t o : on)
        {
            Require(op, o);
        }
    }

    void Tree(const JobStep& step, uint32_t tag)
    {
        const uint32_t gate = Gate();
        const uint32_t chunks = step.chunks;
        const bool root = m_rank == 0;
        const uint32_t parent = root ? 0 : (m_rank - 1) / 2;
        std::vector<uint32_t> children;
        for (uint64_t child : {2 * uint64_t{m_rank} + 1, 2 * uint64_t{m_rank} + 2})
        {
            if (child < m_ranks)
            {
                children.push_back(static_cast<uint32_t>(child));
            }
        }
        std::vector<uint32_t> sinks;
        uint32_t lastReduction = NONE; // the rank reduces one chunk after another
        for (uint32_t c = 0; c < chunks; ++c)
        {
            const uint64_t size = Chunk(step.bytes, c, chunks);
            const std::string chunk = std::to_string(c);
            // Reduce: chunk c from each child, reduced into this rank's.
            std::vector<uint32_t> reduced; // what chunk c's reduced data waits for
            for (uint32_t child : children)
            {
                const std::string from = chunk + "_" + std::to_string(child);
                const uint32_t recv = Add(GoalOpKind::Recv, size, child, tag + c, "up_recv" + from);
                Require(recv, gate);
                if (step.calc == 0)
                {
                    reduced.push_back(recv);
                    continue;
                }
                const uint32_t d = Add(GoalOpKind::Calc, step.calc, 0, 0, "reduce" + from);
                Require(d, recv);
                Require(d, lastReduction);
                lastReduction = d;
                reduced = {d};
            }
            std::vector<uint32_t> have; // what chunk c's final data waits for
            if (root)
            {
                have = reduced;
            }
            else
            {
                const uint32_t send =
                    Add(GoalOpKind::Send, size, parent, tag + c, "up_send" + chunk);
                if (reduced.empty())
                {
                    Require(send, gate);
                }
                RequireAll(send, reduced);
                sinks.push_back(send);
                // Broadcast: the result of chunk c from the parent.
                const uint32_t recv =
                    Add(GoalOpKind::Recv, size, parent, tag + chunks + c, "down_recv" + chunk);
                Require(recv, gate);
                have = {recv};
                if (children.empty())
                {
                    sinks.push_back(recv);
                }
            }
            for (uint32_t child : children)
            {
                const uint32_t send = Add(GoalOpKind::Send, size, child, tag + chunks + c,
                                          "down_send" + chunk + "_" + std::to_string(child));
                RequireAll(send, have);
                sinks.push_back(send);
            }
        }
        m_done = std::move(sinks);
    }

    void Alltoall(const JobStep& step, uint32_t tag)
    {
        const uint32_t gate = Gate();
        std::vector<uint32_t> sinks;
        for (uint32_t k = 1; k < m_ranks; ++k)
        {
            const uint32_t dst = Rank(k);
            const uint32_t src = Rank(-static_cast<int64_t>(k));
            const std::string shift = std::to_string(k);
            const uint32_t send =
                Add(GoalOpKind::Send, Chunk(step.bytes, dst), dst, tag + k, "send" + shift);
            const uint32_t recv =
                Add(GoalOpKind::Recv, Chunk(step.bytes, m_rank), src, tag + k, "recv" + shift);
            Require(send, gate);
            Require(recv, gate);
            sinks.push_back(send);
            sinks.push_back(recv);
        }
        m_done = std::move(sinks);
    }

    void Pipeline(const JobStep& step, uint32_t tag)
    {
        const uint32_t gate = Gate();
        uint32_t ready = gate;
        if (m_rank > 0)
        {
            const uint32_t recv = Add(GoalOpKind::Recv, step.bytes, m_rank - 1, tag, "recv");
            Require(recv, gate);
            ready = recv;
        }
        if (step.calc > 0)
        {
            const uint32_t c = Add(GoalOpKind::Calc, step.calc, 0, 0, "stage");
            Require(c, ready);
            ready = c;
        }
        if (m_rank + 1 < m_ranks)
        {
            const uint32_t send = Add(GoalOpKind::Send, step.bytes, m_rank + 1, tag, "send");
            Require(send, ready);
            ready = send;
        }
        m_done = {ready};
    }

    uint32_t m_rank;
    uint32_t m_ranks;
    std::vector<GoalOp>& m_ops;
    std::vector<std::string>& m_labels;
    std::vector<GoalDependency>& m_dependencies;
    uint32_t m_line{0};
    std::string m_prefix;
    std::vector<uint32_t> m_done; //!< the previous step's operations nothing there awaits
};

} // namespace

uint64_t
JobStepCompiler::CountTags(const JobStep& step, uint32_t ranks)
{
    switch (step.kind)
    {
        case JobStepKind::Compute:
            return 0;
        case JobStepKind::Allreduce:
            return 2 * (uint64_t{ranks} - 1);
        case JobStepKind::TreeAllreduce:
            return 2 * uint64_t{step.chunks}; // reduce: chunk c; broadcast: chunks + c
        case JobStepKind::ReduceScatter:
        case JobStepKind::Allgather:
            return uint64_t{ranks} - 1;
        case JobStepKind::Alltoall:
            return ranks; // shifts 1 .. n - 1
        case JobStepKind::Send:
        case JobStepKind::Pipeline:
            return 1;
    }
    return 0;
}

uint64_t
JobStepCompiler::CountOps(const JobStep& step, uint32_t ranks)
{
    const uint64_t n = ranks;
    const uint64_t rounds = n - 1;
    const uint64_t reduce = step.calc > 0 ? rounds : 0;
    switch (step.kind)
    {
        case JobStepKind::Compute:
            return n;
        case JobStepKind::Allreduce:
            return Times(n, Plus(Times(4, rounds), reduce));
        case JobStepKind::TreeAllreduce:
            // Per chunk, over the n - 1 tree edges: a send and a recv up, a send and a recv
            // down, and a reduction at the parent.
            return Times(step.chunks, Plus(Times(4, rounds), reduce));
        case JobStepKind::ReduceScatter:
            return Times(n, Plus(Times(2, rounds), reduce));
        case JobStepKind::Allgather:
        case JobStepKind::Alltoall:
            return Times(n, Times(2, rounds));
        case JobStepKind::Send:
            return 2;
        case JobStepKind::Pipeline:
            return Plus(Times(2, rounds), step.calc > 0 ? n : 0);
    }
    return 0;
}

const char*
JobStepCompiler::KindName(JobStepKind kind)
{
    switch (kind)
    {
        case JobStepKind::Compute:
            return "compute";
        case JobStepKind::Allreduce:
        case JobStepKind::TreeAllreduce:
            return "allreduce";
        case JobStepKind::ReduceScatter:
            return "reduce_scatter";
        case JobStepKind::Allgather:
            return "allgather";
        case JobStepKind::Alltoall:
            return "alltoall";
        case JobStepKind::Send:
            return "send";
        case JobStepKind::Pipeline:
            return "pipeline";
    }
    return "";
}

const char*
JobStepCompiler::AlgorithmName(JobStepKind kind)
{
    switch (kind)
    {
        case JobStepKind::Allreduce:
        case JobStepKind::ReduceScatter:
        case JobStepKind::Allgather:
            return "ring";
        case JobStepKind::TreeAllreduce:
            return "tree";
        case JobStepKind::Alltoall:
            return "linear_shift";
        case JobStepKind::Compute:
        case JobStepKind::Send:
        case JobStepKind::Pipeline:
            return "";
    }
    return "";
}

GoalSchedule
JobStepCompiler::Compile(const std::vector<JobStep>& steps, uint32_t ranks, const std::string& name)
{
    std::vector<uint32_t> tags(steps.size(), 0);
    uint64_t next = 0;
    uint64_t count = 0;
    for (std::size_t i = 0; i < steps.size(); ++i)
    {
        tags[i] = static_cast<uint32_t>(next);
        next += CountTags(steps[i], ranks);
        count += CountOps(steps[i], ranks);
    }
    std::vector<GoalOp> ops;
    std::vector<std::string> labels;
    std::vector<GoalDependency> dependencies;
    ops.reserve(count);
    labels.reserve(count);
    dependencies.reserve(count);
    for (uint32_t r = 0; r < ranks; ++r)
    {
        RankEmitter rank(r, ranks, ops, labels, dependencies);
        for (std::size_t i = 0; i < steps.size(); ++i)
        {
            rank.Step(static_cast<uint32_t>(i), steps[i], tags[i]);
        }
    }
    return GoalSchedule(name, ranks, std::move(ops), std::move(labels), dependencies);
}

} // namespace ns3
