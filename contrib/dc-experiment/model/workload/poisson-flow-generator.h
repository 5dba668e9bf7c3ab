/*
 * Poisson flow arrivals with sizes from a flow-size distribution.
 */
#ifndef POISSON_FLOW_GENERATOR_H
#define POISSON_FLOW_GENERATOR_H

#include "flow-size-cdf.h"
#include "workload-generator.h"

#include "ns3/data-rate.h"
#include "ns3/experiment-config.h"
#include "ns3/nstime.h"

#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Generates an open-loop workload: every host starts flows as a Poisson
 * process whose rate makes the offered load \c Load × \c HostRate, that is
 * λ = Load · HostRate / (8 · mean flow size) flows per second per host. The
 * superposition over n hosts is drawn as one Poisson process of rate n·λ
 * whose flows pick their source uniformly; the destination is uniform among
 * the other hosts. Arrivals fall in [Start, Start + Duration).
 *
 * With \c BisectionRate B set (> 0), \c Load is a fraction of the fabric's
 * bisection instead (FabricBisection): the expected traffic crossing the
 * bisection in each direction is Load × B. With uniform pairs among n hosts
 * split into halves of a = ⌊n/2⌋ and b = n − a hosts, a fraction
 * a·b / (n·(n − 1)) of all bytes crosses in each direction, so the hosts
 * together offer Load × B × n(n − 1) / (a·b) bit/s (≈ 4·Load·B for large n).
 *
 * Three random streams at the generator's Seed (SeededRandomStream, numbered by
 * AssignStreams): interarrival times (as ExponentialRandomVariable draws them),
 * endpoints (as UniformRandomVariable), sizes (as EmpiricalRandomVariable from the
 * FlowSizeCdf, interpolating: FlowSizeCdf::GetQuantile). Sizes are rounded to whole
 * bytes, at least 1. The generator is the "workload" of type "poisson"
 * (PoissonWorkloadReader).
 */
class PoissonFlowGenerator : public WorkloadGenerator
{
  public:
    static TypeId GetTypeId();
    PoissonFlowGenerator();

    /** Set the flow-size distribution (required before Generate). */
    void SetSizeDistribution(const FlowSizeCdf& cdf);
    /** Fix the random streams from \p stream. \return the number of streams used (3) */
    int64_t AssignStreams(int64_t stream) override;
    /** Set the JSON pointer the flows name as their origin ("/workload"). */
    void SetOrigin(const std::string& pointer);

    /**
     * \return the flows, in start order, ids 0.., for \p nHosts hosts (>= 2).
     */
    std::vector<ExperimentFlow> Generate(uint32_t nHosts);
    /** \return Generate(the number of hosts of \p topology). */
    std::vector<ExperimentFlow> Generate(const ExperimentTopology& topology) override;

    /**
     * \param nHosts the number of hosts (needed only with a BisectionRate)
     * \return the per-host arrival rate λ in flows per second.
     */
    double GetArrivalRatePerHost(uint32_t nHosts = 0) const;

  private:
    /** "Verb" as EnumValue holds it (RdmaVerb is an enum class). */
    void SetVerbValue(int verb);
    /** \return "Verb" as EnumValue holds it. */
    int GetVerbValue() const;

    double m_load;
    DataRate m_hostRate;
    DataRate m_bisectionRate;
    Time m_start;
    Time m_duration;
    uint8_t m_priority;
    RdmaVerb m_verb;
    std::string m_origin;
    std::optional<FlowSizeCdf> m_sizes;
};

} // namespace ns3

#endif /* POISSON_FLOW_GENERATOR_H */
