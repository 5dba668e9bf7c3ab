/*
 * Compiles the steps of a hand-written job (compute, collectives, sends) into a GoalSchedule.
 */
#ifndef JOB_STEP_COMPILER_H
#define JOB_STEP_COMPILER_H

#include "goal-schedule.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/** \ingroup dc-experiment What a step of a hand-written job does. */
enum class JobStepKind : uint8_t
{
    Compute,       //!< a calc on every rank
    Allreduce,     //!< ring: reduce-scatter, then all-gather
    TreeAllreduce, //!< binary tree: reduce to rank 0, broadcast back, pipelined in chunks
    ReduceScatter, //!< ring, the all-reduce's first half
    Allgather,     //!< ring, the all-reduce's second half
    Alltoall,      //!< linear shift: rank r sends to r + 1, r + 2, ... (mod n), all at once
    Send,          //!< one message from one rank to another
    Pipeline,      //!< rank 0 -> 1 -> ... -> n - 1, each rank passing on what it received
};

/**
 * \ingroup dc-experiment
 * One step of a hand-written job (doc/dc-experiment.md, "Jobs"), as JobStepReader checked
 * it. Plain data.
 */
struct JobStep
{
    JobStepKind kind{JobStepKind::Compute};
    /** Collectives: the buffer of each rank (n chunks); Send, Pipeline: the message. */
    uint64_t bytes{0};
    /**
     * Calc amount (in CalcUnits): Compute: the step's; Allreduce, TreeAllreduce,
     * ReduceScatter: the reduction of each received chunk (0: none); Pipeline: each rank's
     * stage (0: none).
     */
    uint64_t calc{0};
    /** TreeAllreduce: the chunks the buffer is cut into, the pipeline's depth (>= 1). */
    uint32_t chunks{0};
    uint32_t from{0}; //!< Send: the sending rank
    uint32_t to{0};   //!< Send: the receiving rank
};

/**
 * \ingroup dc-experiment
 * Compiles the steps of a hand-written job into a GoalSchedule, which the executor runs as
 * it runs a GOAL file. Every rank runs the steps in order; a step starts on a rank when the
 * rank's previous step (the last one with operations on that rank) is done there: its
 * first operations require the previous step's operations that nothing in that step waits
 * for (its sends and its last receive or calc), directly when that is one operation, else
 * through a zero-time calc that requires them all (a join). Each communicating step has
 * tags of its own (from 0, step after step), so that no message is taken by a receive of
 * another step.
 *
 * Chunks: a collective of \c bytes over n ranks cuts each rank's buffer into n chunks of
 * bytes / n, the last chunk also taking the remainder (bytes mod n), so that the chunks add
 * up to \c bytes (the tree all-reduce: into its \c chunks, below). The other algorithms are
 * those of test/dc-experiment/data/goal/'s generators:
 * - ring all-reduce: 2(n - 1) steps; in step k rank r sends a chunk to r + 1 and receives
 *   one from r - 1, the receive posted when the send starts (irequires); the send of step
 *   k + 1 waits for the receive of step k (and, in the n - 1 reduce-scatter steps, its
 *   reduction calc). Reduce-scatter step k sends chunk r - k and receives chunk r - k - 1;
 *   all-gather step j sends chunk r + 1 - j and receives chunk r - j (mod n).
 * - reduce-scatter alone: the first n - 1 steps; all-gather alone: rank r starts with
 *   chunk r, step j sends chunk r - j and receives chunk r - j - 1.
 * - all-to-all: rank r sends chunk d of its buffer to each rank d != r, in the order r + 1,
 *   r + 2, ..., r + n - 1 (tag: the shift), and receives from r - 1, r - 2, ...; every send
 *   and receive is posted at the step's start.
 * - pipeline: rank 0 computes its stage and sends to rank 1; rank i receives from i - 1,
 *   computes and sends to i + 1; the last rank receives and computes.
 * - tree all-reduce: the pipelined binary-tree all-reduce of NCCL's tree algorithm (NCCL
 *   2.4, "Massively Scale Your Deep Learning Training with NCCL 2.4", NVIDIA developer
 *   blog, 2019: a reduce up a binary tree to its root, then a broadcast down the same tree,
 *   the buffer cut into chunks so that the levels work on different chunks at once), on
 *   one tree: NCCL's double binary tree (two complementary trees, each carrying half of
 *   the buffer; Sanders, Speck and Traeff, "Two-tree algorithms for full bandwidth
 *   broadcast, reduction and scan", Parallel Computing 35(12), 2009) is not modelled. The
 *   tree is the binary heap of the ranks: rank r's parent is (r - 1) / 2, its children
 *   2r + 1 and 2r + 2 (those below n); rank 0 is the root. The buffer is cut into \c chunks
 *   chunks of bytes / chunks (the last with the remainder), and for each chunk c, in
 *   order: a rank receives chunk c from each child (tag c) and reduces it (one reduction
 *   per received chunk, one reduction after another on the rank), then sends the reduced
 *   chunk c to its parent (tag c); the root then sends chunk c to its children, and every
 *   other rank receives it from its parent (tag chunks + c) and sends it on to its
 *   children. Every receive is posted at the step's start; a leaf sends every chunk at the
 *   step's start (the transport carries the messages of a host pair in order, one after
 *   another). Each of the n - 1 tree edges carries the whole buffer once up and once
 *   down: 2(n - 1) x bytes over the network, as the ring.
 */
class JobStepCompiler
{
  public:
    /** \return the tags step \p step uses over \p ranks ranks (its tags: base + [0, n)). */
    static uint64_t CountTags(const JobStep& step, uint32_t ranks);
    /** \return the operations \p step adds over \p ranks ranks (joins not counted). */
    static uint64_t CountOps(const JobStep& step, uint32_t ranks);
    /**
     * \return the name of \p kind as a step writes it: "compute", "send", "pipeline" or
     * the collective ("allreduce", "reduce_scatter", "allgather", "alltoall")
     */
    static const char* KindName(JobStepKind kind);
    /** \return the algorithm of \p kind's collective ("ring", "tree", "linear_shift"; ""). */
    static const char* AlgorithmName(JobStepKind kind);

    /**
     * \return the schedule of \p steps over \p ranks ranks, named \p name. The caller
     * checked the steps (ranks, sizes, tags and operation counts in range, as
     * JobStepReader does). An operation's line is its step's index in \p steps plus one.
     */
    static GoalSchedule Compile(const std::vector<JobStep>& steps, uint32_t ranks,
                                const std::string& name);
};

} // namespace ns3

#endif /* JOB_STEP_COMPILER_H */
