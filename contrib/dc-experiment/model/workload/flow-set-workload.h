/*
 * Incast and permutation flow sets ("flow_sets").
 */
#ifndef FLOW_SET_WORKLOAD_H
#define FLOW_SET_WORKLOAD_H

#include "workload-generator.h"

#include "ns3/experiment-config.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The "flow_sets" section (FlowSetReader): each set is an incast (every sender to one
 * dst) or a permutation (every host sends to one other host, each host receives once),
 * all flows of a set alike but for their endpoints.
 *
 * A permutation is Sattolo's algorithm (a single cycle, hence no host sends to itself)
 * over a std::mt19937_64 (fully specified by the C++ standard) seeded with Seed x
 * 1000003 + the set's index in "flow_sets": its own stream, which AssignStreams does
 * not number.
 */
class FlowSetWorkload : public WorkloadGenerator
{
  public:
    static TypeId GetTypeId();

    /** Add an incast set: \p senders each send \p flow (its fields but src, dst) to \p dst. */
    void AddIncast(const ExperimentFlow& flow, std::vector<uint32_t> senders, uint32_t dst);
    /** Add a permutation set, entry \p index of "flow_sets". */
    void AddPermutation(const ExperimentFlow& flow, uint64_t index);

    std::vector<ExperimentFlow> Generate(const ExperimentTopology& topology) override;

  private:
    /** One set. */
    struct FlowSet
    {
        ExperimentFlow flow;           //!< every field but src and dst
        bool permutation;              //!< else incast
        std::vector<uint32_t> senders; //!< incast
        uint32_t dst;                  //!< incast
        uint64_t index;                //!< permutation: its entry in "flow_sets"
    };

    std::vector<FlowSet> m_sets;
};

} // namespace ns3

#endif /* FLOW_SET_WORKLOAD_H */
