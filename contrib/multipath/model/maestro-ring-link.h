/*
 * One hop of a ring workload: a message channel from one worker to the next,
 * over a Maestro endpoint or over a single RDMA queue pair (the ECMP baseline).
 */
#ifndef MAESTRO_RING_LINK_H
#define MAESTRO_RING_LINK_H

#include "maestro-endpoint.h"

#include "ns3/rdma-nic.h"
#include "ns3/ring-hop.h"

namespace ns3
{

/**
 * \ingroup multipath
 * The RingHop of RingAllreduce and MaestroTokenRing over RDMA: sends one message at a
 * time from a worker to its successor (Send) and calls back when it is done. By default "done" is
 * the sender's completion: an RC WRITE completes when the receiver has acknowledged every byte, so
 * it also tells the workload that the data is placed at the successor (what the collectives use:
 * the sender may then reuse its buffer). A receiver-notified link is done when the successor learns
 * of the message from an immediate: over Maestro a SEND (WRITE chunks, the immediate on the last),
 * over a single QP a WRITE with immediate; the successor keeps receives posted (what the token ring
 * uses: MPI token passing).
 */
class MaestroRingLink : public RingHop
{
  public:
    static TypeId GetTypeId();

    /**
     * Messages go through a Maestro endpoint (multi-path); \p notifyReceiver: done
     * when the successor's MessageReceived fires, else at the sender's completion.
     */
    static Ptr<MaestroRingLink> OverEndpoint(Ptr<MaestroEndpoint> endpoint,
                                             bool notifyReceiver = false);
    /**
     * Messages go as WRITEs on \p qp of \p nic (single path, ECMP-hashed): one per
     * message, or consecutive ones of at most MaxMessageBytes for a larger message.
     */
    static Ptr<MaestroRingLink> OverQueuePair(Ptr<RdmaNic> nic, Ptr<RdmaQueuePair> qp);
    /**
     * Messages go as single WRITEs with immediate on the connected pair \p qps
     * (first on \p nic, second on \p peerNic); done at the successor's receive
     * completion.
     */
    static Ptr<MaestroRingLink> OverQueuePairNotified(
        Ptr<RdmaNic> nic, std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> qps,
        Ptr<RdmaNic> peerNic);

    /** Messages that completed with an error (reported done all the same). */
    uint64_t GetNFailed() const;
    Ptr<MaestroEndpoint> GetEndpoint() const;

  protected:
    void DoDispose() override;

  private:
    /** Post a WRITE of \p bytes to \p remoteAddr; one message at a time. */
    void DoSend(uint64_t bytes, uint64_t remoteAddr) override;
    void OnMessage(const MaestroMessageCompletion& c);
    void OnCompletion(const RdmaCompletion& c);
    void OnPeerCompletion(const RdmaCompletion& c);
    void OnReceived(uint32_t messageId);
    void Finish(bool success);

    Ptr<MaestroEndpoint> m_endpoint;
    Ptr<RdmaQueuePair> m_qp;
    Ptr<RdmaQueuePair> m_peerQp; //!< receiver-notified single QP: the successor's QP
    bool m_notifyReceiver{false};
    uint64_t m_messageId{0};                       //!< over Maestro: the message in flight
    uint64_t m_maxMessageBytes{uint64_t(1) << 30}; //!< single QP: largest work request
    uint64_t m_partsLeft{0};  //!< single QP: work requests of the message not completed
    bool m_partFailed{false}; //!< single QP: one of them completed with an error
    uint64_t m_failed{0};
};

} // namespace ns3

#endif /* MAESTRO_RING_LINK_H */
