/*
 * ExperimentPartition over MPI (ns-3's mpi module).
 */
#ifndef MPI_EXPERIMENT_PARTITION_H
#define MPI_EXPERIMENT_PARTITION_H

#include "experiment-partition.h"

#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Starts MPI for a program run under mpirun and, with more than one rank,
 * selects ns-3's distributed simulator: "window" is DistributedSimulatorImpl
 * (granted time window: all ranks synchronise every lookahead), "null-message"
 * is NullMessageSimulatorImpl (Chandy-Misra-Bryant null messages). With one
 * rank nothing changes: the run is the ordinary sequential one.
 *
 * Construct it first thing in main() and keep it alive past
 * Simulator::Destroy(); the destructor shuts MPI down. Built only when ns-3 has
 * its mpi module (./roce-lab setup --mpi).
 */
class MpiExperimentPartition : public ExperimentPartition
{
  public:
    /**
     * \param sync "window" or "null-message"
     * \throw std::invalid_argument for another \p sync
     */
    MpiExperimentPartition(int* argc, char*** argv, FabricPartitioner::Mode mode,
                           const std::string& sync);
    ~MpiExperimentPartition() override;
    MpiExperimentPartition(const MpiExperimentPartition&) = delete;
    MpiExperimentPartition& operator=(const MpiExperimentPartition&) = delete;

    uint32_t GetRank() const override;
    uint32_t GetNRanks() const override;
    FabricPartitioner::Mode GetMode() const override;
    bool CanReduceDuringRun() const override;
    void Sum(std::vector<int64_t>& values) const override;
    void Max(std::vector<int64_t>& values) const override;

  private:
    uint32_t m_rank{0};
    uint32_t m_nRanks{1};
    FabricPartitioner::Mode m_mode;
    bool m_window{true};
    bool m_interfaceEnabled{false};
};

} // namespace ns3

#endif /* MPI_EXPERIMENT_PARTITION_H */
