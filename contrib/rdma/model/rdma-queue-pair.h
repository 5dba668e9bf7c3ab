/*
 * A reliable-connected (RC) queue pair: requester and responder of one connection.
 */
#ifndef RDMA_QUEUE_PAIR_H
#define RDMA_QUEUE_PAIR_H

#include "movable-timer.h"
#include "rdma-cc-state.h"
#include "rdma-congestion-ops.h"
#include "rdma-loss-recovery.h"
#include "rdma-read-response-tracker.h"
#include "rdma-work-request.h"
#include "roce-aeth-header.h"
#include "roce-bth-header.h"
#include "roce-reth-header.h"
#include "roce-sack-header.h"
#include "roce-srnic-ext-header.h"

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/object.h"
#include "ns3/packet.h"

#include <deque>
#include <vector>

namespace ns3
{

class RdmaNic;

/**
 * \ingroup rdma
 * Per-QP counters.
 */
struct RdmaQpCounters
{
    uint64_t dataPacketsSent{0}; //!< request packets and read responses, first sends and resends
    uint64_t retransmittedPackets{0}; //!< packets sent again (PSN below the highest sent)
    uint64_t payloadBytesSent{0};
    uint64_t acksSent{0};
    uint64_t naksSent{0};
    uint64_t naksReceived{0};
    uint64_t cnpsSent{0};
    uint64_t cnpsReceived{0};
    uint64_t timeouts{0};
    uint64_t outOfOrderDropped{0}; //!< responder drops of packets ahead of the expected PSN
    uint64_t duplicatesReceived{0};
    uint64_t ecnEchoesReceived{0};       //!< ACKs with BECN set (CE echoed for window CC)
    uint64_t outOfOrderBuffered{0};      //!< responder: packets kept ahead of the expected PSN
    uint64_t readResponsesOutOfOrder{0}; //!< requester (selective repeat): READ responses
                                         //!< placed ahead of a missing one
};

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
 * Loss handling is delegated to an RdmaLossRecovery, rate/window to an
 * RdmaCongestionOps, both private to this QP.
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
    /** \return true once the QP failed (retry exceeded) and flushed its queues. */
    bool IsInError() const;
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
    /** A packet for this QP arrived (IP, UDP removed; starts at the BTH). */
    void Receive(Ptr<Packet> packet, bool ceMarked);
    /** Send a CNP to the sender now (RdmaNic::RequestCnp decides when). */
    void SendCnp();

    /** Bookkeeping for the NIC's active list. */
    bool m_inActiveList{false};

  protected:
    void DoDispose() override;

  private:
    struct SendWqe
    {
        RdmaWorkRequest wr;
        uint64_t firstPsn;
        uint32_t nPackets;
        uint32_t received; //!< READ: response packets received in order
        Time postTime;
    };

    struct RecvWqe
    {
        RdmaRecvRequest rr;
        Time postTime;
    };

    struct ReadResponseJob
    {
        uint64_t firstPsn;
        uint32_t nPackets;
        uint32_t next;
        uint64_t length;
        // SRNIC header extensions: the READ request's metadata, echoed per response
        uint64_t echoVa{0};     //!< requester's destination of the first response
        uint32_t echoKey{0};    //!< requester's key
        uint32_t echoLength{0}; //!< bytes the request asked for
        uint32_t echoOffset{0}; //!< PSN offset (in the READ) of the first response
    };

    /** What an ACK/NAK echoes with SRNIC header extensions: SSN and PSN offset. */
    struct AckEcho
    {
        uint32_t ssn{0};
        uint32_t psnOffset{0};
    };

    // requester
    Ptr<Packet> BuildRequestPacket();
    Ptr<Packet> BuildReadResponse();
    SendWqe* FindWqe(uint64_t psn);
    /** The WQE whose message starts at \p firstPsn (an echoed SSN/PSN offset). */
    SendWqe* FindWqeByFirstPsn(uint64_t firstPsn);
    void HandleAck(uint64_t psn, const RoceBthHeader& bth, Ptr<Packet> packet);
    void AcknowledgeUpTo(uint64_t psn, bool ecnEcho = false);
    void HandleReadResponse(uint64_t psn, const RoceBthHeader& bth, Ptr<Packet> packet);
    void CompleteFront(RdmaWcStatus status);
    void RewindTo(uint64_t psn);
    void ArmRetransmitTimer();
    void RetransmitTimeout();
    void RnrRetry();
    /** Apply a PSN-sequence-error NAK at \p psn (with SACK \p sack) to the loss recovery. */
    void ApplySequenceNak(uint64_t psn, uint64_t sack);
    /** ApplySequenceNak after the loss recovery's NakReactionTime, restarting the timer. */
    void ApplyDelayedSequenceNak(uint64_t psn, uint64_t sack);
    void Flush(RdmaWcStatus status);
    void AfterSend(uint64_t psn, uint32_t payload);
    uint64_t UnwrapRequesterPsn(uint32_t wire) const;

    // responder
    void HandleRequest(uint64_t psn, const RoceBthHeader& bth, Ptr<Packet> packet);
    void ExecuteRequest(uint64_t psn, const RoceBthHeader& bth, Ptr<Packet> packet);
    /**
     * With SRNIC header extensions, read (\p remove: take) the request's extension
     * into \p ext and note it as the metadata the next ACK/NAK echoes.
     * \return false when the QP carries no extensions.
     */
    bool ReadRequestExtension(uint64_t psn, RoceOpcode op, Ptr<Packet> packet,
                              RoceSrnicExtHeader& ext, bool remove);
    /** A READ response job for the request at \p psn. */
    ReadResponseJob MakeReadJob(uint64_t psn, const RoceRethHeader& reth,
                                const RoceSrnicExtHeader& ext) const;
    void SendAck(uint64_t psn);
    void SendNak(uint64_t psn, uint8_t code, bool rnr,
                 uint64_t sackPsn = RdmaLossRecovery::NO_SACK);
    /** Selective repeat: keep an out-of-order packet and report it in a SACK. */
    void BufferOutOfOrder(uint64_t psn, const RoceBthHeader& bth, Ptr<Packet> packet);
    /** Selective repeat: execute the kept packets that are now in order, below \p limit. */
    void DrainInOrder(uint64_t limit = UINT64_MAX);
    /** Send an Acknowledge packet (ACK or NAK per \p aeth) for \p psn. */
    void SendAcknowledge(uint64_t psn, RoceAethHeader& aeth, bool becn,
                         const RoceSackHeader* sack = nullptr);

    RdmaNic* m_nic{nullptr};
    uint32_t m_qpn{0};
    uint32_t m_remoteQpn{0};
    Ipv4Address m_local;
    Ipv4Address m_remote;
    uint16_t m_udpSourcePort{0xc000};
    uint8_t m_dscp;
    uint32_t m_mtu;
    uint32_t m_ackInterval;
    Time m_rnrTimer;
    Ptr<RdmaCongestionOps> m_cc;
    Ptr<RdmaLossRecovery> m_loss;
    RdmaCcState m_ccState;
    RdmaQpCounters m_counters;
    bool m_error{false};
    bool m_srnicExtensions{false};

    // requester state
    std::deque<SendWqe> m_sq;
    RdmaReadResponseTracker m_readTracker; //!< READ responses placed out of order
    RdmaTxSequence m_seq;
    uint64_t m_nextPsnToAssign{0};
    uint64_t m_rewoundAt{UINT64_MAX}; //!< READ gap already re-requested from here
    Time m_nextTxTime{0};
    Time m_burstStart{0};         //!< per-burst pacing: start of the current burst
    uint32_t m_burstWireBytes{0}; //!< per-burst pacing: wire bytes sent in it
    MovableTimer m_rto;           //!< retransmission timer, moved by each ACK
    uint32_t m_retries{0};
    EventId m_rnrEvent;
    EventId m_nakEvent; //!< a NAK waiting for the loss recovery's NakReactionTime
    bool m_rnrWait{false};

    // responder state
    uint64_t m_epsn{0};
    uint32_t m_msn{0};
    bool m_nakSent{false};
    uint32_t m_unackedPackets{0};
    bool m_ceSinceAck{false};
    AckEcho m_answerEcho; //!< metadata of the request packet the next ACK/NAK answers
    uint64_t m_rxMessageOffset{0};
    uint64_t m_rxRemoteBase{0};
    bool m_rxRecvActive{false};
    std::deque<RecvWqe> m_rq;
    std::deque<ReadResponseJob> m_readJobs;
    uint64_t m_responseHigh{0}; //!< one past the highest READ response PSN sent

    /** A request packet received ahead of the expected PSN (selective repeat). */
    struct OutOfOrderSlot
    {
        uint64_t psnPlusOne{0}; //!< 0: empty
        RoceBthHeader bth;
        Ptr<Packet> packet;
    };

    /** Receive bitmap and kept packets, a ring of the loss recovery's in-flight cap. */
    std::vector<OutOfOrderSlot> m_oooRing;
};

} // namespace ns3

#endif /* RDMA_QUEUE_PAIR_H */
