/*
 * The requester side of a reliable-connected queue pair.
 */
#ifndef RDMA_REQUESTER_H
#define RDMA_REQUESTER_H

#include "rdma-cc-state.h"
#include "rdma-congestion-ops.h"
#include "rdma-loss-recovery.h"
#include "rdma-qp-counters.h"
#include "rdma-qp-endpoint-config.h"
#include "rdma-qp-owner.h"
#include "rdma-read-response-tracker.h"
#include "rdma-recovery-timers.h"
#include "rdma-send-queue.h"
#include "rdma-srnic-wire-extensions.h"
#include "rdma-tx-pacer.h"
#include "rdma-tx-timestamp-ring.h"
#include "rdma-work-request.h"
#include "roce-bth-header.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"

namespace ns3
{

/**
 * \ingroup rdma
 * Requester of an RC queue pair (IBTA 9.7): segments posted work requests at the path
 * MTU into PSN-numbered packets (a READ takes one request packet and as many PSNs as
 * response packets), paces them at the congestion controller's rate within its window,
 * completes them when acknowledged (ACKs, READ responses), and recovers from NAKs, RNR
 * NAKs and timeouts through the QP's RdmaLossRecovery.
 *
 * A plain member of RdmaQueuePair; it reports to the NIC through RdmaQpOwner only, so a
 * test drives it with a fake owner and no network.
 */
class RdmaRequester
{
  public:
    /** What the requester works with, given by its queue pair at setup. */
    struct Config : RdmaQpEndpointConfig
    {
        Time rnrTimer; //!< wait after an RNR NAK
        DataRate lineRate;
        /** Bytes in flight allowed whatever the congestion control (RdmaQueuePair
         *  InFlightCap); 0: none. */
        uint64_t inFlightCap{0};
        /** Scale inFlightCap by the rate over the line rate (InFlightCapFollowsRate). */
        bool inFlightCapFollowsRate{false};
    };

    /** Wire the requester up and initialise the congestion controller's state. */
    void Setup(const Config& config);
    /** The peer's QP number, the BTH destination of every request. */
    void SetRemoteQpn(uint32_t remoteQpn);
    /** Cancel the timers and drop the references (RdmaQueuePair::DoDispose). */
    void Dispose();

    /** ibv_post_send (flushed at once once the QP is in error). */
    void PostSend(const RdmaWorkRequest& wr);

    /** \return true if a request packet may be sent now, ignoring pacing. */
    bool HasTxWork() const;
    /** Build the next request packet (BTH onwards); nullptr if none. */
    Ptr<Packet> BuildRequestPacket();
    /** Pace: the QP sent a packet of \p wireBytes (headers and wire overhead included). */
    void OnPacketSent(const RdmaWireSize& wire);
    /** \return the earliest time the rate limiter lets the next packet go. */
    Time GetNextTxTime() const;
    /** \return true while a per-burst pacer is inside a burst. */
    bool IsMidBurst() const;

    /**
     * An ACK/NAK arrived (\p packet after the BTH \p bth) after crossing \p hops
     * switches (0: unknown).
     */
    void ReceiveAcknowledge(const RoceBthHeader& bth, Ptr<Packet> packet, uint8_t hops = 0);
    /** A READ response arrived (\p packet after the BTH \p bth). */
    void ReceiveReadResponse(const RoceBthHeader& bth, Ptr<Packet> packet);
    /**
     * A CNP reached this reaction point: a CNP packet, or (\p inAck) an ACK/NAK with BECN
     * set under CnpDelivery AckBecn. Counted and passed to the congestion control.
     */
    void ReceiveCnp(bool inAck);

    /**
     * Enter the error state: cancel the timers, complete the first WQE with \p status and
     * the others with Flushed; nothing more is sent.
     */
    void Flush(RdmaWcStatus status);
    /** \return true once the requester failed (retry exceeded) or was flushed. */
    bool IsInError() const;
    /** \return true while the retransmission timer is armed. */
    bool IsRetransmitTimerPending() const;
    /**
     * \return true if the requester can never make progress by itself: work requests
     * outstanding, not in error, nothing to send and no timer pending (retransmission,
     * RNR wait or a NAK's reaction time). An invariant violation; reported by the runs.
     */
    bool IsStalled() const;
    /** \return work requests posted and not yet completed. */
    uint32_t GetOutstandingWorkRequests() const;
    /** \return work requests not yet (fully) sent once: from the one holding the next new PSN. */
    uint32_t GetUnsentWorkRequests() const;
    const RdmaCcState& GetCcState() const;
    /** \return the sequence state (una, nxt, high) the loss recovery works on. */
    const RdmaTxSequence& GetSequence() const;

  private:
    /**
     * Add the READ request's RETH (and extension) for WQE \p w from byte \p offset,
     * asking for \p responses response packets (fewer at the READ's end).
     */
    void AddReadRequest(Ptr<Packet> packet, const RdmaSendWqe& w, uint64_t offset, uint32_t index,
                        uint64_t responses) const;
    void AfterSend(uint64_t psn, uint32_t payload);
    /** Acknowledge up to \p psn; \p ack carries the ACK's signal (bytes are filled in). */
    void AcknowledgeUpTo(uint64_t psn, RdmaAckSample ack = RdmaAckSample{});
    void CompleteFront(RdmaWcStatus status);
    void RewindTo(uint64_t psn);
    /** \return bytes of the packets in flight (seq.nxt - seq.una, at the MTU). */
    uint64_t InFlightBytes() const;
    /** \return the bytes that may be in flight: the CC's window within the in-flight cap. */
    uint64_t Window() const;
    /** The recovery timers' timeout: go back, or fail once \p retryExceeded. */
    void RetransmitTimeout(bool retryExceeded);
    /** \return when the rate limiter lets the packet waiting to be sent go (the recovery
     *  timers' heldUntil); zero when none waits. */
    Time HeldUntil() const;
    /** Apply a PSN-sequence-error NAK at \p psn (with SACK \p sack) to the loss recovery. */
    void ApplySequenceNak(uint64_t psn, uint64_t sack);
    void NotifyTxWork();

    RdmaQpOwner* m_owner{nullptr};
    RdmaQueuePair* m_qp{nullptr};
    uint32_t m_qpn{0};
    uint32_t m_remoteQpn{0};
    uint32_t m_mtu{1024};
    Ptr<RdmaCongestionOps> m_cc;
    Ptr<RdmaLossRecovery> m_loss;
    RdmaCcState m_ccState;
    RdmaQpCounters* m_counters{nullptr};
    RdmaSrnicWireExtensions m_ext;
    uint8_t m_intHops{0}; //!< INT hop slots in each data packet (RdmaCongestionOps::GetIntHops)
    bool m_error{false};
    uint64_t m_inFlightCap{0};            //!< Config::inFlightCap
    bool m_inFlightCapFollowsRate{false}; //!< Config::inFlightCapFollowsRate

    RdmaSendQueue m_sq;
    RdmaReadResponseTracker m_readTracker; //!< READ responses placed out of order
    RdmaTxSequence m_seq;
    uint64_t m_rewoundAt{UINT64_MAX}; //!< READ gap already re-requested from here
    RdmaTxPacer m_pacer;              //!< paces every packet of the QP (READ responses too)
    RdmaTxTimestampRing m_txTimes;    //!< per-PSN send times, when the CC wants RTT samples
    bool m_rttSamples{false};         //!< m_cc->WantsRttSamples()
    uint64_t m_rttSampleFrom{0};      //!< ACKs of PSNs below this give no RTT sample (Karn)
    RdmaRecoveryTimers m_timers;      //!< retransmission timer, RNR wait, NAK reaction
};

} // namespace ns3

#endif /* RDMA_REQUESTER_H */
