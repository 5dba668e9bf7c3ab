/*
 * Go-back-N loss recovery as commercial RoCE NICs implement it.
 */
#ifndef RDMA_GO_BACK_N_H
#define RDMA_GO_BACK_N_H

#include "rdma-loss-recovery.h"

namespace ns3
{

/**
 * \ingroup rdma
 * Go-back-N (IBTA RC, as in ConnectX NICs): the responder accepts only the
 * expected PSN, answers the first out-of-order packet with a PSN-sequence-error
 * NAK and drops everything until the expected PSN arrives; the requester
 * restarts transmission from the NAK'd PSN. Tail losses, and a lost resend of the
 * NAK'd PSN (the responder NAKs a gap once), are recovered by the local ACK timeout,
 * 4.096 µs × 2^AckTimeoutExponent (IBTA C9-141), or, with AdaptiveRetransmission
 * (ConnectX firmware's adaptive retransmission), by a timeout that starts at
 * AdaptiveInitialTimeout and doubles on each timeout without progress, capped by
 * the IBTA value. NakReactionTime delays the rewind after a NAK while the transmit
 * engine keeps sending (commercial NICs' NAK handling; see rdma.md, SRNIC Fig. 11). A NAK
 * whose PSN ACKs have passed by the time it is applied (its packet was overtaken, not
 * lost, and filled the gap) still goes back, to the oldest unacknowledged PSN: the
 * responder dropped what arrived between the NAK and that packet and will not NAK it.
 */
class RdmaGoBackN : public RdmaLossRecovery
{
  public:
    static TypeId GetTypeId();
    RdmaGoBackN();
    Ptr<RdmaLossRecovery> Fork() const override;

  private:
    RxVerdict DoClassify(uint64_t psn, uint64_t expected) const override;
    void DoSequenceNak(RdmaTxSequence& seq, uint64_t psn, uint64_t sackPsn) override;
    void DoTimeout(RdmaTxSequence& seq) override;
    Time DoGetRetransmitTimeout(const RdmaTxSequence& seq) const override;
    Time DoGetNakReactionTime() const override;

    Time IbtaTimeout() const;

    uint32_t m_ackTimeoutExponent;
    bool m_adaptive;
    Time m_adaptiveInitial;
    Time m_nakReaction;
    uint32_t m_backoff{0};      //!< timeouts in a row without progress
    uint64_t m_unaAtTimeout{0}; //!< seq.una at the last timeout
};

} // namespace ns3

#endif /* RDMA_GO_BACK_N_H */
