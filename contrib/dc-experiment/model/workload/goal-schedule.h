/*
 * A GOAL schedule: per-rank operations (send, recv, calc) and their dependencies.
 */
#ifndef GOAL_SCHEDULE_H
#define GOAL_SCHEDULE_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/** \ingroup dc-experiment What a GOAL operation does. */
enum class GoalOpKind : uint8_t
{
    Send,
    Recv,
    Calc,
};

/**
 * \ingroup dc-experiment
 * One operation of a GOAL schedule (doc/collective-traces.md). Plain data: the executor
 * reads it by index.
 */
struct GoalOp
{
    /** recv "from -1", recv "tag -1": any source, any tag. */
    static constexpr uint32_t ANY = UINT32_MAX;

    uint64_t size;   //!< send, recv: bytes; calc: amount, in the executor's CalcUnit
    uint32_t rank;   //!< the rank that runs it
    uint32_t peer;   //!< send: destination rank; recv: source rank or ANY; calc: 0
    uint32_t tag;    //!< send, recv: tag (0 when not given; recv: or ANY); calc: 0
    uint32_t cpu;    //!< "cpu" (0 when not given); read, not modelled
    uint32_t nic;    //!< "nic" (0 when not given); read, not modelled
    uint32_t line;   //!< the line of the file that gives it (from 1)
    GoalOpKind kind; //!< send, recv or calc
};

/** \ingroup dc-experiment A dependency as read: \c op waits for \c on to start or to end. */
struct GoalDependency
{
    uint32_t op;  //!< the dependent operation (global index)
    uint32_t on;  //!< the operation it waits for (global index)
    bool onStart; //!< "irequires": on's start; "requires": on's completion
};

/**
 * \ingroup dc-experiment
 * A GOAL schedule (the text format of the LogGOPSim toolchain and ATLAHS): num_ranks
 * ranks, each with its operations in file order and their dependencies. Operations are
 * numbered globally, rank by rank (rank r's are [GetFirstOp(r), GetFirstOp(r + 1))); each
 * operation's successors are kept as index ranges (compressed rows), so that an executor
 * walks them with no lookup. Read it with GoalScheduleReader, which checks it; the
 * constructor only lays it out.
 */
class GoalSchedule
{
  public:
    /** A range of operation indices (successors of an operation). */
    struct OpRange
    {
        const uint32_t* first; //!< the first index
        const uint32_t* last;  //!< one past the last index

        const uint32_t* begin() const { return first; }

        const uint32_t* end() const { return last; }
    };

    GoalSchedule() = default;
    /**
     * \param name the file (or string) read, for reports
     * \param nRanks num_ranks
     * \param ops every operation, rank by rank (ascending rank, file order within a rank)
     * \param labels the label of each operation ("" for none)
     * \param dependencies within a rank each
     */
    GoalSchedule(std::string name, uint32_t nRanks, std::vector<GoalOp> ops,
                 std::vector<std::string> labels, const std::vector<GoalDependency>& dependencies);

    /** \return the file or string name given to the reader. */
    const std::string& GetName() const;
    uint32_t GetNRanks() const;
    uint32_t GetNOps() const;
    /** \return the index of rank \p rank's first operation (\p rank may be GetNRanks()). */
    uint32_t GetFirstOp(uint32_t rank) const;
    const GoalOp& GetOp(uint32_t op) const;
    /** \return the label of \p op ("" for an operation without one). */
    const std::string& GetLabel(uint32_t op) const;
    /** \return "rank R op LABEL (line L)", or "rank R op #I (line L)" without a label. */
    std::string Describe(uint32_t op) const;
    /** \return the operations that wait for \p op to start ("irequires"). */
    OpRange GetStartSuccessors(uint32_t op) const;
    /** \return the operations that wait for \p op to complete ("requires"). */
    OpRange GetEndSuccessors(uint32_t op) const;
    /** \return how many operations' starts \p op waits for. */
    uint32_t GetNStartPredecessors(uint32_t op) const;
    /** \return how many operations' completions \p op waits for. */
    uint32_t GetNEndPredecessors(uint32_t op) const;
    /** \return the sends of the whole schedule. */
    uint64_t GetNSends() const;
    /** \return the bytes the sends carry (UINT64_MAX if more). */
    uint64_t GetSentBytes() const;

  private:
    /** Compressed rows of the \p onStart (or completion) dependencies into \p offsets, \p to. */
    void Lay(const std::vector<GoalDependency>& dependencies, bool onStart,
             std::vector<uint32_t>& offsets, std::vector<uint32_t>& to,
             std::vector<uint32_t>& predecessors);

    std::string m_name;
    uint32_t m_nRanks{0};
    std::vector<GoalOp> m_ops;
    std::vector<std::string> m_labels;
    std::vector<uint32_t> m_firstOp;      //!< per rank, and one past the last
    std::vector<uint32_t> m_startOffsets; //!< per op, and one: rows of m_startSuccessors
    std::vector<uint32_t> m_startSuccessors;
    std::vector<uint32_t> m_endOffsets; //!< per op, and one: rows of m_endSuccessors
    std::vector<uint32_t> m_endSuccessors;
    std::vector<uint32_t> m_startPredecessors; //!< per op
    std::vector<uint32_t> m_endPredecessors;   //!< per op
};

} // namespace ns3

#endif /* GOAL_SCHEDULE_H */
