/*
 * Reads a GOAL schedule file (the LogGOPSim toolchain's text format) and checks it.
 */
#ifndef GOAL_SCHEDULE_READER_H
#define GOAL_SCHEDULE_READER_H

#include "goal-schedule.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Reads the GOAL text format (doc/collective-traces.md):
 *
 * \code
 * num_ranks 2
 * rank 0 {
 *   l1: calc 100 cpu 0
 *   l2: send 1024b to 1 tag 7
 *   l2 requires l1
 * }
 * rank 1 {
 *   recv 1024b from 0 tag 7     // any source: from -1; any tag: tag -1
 * }
 * \endcode
 *
 * and checks it: ranks in range, each rank's block once and closed, labels defined once
 * per block, dependencies naming defined labels and free of cycles within a rank, and
 * every send with a recv to match it and every recv with a send (GoalMessageBalance).
 * Every problem is an ExperimentConfigError naming the file, the line and column and what
 * was expected; the message balance reports all its problems at once.
 */
class GoalScheduleReader
{
  public:
    /** The largest size of a send or recv and the largest calc amount: 2^63. */
    static constexpr uint64_t MAX_SIZE = uint64_t{1} << 63;
    /** The largest num_ranks. */
    static constexpr uint32_t MAX_RANKS = UINT32_MAX - 1;
    /** The largest tag a send may carry (recv: or -1, any tag), as MPI's non-negative int. */
    static constexpr uint32_t MAX_TAG = INT32_MAX;

    /** \return the schedule in file \p path \throw ExperimentConfigError */
    static GoalSchedule ReadFile(const std::string& path);
    /** \return the schedule in \p text, reported as file \p name \throw ExperimentConfigError */
    static GoalSchedule ReadString(const std::string& text, const std::string& name);
};

} // namespace ns3

#endif /* GOAL_SCHEDULE_READER_H */
