/*
 * The "jobs" section of an experiment file: GOAL schedules run on chosen hosts.
 */
#ifndef EXPERIMENT_JOB_H
#define EXPERIMENT_JOB_H

#include "ns3/experiment-component.h"
#include "ns3/goal-schedule.h"
#include "ns3/job-step-compiler.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * One entry of "jobs" (doc/dc-experiment.md, "Jobs"): the GOAL schedule of a file
 * (doc/collective-traces.md), or the one JobStepCompiler made of the entry's "steps", run
 * \p iterations times in a row from \p start, rank r on host \p hosts[r], each iteration
 * starting when the previous one has completed.
 */
struct ExperimentJob
{
    std::string name;                             //!< "job<i>" unless given
    std::string path;                             //!< the GOAL file, resolved ("": steps)
    std::shared_ptr<const GoalSchedule> schedule; //!< read and checked at load time
    /** The "steps" compiled into \c schedule (empty for a GOAL file): op line = step + 1. */
    std::vector<JobStep> steps;
    std::vector<uint32_t> hosts; //!< the host of each rank
    uint32_t iterations{1};
    Time start{0};
    ExperimentComponent executor; //!< ns3::GoalExecutor attributes (CalcUnit)
    std::string pointer;          //!< JSON pointer of the entry
};

} // namespace ns3

#endif /* EXPERIMENT_JOB_H */
