/*
 * Runs the "jobs" of an experiment: GOAL schedules over the hosts' RDMA NICs.
 */
#ifndef JOB_WORKLOAD_H
#define JOB_WORKLOAD_H

#include "experiment-workload.h"
#include "job-link-writer.h"

#include "ns3/experiment-config.h"
#include "ns3/goal-executor.h"
#include "ns3/goal-rdma-transport.h"
#include "ns3/nstime.h"

#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The workload of "jobs" (ExperimentJob): each job's GOAL schedule runs from its start,
 * iteration after iteration, on a GoalExecutor of its own per iteration, its messages
 * carried by one GoalRdmaTransport per job (a QP pair per host pair and direction, kept
 * over the iterations) on the NICs the other traffic of the run shares. An iteration
 * starts when the previous one has completed; the time of an iteration is from its
 * start to its last operation's end (GoalExecutor::GetMakespan), the job's completion time
 * from its start to the end of its last iteration.
 *
 * Outputs: jobs.csv (one row per iteration begun), job_links.csv (the bytes each directed
 * link sent in each completed iteration, JobLinkWriter: the ports' counters read when an
 * iteration starts and when it ends), job_steps.csv (only when a job has "steps": one row
 * per step of each iteration begun, from the first start of any of the step's operations
 * on any rank to the last end; one pass over the iteration's operations when it ends, the
 * step of an operation being its line minus one, JobStepCompiler) and summary.json's
 * "jobs". The run is done, as far as the jobs go, when every job has run every iteration.
 */
class JobWorkload : public ExperimentWorkload
{
  public:
    static constexpr const char* COLUMNS = "job,iteration,ranks,start_us,end_us,time_us";
    static constexpr const char* STEP_COLUMNS =
        "job,iteration,step,kind,algorithm,start_us,end_us,time_us";

    /** \p config and \p topology must outlive the workload. */
    JobWorkload(const ExperimentConfig& config, const TopologyBuilder& topology);

    void CheckConfig(const ExperimentRunContext& context) override;
    void Start(ExperimentRunContext& context) override;
    bool IsDone() const override;
    void Write(ExperimentRunContext& context) override;
    void AddToSummary(const ExperimentRunContext& context,
                      nlohmann::ordered_json& summary) const override;

    /** \return the times of job \p job's completed iterations, in order. */
    const std::vector<Time>& GetIterationTimes(uint32_t job) const;
    /** \return job \p job's completion time (Time::Max() while an iteration is left). */
    Time GetCompletionTime(uint32_t job) const;
    /**
     * \return when step \p step of completed iteration \p iteration of job \p job (a job
     * with "steps") began and ended: the first start of any of its operations, the last end
     */
    std::pair<Time, Time> GetStepTime(uint32_t job, uint32_t iteration, uint32_t step) const;

  private:
    /** What one job has run so far. */
    struct JobState
    {
        Ptr<GoalRdmaTransport> transport;
        Ptr<GoalExecutor> executor;    //!< of the iteration in progress (null: none)
        std::vector<Time> starts;      //!< of every iteration begun
        std::vector<Time> times;       //!< of every iteration completed
        Time end{Time::Max()};         //!< of the last iteration
        JobLinkWriter::Snapshot links; //!< the ports' counters at the iteration's start
        /** Steps jobs: per completed iteration, each step's first start and last end. */
        std::vector<Time> stepStarts;
        std::vector<Time> stepEnds;
    };

    void StartIteration(uint32_t job);
    void IterationDone(uint32_t job);
    void WriteSteps(ExperimentRunContext& context) const;

    const ExperimentConfig& m_config;
    const TopologyBuilder& m_topology;
    std::vector<JobState> m_jobs;
    JobLinkWriter m_links;
    uint32_t m_finished{0}; //!< jobs that ran every iteration
};

} // namespace ns3

#endif /* JOB_WORKLOAD_H */
