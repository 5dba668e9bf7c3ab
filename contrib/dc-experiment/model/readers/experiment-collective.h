/*
 * The "collectives" section of an experiment file: ring collectives among chosen
 * hosts, over Maestro endpoints or over one queue pair per neighbour pair.
 */
#ifndef EXPERIMENT_COLLECTIVE_H
#define EXPERIMENT_COLLECTIVE_H

#include "ns3/experiment-component.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * One entry of "collectives" (doc/dc-experiment.md, "Collectives"): a ring collective
 * (RingAllreduce) among \p hosts, in ring order (host k sends to host k + 1, the
 * last to the first). Each ring hop is a Maestro endpoint (multi-path), one QP pair or a
 * DFabric rack DMA.
 */
struct ExperimentCollective
{
    std::string name; //!< "collective<i>" unless given
    std::string type; //!< "ring_allreduce", "allgather", "token_ring" or "message_stream"
    std::vector<uint32_t> hosts; //!< host indices, in ring order
    uint64_t bytes{0};           //!< model (gradient) bytes per iteration
    bool overMaestro{false};     //!< "over": "maestro"
    bool overDfabric{false};     //!< "over": "dfabric" (rack DMA hops; neither: "qps")
    Time start;                  //!< first iteration's compute phase begins
    uint32_t iterations{1};
    Time computeTime;              //!< compute phase before each iteration's communication
    ExperimentComponent endpoint;  //!< ns3::MaestroEndpoint attributes ("maestro"/"endpoint")
    ExperimentComponent qpManager; //!< ns3::MaestroQpManager attributes ("maestro"/"qp_manager")
    bool probe{false};             //!< "maestro"/"probe": probe every path at set-up
    uint32_t outstanding{0};       //!< message_stream: messages in flight
    Time duration;                 //!< message_stream: posts new messages this long
    Time pathInterval;             //!< zero: no per-path samples (paths.csv)
    std::string pointer;           //!< of the entry

    /** \return "maestro", "dfabric" or "qps" (its "over"). */
    std::string GetOver() const
    {
        return overMaestro ? "maestro" : (overDfabric ? "dfabric" : "qps");
    }
};

} // namespace ns3

#endif /* EXPERIMENT_COLLECTIVE_H */
