/*
 * A reliable-connected (RC) queue pair: requester and responder of one connection.
 */
#ifndef RDMA_QUEUE_PAIR_H
#define RDMA_QUEUE_PAIR_H

#include "rdma-cc-state.h"
#include "rdma-congestion-ops.h"
#include "rdma-loss-recovery.h"
#include "rdma-qp-counters.h"
#include "rdma-requester.h"
#include "rdma-responder.h"
#include "rdma-work-request.h"

#include "ns3/ipv4-address.h"
#include "ns3/object.h"
#include "ns3/packet.h"

namespace ns3
{

class RdmaNic;

/**
 * \ingroup rdma
 * One end of an RC connection. The requester side segments posted work requests
 * at the path MTU into PSN-numbered packets (a READ takes one request packet and
 * as many PSNs as response packets), paced by the congestion controller's rate
 * and capped by its window, and completes them when acknowledged. The responder
 * side executes requests in PSN order, acknowledges them (every AckInterval
 * packets and whenever the AckReq bit is set, i.e. at each message end), sends
 * READ responses, NAKs sequence errors and, as DCQCN notification point, CNPs.
 *
 * The queue pair is the facade of the connection: the requester side is an
 * RdmaRequester, the responder side an RdmaResponder, both reporting to the NIC
 * through RdmaQpOwner. Loss handling is delegated to an RdmaLossRecovery,
 * rate/window to an RdmaCongestionOps, both private to this QP and shared by its
 * two sides.
 */
class RdmaQueuePair : public Object
{
  public:
    static TypeId GetTypeId();
    RdmaQueuePair();
    ~RdmaQueuePair() override;

    /** Wire up the connection; called by RdmaNic::CreateQueuePair. */
    void Setup(RdmaNic* nic, uint32_t qpn, Ipv4Address local, Ipv4Address remote,
               Ptr<RdmaCongestionOps> cc, Ptr<RdmaLossRecovery> lossRecovery);
    /** Set the remote QP number (the peer's end, as rdma_cm exchanges it). */
    void Connect(uint32_t remoteQpn);

    /** ibv_post_send. */
    void PostSend(const RdmaWorkRequest& wr);
    /** ibv_post_recv. */
    void PostRecv(const RdmaRecvRequest& rr);

    uint32_t GetQpn() const;
    uint32_t GetRemoteQpn() const;
    Ipv4Address GetLocalAddress() const;
    Ipv4Address GetRemoteAddress() const;
    uint16_t GetUdpSourcePort() const;
    void SetUdpSourcePort(uint16_t port);
    uint8_t GetDscp() const;
    uint8_t GetTrafficClass() const;
    uint32_t GetMtu() const;
    const RdmaCcState& GetCcState() const;
    Ptr<RdmaCongestionOps> GetCongestionOps() const;
    /** \return the QP's own loss recovery (forked from the NIC's prototype). */
    Ptr<RdmaLossRecovery> GetLossRecovery() const;
    const RdmaQpCounters& GetCounters() const;
    /** \return work requests posted and not yet completed. */
    uint32_t GetOutstandingWorkRequests() const;
    /** \return work requests whose new packets are not all sent (RdmaRequester). */
    uint32_t GetUnsentWorkRequests() const;
    /** \return true once the QP failed (retry exceeded) and flushed its queues. */
    bool IsInError() const;
    /**
     * \return true if the QP's requester can never progress by itself: work requests
     * outstanding, not in error, nothing to send and no timer pending
     * (RdmaRequester::IsStalled; an invariant violation the runs report).
     */
    bool IsStalled() const;
    /**
     * Move the QP to the error state, as ibv_modify_qp(IBV_QPS_ERR): every posted
     * send and receive completes with RdmaWcStatus::Flushed, later posts are
     * flushed at once and nothing more is sent.
     */
    void SetError();

    // ---- used by RdmaNic
    /** \return true if the QP has a packet it may send now, ignoring pacing. */
    bool HasTxWork() const;
    /** \return the earliest time the rate limiter lets the next packet go. */
    Time GetNextTxTime() const;
    /** \return true while a per-burst pacer is inside a burst (schedulers keep the QP). */
    bool IsMidBurst() const;
    /** Build the next packet (BTH onwards, no IP/UDP/Ethernet); nullptr if none. */
    Ptr<Packet> BuildNextPacket();
    /**
     * A packet for this QP arrived (IP, UDP removed; starts at the BTH) after crossing
     * \p hops switches (IPv4 TTL decrement; 0: unknown).
     */
    void Receive(Ptr<Packet> packet, bool ceMarked, uint8_t hops = 0);
    /** Send a CNP to the sender now (RdmaNic::RequestCnp decides when). */
    void SendCnp();

    /**
     * \return true if the QP may be released (RdmaNic::ReleaseQueuePair) without any effect
     * on the rest of the run: no work request outstanding, nothing to send, not in the
     * scheduler, and a clean history (no retransmission, timeout, NAK, duplicate or
     * out-of-order packet), so that once its peer has everything it sent, none of its
     * packets is still in flight. CNPs still on their way to it are dropped on arrival,
     * which only the released QP's congestion control would have noticed.
     */
    bool IsQuiescent() const;

    /** \return true while the NIC's QP scheduler holds this QP in its active list. */
    bool IsInActiveList() const;
    /** The QP scheduler took this QP into (\p held) or out of its active list. */
    void SetInActiveList(bool held);

  protected:
    void DoDispose() override;

  private:
    /** The loss recovery's slow path made a retransmission available. */
    void LossTxReady();
    /** The loss recovery's slow path lets kept packets below \p upTo be executed. */
    void LossDeliver(uint64_t upTo);

    RdmaQpOwner* m_owner{nullptr};
    uint32_t m_qpn{0};
    uint32_t m_remoteQpn{0};
    Ipv4Address m_local;
    Ipv4Address m_remote;
    uint16_t m_udpSourcePort{0xc000};
    uint8_t m_dscp;
    uint32_t m_mtu;
    uint32_t m_ackInterval;
    Time m_rnrTimer;
    bool m_srnicExtensions{false};
    uint64_t m_inFlightCap{0};            //!< bytes; 0: none
    bool m_inFlightCapFollowsRate{false}; //!< scaled by rate / line rate
    Ptr<RdmaCongestionOps> m_cc;
    Ptr<RdmaLossRecovery> m_loss;
    RdmaQpCounters m_counters;
    RdmaRequester m_requester;
    RdmaResponder m_responder;
    bool m_inActiveList{false};
};

} // namespace ns3

#endif /* RDMA_QUEUE_PAIR_H */
