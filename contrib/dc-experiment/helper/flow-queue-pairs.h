/*
 * The QP pairs of an experiment's flows, from the flow's start to its completion.
 */
#ifndef FLOW_QUEUE_PAIRS_H
#define FLOW_QUEUE_PAIRS_H

#include "topology-builder.h"

#include "ns3/experiment-config.h"
#include "ns3/non-default-attributes.h"
#include "ns3/nstime.h"
#include "ns3/rdma-queue-pair.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Each flow's connected QP pair (requester and responder; the requester posts the work
 * requests: src for WRITE and SEND, dst for READ) and its lifetime.
 *
 * At set-up (Reserve) a flow only gets its two QP numbers, in flow order, so that QP
 * numbers and UDP source ports (the ECMP hash input) are those of a run that creates every
 * QP at set-up. With lifetimes on, the pair is created when the flow starts (Open) and
 * released after the flow completes (Close), as soon as both QPs are quiescent
 * (RdmaQueuePair::IsQuiescent, no firmware CNP waiting, nobody else holding them):
 * memory then follows the flows in progress, not every flow ever offered. A flow whose
 * connection saw a loss, timeout or duplicate keeps its pair to the end (a packet of it
 * may still be in flight). What the outputs need of a released pair is kept: its
 * retransmission count and its attributes (for config.json). Without lifetimes (a
 * distributed run, whose ranks each see only one end of a flow) every pair is created at
 * set-up and kept, as before.
 */
class FlowQueuePairs
{
  public:
    FlowQueuePairs(const ExperimentConfig& config, TopologyBuilder& topology, bool lifetimes);

    /** Set-up, for each flow in id order: reserve its QP numbers (or connect it at once). */
    void Reserve(const ExperimentFlow& flow);
    /** The flow starts: create its pair if it does not exist. \return true if created. */
    bool Open(uint32_t id);
    /** The flow completed (its last completion): release the pair once it is quiescent. */
    void Close(uint32_t id);

    /** \return the QP that posts the flow's work requests (null while not open). */
    Ptr<RdmaQueuePair> GetRequester(uint32_t id) const;
    /** \return the flow's other QP (null while not open). */
    Ptr<RdmaQueuePair> GetResponder(uint32_t id) const;
    /** \return the QP on the flow's src: the requester, or the responder for READ. */
    Ptr<RdmaQueuePair> GetDataSender(uint32_t id) const;
    /**
     * \return true if \p completion, reported by the NIC of host \p host, is on a QP of flow
     * \p id: its requester's, or its responder's for a receive completion. Other QPs share
     * the NICs (collectives, Maestro endpoints) with work-request ids of their own.
     */
    bool IsFlowCompletion(uint32_t id, uint32_t host, const RdmaCompletion& completion) const;
    /** \return the QP number of the QP that places the flow's data at dst. */
    uint32_t GetPlacingQpn(uint32_t id) const;
    /** \return the MTU of the flow's data sender (without creating its QP). */
    uint32_t GetDataSenderMtu(uint32_t id);
    /** \return the INT hops of the requester's congestion control (without creating it). */
    uint8_t GetRequesterIntHops(uint32_t id);
    /** \return packets both QPs of the flow retransmitted (so far, or until released). */
    uint64_t GetRetransmittedPackets(uint32_t id) const;
    /**
     * \return the request packets of the flow that arrived after one of higher PSN, over
     * both responders (RdmaQpCounters::reorderedPackets; so far, or until released)
     * \param maxDistance receives the largest reorder distance, in packets
     */
    uint64_t GetReorderedPackets(uint32_t id, uint64_t& maxDistance) const;
    /** \return the flows whose pair exists now. */
    uint32_t GetNOpen() const;
    /**
     * After the run: tally the attributes of the pairs of flows that never started (which
     * a run connecting every flow at set-up would list in config.json), without keeping them.
     */
    void TallyUnopened();
    /** Tally the attributes of every flow's QPs, their CC and loss recovery, into \p out. */
    void AddAttributes(NonDefaultAttributes& out) const;

  private:
    /** POD per flow: what stays when its pair is released. */
    struct Slot
    {
        uint32_t requesterQpn{0};
        uint32_t responderQpn{0};
        uint64_t retransmitted{0}; //!< of the released pair
        uint64_t reordered{0};     //!< of the released pair
        uint64_t maxReorder{0};    //!< of the released pair
        uint8_t releaseTries{0};   //!< TryRelease attempts so far
        bool closed{false};        //!< Close was called
        bool released{false};
    };

    Ptr<RdmaNic> RequesterNic(uint32_t id) const;
    Ptr<RdmaNic> ResponderNic(uint32_t id) const;
    void Connect(uint32_t id);
    /** Release the flow's pair if it is quiescent, or try again later. */
    void TryRelease(uint32_t id);

    const ExperimentConfig& m_config;
    TopologyBuilder& m_topology;
    bool m_lifetimes;
    std::vector<Slot> m_slots;
    std::vector<Ptr<RdmaQueuePair>> m_requesters; //!< by flow id; null while not open
    std::vector<Ptr<RdmaQueuePair>> m_responders; //!< by flow id; null while not open
    std::vector<uint32_t> m_mtu;                  //!< per host: its QPs' MTU (0: not read yet)
    std::vector<int16_t> m_intHops; //!< per host: its QPs' INT hops (-1: not read yet)
    uint32_t m_open{0};
    NonDefaultAttributes m_releasedAttributes; //!< of the pairs already released
};

} // namespace ns3

#endif /* FLOW_QUEUE_PAIRS_H */
