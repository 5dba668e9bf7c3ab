/*
 * The timers with which a queue pair's requester recovers from losses.
 */
#ifndef RDMA_RECOVERY_TIMERS_H
#define RDMA_RECOVERY_TIMERS_H

#include "movable-timer.h"
#include "rdma-loss-recovery.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * The recovery timers of an RdmaRequester and the state they keep:
 * - the retransmission timer, armed while packets are outstanding (seq.una < seq.high)
 *   for the loss recovery's GetRetransmitTimeout and restarted by progress, with the
 *   count of timeouts without progress against its retry limit (IBV retry_cnt). It is
 *   never left idle with packets outstanding: after a timeout that sent nothing at once
 *   it runs again from the timeout, and the first packet sent restarts it from then. A
 *   retry is spent only by a timeout whose resend has left: one that finds the previous
 *   timeout's resend still held by the QP's rate limiter (Hooks::heldUntil) waits for its
 *   release, since a NIC's transport timer runs from the send of a packet;
 * - the wait of RnrTimer after an RNR NAK, during which nothing is sent;
 * - a PSN-sequence-error NAK held for the loss recovery's NakReactionTime (packets keep
 *   leaving meanwhile; further NAKs are ignored, and a timeout is deferred: the NAK's
 *   rewind comes first, and the timer restarts from it).
 *
 * The timers decide when; the requester decides what: they report through the Hooks given
 * at Setup, and only when a timer fires or a NAK is applied. The calls made for every
 * packet (Arm) and every ACK that advances (OnProgress) are plain member calls that
 * schedule nothing unless the retransmission timer is idle.
 */
class RdmaRecoveryTimers
{
  public:
    /** What the timers report to their requester. */
    struct Hooks
    {
        /** The retransmission timer expired with packets outstanding; the argument is
         *  true once the retries are exhausted (the QP must fail with RetryExceeded). */
        Callback<void, bool> timeout;
        /** The RNR wait is over: the requester may send again. */
        Callback<void> rnrWaitOver;
        /** Apply the PSN-sequence-error NAK at (psn, sack PSN) now. */
        Callback<void, uint64_t, uint64_t> sequenceNak;
        /** Optional: when the requester's rate limiter holds a packet it has to send, the
         *  time it lets it go; a time not after now otherwise (nothing waits, or only
         *  for the port). Unset: nothing is ever held. */
        Callback<Time> heldUntil;
    };

    RdmaRecoveryTimers() = default;
    RdmaRecoveryTimers(const RdmaRecoveryTimers&) = delete;
    RdmaRecoveryTimers& operator=(const RdmaRecoveryTimers&) = delete;

    /**
     * Wire the timers up: \p seq is the requester's sequence (read, never written), \p loss
     * gives the timeout, the retry limit and the NAK reaction time, \p rnrTimer the wait
     * after an RNR NAK.
     */
    void Setup(const RdmaTxSequence* seq, Ptr<const RdmaLossRecovery> loss, Time rnrTimer,
               const Hooks& hooks);
    /** Stop every timer and drop the references (teardown). */
    void Dispose();
    /** Stop every timer: the requester entered the error state. */
    void Cancel();

    /** Arm the retransmission timer if packets are outstanding and it is idle. */
    void Arm();
    /** The oldest unacknowledged PSN advanced: no retries used, the timer runs afresh. */
    void OnProgress();
    /** An RNR NAK arrived: wait RnrTimer (from now, replacing a wait under way). */
    void StartRnrWait();
    /** \return true while waiting after an RNR NAK. */
    bool IsRnrWait() const;
    /** \return true while the retransmission timer is armed. */
    bool IsRetransmitPending() const;
    /** \return true while a NAK waits for the loss recovery's NakReactionTime. */
    bool IsNakPending() const;
    /**
     * A PSN-sequence-error NAK at \p psn with SACK PSN \p sack: applied now (no reaction
     * time), or after the reaction time unless a NAK already waits.
     */
    void OnSequenceNak(uint64_t psn, uint64_t sack);

  private:
    void RetransmitTimeout();
    void RnrWaitOver();
    /** The reaction time of a NAK is over: apply it and restart the timer from now. */
    void ApplyDelayedNak(uint64_t psn, uint64_t sack);

    const RdmaTxSequence* m_seq{nullptr};
    Ptr<const RdmaLossRecovery> m_loss;
    Time m_rnrTimer;
    Hooks m_hooks;
    MovableTimer m_rto; //!< retransmission timer, moved by each ACK
    uint32_t m_retries{0};
    bool m_restartOnSend{false}; //!< armed by a timeout: the next send restarts it
    EventId m_rnrEvent;
    bool m_rnrWait{false};
    EventId m_nakEvent; //!< a NAK waiting for the loss recovery's NakReactionTime
};

} // namespace ns3

#endif /* RDMA_RECOVERY_TIMERS_H */
