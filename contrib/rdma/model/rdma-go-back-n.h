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
 * restarts transmission from the NAK'd PSN. Tail losses are recovered by the
 * local ACK timeout, 4.096 µs × 2^AckTimeoutExponent (IBTA C9-141).
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

    uint32_t m_ackTimeoutExponent;
};

} // namespace ns3

#endif /* RDMA_GO_BACK_N_H */
