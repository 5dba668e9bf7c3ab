/*
 * Carries a GOAL schedule's messages over RDMA queue pairs between the hosts' NICs.
 */
#ifndef GOAL_RDMA_TRANSPORT_H
#define GOAL_RDMA_TRANSPORT_H

#include "goal-transport.h"

#include "ns3/rdma-nic.h"
#include "ns3/rdma-work-request.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * A GoalTransport over the fabric: host h is RDMA NIC h. The first message from one host
 * to another connects a QP pair for that direction (RdmaHelper::Connect, with the NICs'
 * own attributes); every later message between them goes on it, so that messages of a
 * host pair stay in order. A message is one RDMA WRITE (several of at most
 * MaxWriteBytes for a larger one) whose requester completion (the ACK) is the send's
 * completion and whose last packet executed at the destination (the NIC's
 * MessageReceived) is the arrival. A WRITE needs no receive buffer: the GOAL recv is
 * matched by the executor.
 *
 * The QPs share the NICs with whatever else runs on them (flows, collectives); the
 * transport knows its own by their QP numbers, in per-host vectors. A completion in error
 * (retry exceeded, flushed) is counted (GetNFailed) and not reported: the executor then
 * never completes the message's send, and its stall report names it.
 */
class GoalRdmaTransport : public GoalTransport
{
  public:
    static TypeId GetTypeId();
    GoalRdmaTransport();

    /** Carry messages between \p nics (host h: nics[h]); call once, before the first Post. */
    void Setup(std::vector<Ptr<RdmaNic>> nics);

    /** \return the QP pairs connected so far. */
    uint32_t GetNConnections() const;
    /** \return the WRITEs completed in error so far. */
    uint64_t GetNFailed() const;
    /**
     * \return the packets the transport's QPs sent again so far (RdmaQpCounters
     * retransmittedPackets of every connection's requester and responder).
     */
    uint64_t GetRetransmittedPackets() const;
    /** \return the retransmission timeouts of the transport's QPs so far (RdmaQpCounters). */
    uint64_t GetTimeouts() const;

  protected:
    void DoDispose() override;

  private:
    /** A WRITE posted for a message: the message's id, and whether it is its last. */
    struct Write
    {
        uint32_t id;
        bool last;
    };

    /** A connected QP pair, one direction from src to dst, and its WRITEs in flight. */
    struct Connection
    {
        uint32_t src;
        uint32_t dst;
        Ptr<RdmaQueuePair> requester; //!< on src
        Ptr<RdmaQueuePair> responder; //!< on dst
        std::vector<Write> writes;    //!< in post order; completed and arrived from the heads
        std::size_t completedHead{0};
        std::size_t arrivedHead{0};
    };

    void DoPost(const GoalMessage& message) override;
    /** \return the connection from \p src to \p dst, connected now if new. */
    uint32_t ConnectionOf(uint32_t src, uint32_t dst);
    /** \return the connection of QP \p qpn on host \p host, or UINT32_MAX. */
    uint32_t Lookup(uint32_t host, uint32_t qpn) const;
    void Register(uint32_t host, uint32_t qpn, uint32_t connection);
    /** Drop the written-out head of \p c's WRITEs once every one completed and arrived. */
    static void Compact(Connection& c);

    static void CompletionAt(GoalRdmaTransport* self, uint32_t host, const RdmaCompletion& c);
    static void MessageReceivedAt(GoalRdmaTransport* self, uint32_t host, uint32_t qpn,
                                  uint64_t bytes);

    uint64_t m_maxWriteBytes;
    std::vector<Ptr<RdmaNic>> m_nics;
    std::vector<Connection> m_connections;
    /** Per source host: (destination host, connection), sorted by destination. */
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> m_outgoing;
    /** Per host: the connection of each QP number from RdmaNic::FIRST_QPN (UINT32_MAX: not ours).
     */
    std::vector<std::vector<uint32_t>> m_connectionOfQpn;
    uint64_t m_failed{0};
};

} // namespace ns3

#endif /* GOAL_RDMA_TRANSPORT_H */
