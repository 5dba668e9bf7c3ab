/*
 * Checks that a GOAL schedule's sends and recvs can be matched one to one.
 */
#ifndef GOAL_MESSAGE_BALANCE_H
#define GOAL_MESSAGE_BALANCE_H

#include "goal-schedule.h"

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The counting check of a GOAL schedule's messages: for each destination rank, can its
 * recvs take every send addressed to it, one each? A recv from rank s with tag t takes
 * only sends (s, t); one from -1 (any source) with tag t, any send with tag t; one from s
 * with tag -1, any send from s; one from -1 with tag -1, any send. Exact recvs are matched
 * first, by count per (source, destination, tag); the sends they leave go to the
 * any-source and any-tag recvs by a maximum flow over (source, tag) classes, and what is
 * still left to the recvs that take anything.
 *
 * The check is on counts: it does not prove that a run matches them so (a wildcard recv
 * that runs first may take a send another recv waited for); the executor reports what
 * is left unmatched at the end of a run.
 */
class GoalMessageBalance
{
  public:
    /**
     * \throw ExperimentConfigError listing every recv that no send can match and every send
     * that no recv can take, each at its line
     */
    static void Check(const GoalSchedule& schedule);
};

} // namespace ns3

#endif /* GOAL_MESSAGE_BALANCE_H */
