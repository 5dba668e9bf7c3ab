/*
 * The totals of a run and, in a distributed run, their merge over the MPI ranks.
 */
#ifndef EXPERIMENT_RESULT_MERGE_H
#define EXPERIMENT_RESULT_MERGE_H

#include "experiment-run-context.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * After the run, collects this rank's PFC counters (per node, device and class:
 * xoff sent, xon sent, xoff received, paused ps) and drops (buffer-manager drops
 * per reason, then switch drops per reason, over all switches) and, in a
 * distributed run, sums them and the flow results over the ranks (the requester's
 * rank knows a flow's completion, the QPs' ranks its retransmissions, the
 * receiving host's rank its placement counts) and takes the run's end time as a
 * sequential run would: the last completion when every flow completed, else the
 * stop time. ExperimentPartition makes the MPI calls; every rank calls Merge.
 */
class ExperimentResultMerge
{
  public:
    explicit ExperimentResultMerge(const ExperimentRunContext& context);

    /**
     * Collect, and merge over the ranks.
     * \param results each flow's result (merged in place)
     * \param completed flows completed (recounted from the merged results)
     * \param finished flows finished (recounted likewise)
     * \param lastCompletion this rank's last completion
     * \param endTime this rank's end time (merged in place)
     */
    void Merge(std::vector<ExperimentFlowResult>& results,
               uint32_t& completed,
               uint32_t& finished,
               Time lastCompletion,
               Time& endTime);

    /** \return 4 counters per node, DcbNetDevice and class, in node and device order. */
    const std::vector<int64_t>& GetPfcCounters() const;
    /** \return BufferManager::N_DROP_REASONS then DcbSwitch::N_DROP_REASONS totals. */
    const std::vector<int64_t>& GetDrops() const;

  private:
    std::vector<int64_t> CollectPfcCounters() const;
    std::vector<int64_t> CollectDrops() const;

    const ExperimentRunContext& m_context;
    std::vector<int64_t> m_pfcCounters;
    std::vector<int64_t> m_drops;
};

} // namespace ns3

#endif /* EXPERIMENT_RESULT_MERGE_H */
