/*
 * Poisson flow arrivals with sizes from a flow-size distribution.
 */
#ifndef POISSON_FLOW_GENERATOR_H
#define POISSON_FLOW_GENERATOR_H

#include "experiment-config.h"
#include "flow-size-cdf.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"

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
 * Three random streams (ns-3 RngStream, fixed by AssignStreams): interarrival
 * times (ExponentialRandomVariable), endpoints (UniformRandomVariable), sizes
 * (EmpiricalRandomVariable from the FlowSizeCdf, interpolating). Sizes are
 * rounded to whole bytes, at least 1. Flows are WRITEs; callers may change the verb.
 */
class PoissonFlowGenerator : public Object
{
  public:
    static TypeId GetTypeId();
    PoissonFlowGenerator();

    /** Set the flow-size distribution (required before Generate). */
    void SetSizeDistribution(const FlowSizeCdf& cdf);
    /** Fix the random streams from \p stream. \return the number of streams used (3) */
    int64_t AssignStreams(int64_t stream);

    /**
     * \return the flows, in start order, ids 0.., for \p nHosts hosts (>= 2).
     */
    std::vector<ExperimentFlow> Generate(uint32_t nHosts);

    /** \return the per-host arrival rate λ in flows per second. */
    double GetArrivalRatePerHost() const;

  protected:
    void DoDispose() override;

  private:
    double m_load;
    DataRate m_hostRate;
    Time m_start;
    Time m_duration;
    uint8_t m_priority;
    double m_meanBytes{0};
    double m_maxBytes{0};
    Ptr<ExponentialRandomVariable> m_interArrival;
    Ptr<UniformRandomVariable> m_endpoints;
    Ptr<EmpiricalRandomVariable> m_sizes;
};

} // namespace ns3

#endif /* POISSON_FLOW_GENERATOR_H */
