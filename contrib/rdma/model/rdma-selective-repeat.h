/*
 * IRN-style selective repeat (Mittal et al., "Revisiting Network Support for RDMA",
 * SIGCOMM 2018), the loss recovery SRNIC implements (Wang et al., NSDI 2023, 4.4).
 */
#ifndef RDMA_SELECTIVE_REPEAT_H
#define RDMA_SELECTIVE_REPEAT_H

#include "rdma-loss-recovery.h"

#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Selective repeat with SACKs, BDP-FC and a two-level retransmission timeout.
 *
 * Responder: a packet ahead of the expected PSN but within BdpCap packets of it is
 * kept (Buffer verdict; the QP records it in its receive bitmap) and answered by a
 * NAK whose BTH PSN is the cumulative acknowledgement and whose SACK header names
 * the out-of-order PSN; one such NAK per out-of-order packet. Messages complete
 * only once the expected PSN passes their last packet.
 *
 * Requester: a NAK (e, s) marks s received and queues for retransmission every PSN
 * in [max(e, highest PSN already examined), s + 1 - ReorderThreshold) not marked
 * received, so a single loss is resent exactly once (ReorderThreshold 1, IRN's rule:
 * every hole below s; more tolerates packets reordered by per-packet load balancing).
 * Retransmissions go ahead of new data; new data is limited to BdpCap packets in flight (IRN's
 * BDP-FC). A retransmission lost again is detected, with LostRetransmissionDetection, by a SACK of
 * a packet first sent after it (the network keeps a QP's packets in order), and queued again;
 * otherwise, and for tail losses, by the timeout: RtoLow when at most RtoLowThreshold packets are
 * outstanding, RtoHigh otherwise; on expiry every outstanding packet not marked received is queued
 * again, and when all are marked (the ACKs covering them were lost) the oldest is resent as a
 * probe, whose duplicate the responder acknowledges again.
 */
class RdmaSelectiveRepeat : public RdmaLossRecovery
{
  public:
    static TypeId GetTypeId();
    RdmaSelectiveRepeat();
    Ptr<RdmaLossRecovery> Fork() const override;

    /** \return true if \p psn is marked received by a SACK (requester side). */
    bool IsSacked(uint64_t psn) const;
    /** \return retransmissions found lost by a later SACK and queued again. */
    uint64_t GetLostRetransmissionsDetected() const;
    /** \return the in-flight cap in packets (BdpCap). */
    uint32_t GetBdpCap() const;
    /** \return how long a lost resend stalls its window: 0 with
     *  LostRetransmissionDetection, else RtoHigh (the timeout is its only recovery). */
    Time GetLostResendStall() const;

  protected:
    /** Clear the per-connection state (a fresh QP). */
    void ResetState();
    /**
     * The requester's loss decision for NAK (\p psn, \p sackPsn) as seen with \p seq:
     * marks the SACK, queues newly found holes and lost retransmissions on the
     * retransmission list (TakeRetransmissions).
     */
    void DecideOnNak(const RdmaTxSequence& seq, uint64_t psn, uint64_t sackPsn);
    /** Timeout decision: every outstanding unSACKed PSN is queued. */
    void DecideOnTimeout(const RdmaTxSequence& seq);
    /** Move the queued retransmissions, in order, to the back of \p out. */
    void TakeRetransmissions(std::deque<uint64_t>& out);
    /** Record that \p psn is being resent now, with \p seq.high as its send stamp. */
    void RecordResend(uint64_t psn, const RdmaTxSequence& seq);

  private:
    RxVerdict DoClassify(uint64_t psn, uint64_t expected) const override;
    void DoSequenceNak(RdmaTxSequence& seq, uint64_t psn, uint64_t sackPsn) override;
    void DoTimeout(RdmaTxSequence& seq) override;
    Time DoGetRetransmitTimeout(const RdmaTxSequence& seq) const override;
    bool DoHasRetransmission(const RdmaTxSequence& seq) const override;
    uint64_t DoNextTransmitPsn(const RdmaTxSequence& seq) override;
    uint64_t DoGetInFlightCap() const override;
    bool DoIsSelective() const override;

    void MarkSacked(uint64_t psn);
    void QueueLost(uint64_t from, uint64_t to);
    void DropStale(const RdmaTxSequence& seq) const;

    /** A retransmission sent: PSNs >= stamp were first sent after it. */
    struct Resend
    {
        uint64_t psn;
        uint64_t stamp;
    };

    uint32_t m_bdpCap;
    Time m_rtoLow;
    Time m_rtoHigh;
    uint32_t m_rtoLowThreshold;
    uint32_t m_reorderThreshold; //!< packets a SACK must lie above a hole to declare it lost
    bool m_detectLostRetransmissions;

    /** SACK bitmap as a ring of BdpCap slots: slot psn % cap holds psn + 1 if SACKed. */
    std::vector<uint64_t> m_sacked;
    /** PSNs to resend; entries below seq.una or SACKed meanwhile are skipped. */
    mutable std::deque<uint64_t> m_retransmit;
    uint64_t m_examinedUpTo{0};  //!< PSNs below this were already checked for loss
    std::deque<Resend> m_resent; //!< retransmissions in send order (stamps ascending)
    uint64_t m_lostRetransmissions{0};
};

} // namespace ns3

#endif /* RDMA_SELECTIVE_REPEAT_H */
