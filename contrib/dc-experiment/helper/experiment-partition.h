/*
 * What an ExperimentRunner needs to know when it simulates one part of a
 * distributed (MPI) run.
 */
#ifndef EXPERIMENT_PARTITION_H
#define EXPERIMENT_PARTITION_H

#include "ns3/fabric-partitioner.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The rank of this process in a distributed run, how the network is split
 * (FabricPartitioner), and how to combine numbers over all ranks. The MPI
 * implementation is MpiExperimentPartition (built with ns-3's mpi module); the
 * runner itself makes no MPI call, so it builds without MPI.
 *
 * Sum and Max are collective: every rank calls them in the same order, from
 * outside Simulator::Run or from events every rank executes at the same
 * simulated time (granted-time-window synchronisation only).
 */
class ExperimentPartition
{
  public:
    virtual ~ExperimentPartition() = default;

    virtual uint32_t GetRank() const = 0;
    virtual uint32_t GetNRanks() const = 0;
    virtual FabricPartitioner::Mode GetMode() const = 0;
    /**
     * \return true when every rank executes the same events at the same
     * simulated times between synchronisations (granted time window), so an
     * event may call Sum/Max; false for null-message synchronisation.
     */
    virtual bool CanReduceDuringRun() const = 0;
    /** Element-wise sum over all ranks; every rank gets the result. */
    virtual void Sum(std::vector<int64_t>& values) const = 0;
    /** Element-wise maximum over all ranks; every rank gets the result. */
    virtual void Max(std::vector<int64_t>& values) const = 0;
};

} // namespace ns3

#endif /* EXPERIMENT_PARTITION_H */
