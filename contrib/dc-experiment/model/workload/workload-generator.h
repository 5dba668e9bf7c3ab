/*
 * The workload slot: what makes an experiment's flows, chosen by type.
 */
#ifndef WORKLOAD_GENERATOR_H
#define WORKLOAD_GENERATOR_H

#include "ns3/object.h"

#include <cstdint>
#include <vector>

namespace ns3
{

struct ExperimentFlow;
struct ExperimentTopology;

/**
 * \ingroup dc-experiment
 * Makes flows for an experiment: a list given in full ("flows", or a "flows_file"
 * trace, FlowListWorkload), incast and permutation sets ("flow_sets",
 * FlowSetWorkload), Poisson arrivals from a flow-size distribution ("workload",
 * PoissonFlowGenerator). The experiment file's readers configure one generator per
 * section; ExperimentConfig runs them after the whole file is parsed, in file-section
 * order, and numbers the flows.
 *
 * Randomness: each generator draws from its own streams (SeededRandomStream),
 * numbered from what AssignStreams gives it, at the experiment's seed ("Seed") and
 * run ("Run": ns-3's --RngRun, for independent replications), never by setting the
 * global RngSeedManager: the same file, seed and run give the same flows whatever
 * ran before in the process.
 */
class WorkloadGenerator : public Object
{
  public:
    static TypeId GetTypeId();

    /**
     * Fix the random streams from \p stream.
     * \return the number of streams used (0 for generators that draw nothing)
     */
    virtual int64_t AssignStreams(int64_t stream);

    /**
     * \return the flows for \p topology; ids are set by the caller, origin (the JSON
     * pointer of what made each flow) by the generator
     */
    virtual std::vector<ExperimentFlow> Generate(const ExperimentTopology& topology) = 0;

  protected:
    /** \return the experiment's seed ("Seed"). */
    uint32_t GetSeed() const;
    /** \return the first stream AssignStreams gave (0 before). */
    int64_t GetFirstStream() const;
    /** \return the run ("Run"). */
    uint64_t GetRun() const;

  private:
    uint32_t m_seed;
    uint64_t m_run;
    int64_t m_firstStream{0};
};

} // namespace ns3

#endif /* WORKLOAD_GENERATOR_H */
