/*
 * Delivered bytes per flow and the exactly-once check of their placement.
 */
#ifndef DELIVERY_CHECKER_H
#define DELIVERY_CHECKER_H

#include "topology-builder.h"

#include "ns3/experiment-config.h"
#include "ns3/placement-digest.h"

#include <nlohmann/json.hpp>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Keeps a PlacementDigest per flow, fed by the receiving NIC's DataPlaced trace
 * (the responder for WRITE and SEND, the requester for READ: always the flow's dst).
 * Flow offsets: the runner gives message k of a flow the buffer offset k x
 * message_bytes (WRITE remote address, READ local address), so a WRITE or READ
 * placement address is the flow offset; a SEND placement is an offset in its
 * receive buffer, so the flow offset adds the bytes of the messages the receiver
 * completed before (MessageReceived).
 *
 * Per placement: one vector index by QPN and PlacementDigest::Place.
 */
struct ExperimentFlowResult;

class DeliveryChecker
{
  public:
    DeliveryChecker(const ExperimentConfig& config, const TopologyBuilder& topology);

    /**
     * Check flow \p flow, whose data queue pair at its dst is \p qpn.
     */
    void AddFlow(uint32_t flow, uint32_t qpn);
    /** Connect to the NICs' traces (after every AddFlow). */
    void Connect();

    /** \return the placements of flow \p flow at its receiver. */
    const PlacementDigest& GetDigest(uint32_t flow) const;

    /**
     * \return summary.json's "exactly_once": {"checked": flows checked, "violations":
     * [{"flow", "finished", "reason"}, ...] (at most \p max, in flow order),
     * "violation_count"}. A finished flow must have been placed exactly once and in
     * full; one not finished must have no byte placed twice or outside the flow. Made
     * from the per-flow counts of \p results (deliveredBytes, duplicateBytes,
     * outsideBytes, firstDuplicateOffset: from each flow's digest, merged over the ranks
     * of a distributed run), so a distributed run reports what a sequential one does.
     */
    static nlohmann::ordered_json Summarize(const std::vector<ExperimentFlow>& flows,
                                            const std::vector<ExperimentFlowResult>& results,
                                            std::size_t max = 100);

  private:
    // Static, with the checker as first argument: ns-3 < 3.37 binds arguments only to free
    // functions (MakeBoundCallback), not to a member function with its object.
    static void OnPlaced(DeliveryChecker* self, uint32_t host, uint32_t qpn, uint64_t address,
                         uint32_t bytes);
    static void OnMessage(DeliveryChecker* self, uint32_t host, uint32_t qpn, uint64_t bytes);

    static constexpr uint32_t NONE = UINT32_MAX;

    const ExperimentConfig& m_config;
    const TopologyBuilder& m_topology;
    std::vector<PlacementDigest> m_digests;      //!< per flow
    std::vector<uint64_t> m_sendBase;            //!< per flow: SEND bytes completed
    std::vector<std::vector<uint32_t>> m_flowOf; //!< per host, per qpn - FIRST_QPN
};

} // namespace ns3

#endif /* DELIVERY_CHECKER_H */
