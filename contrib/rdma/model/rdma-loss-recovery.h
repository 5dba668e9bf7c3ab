/*
 * Loss recovery of a reliable-connected queue pair (go-back-N, selective repeat).
 */
#ifndef RDMA_LOSS_RECOVERY_H
#define RDMA_LOSS_RECOVERY_H

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * The requester's packet sequence, as 64-bit unwrapped PSNs (the wire carries
 * them modulo 2^24).
 */
struct RdmaTxSequence
{
    uint64_t una{0};  //!< oldest unacknowledged PSN
    uint64_t nxt{0};  //!< next PSN to transmit
    uint64_t high{0}; //!< one past the highest PSN ever transmitted
};

/**
 * \ingroup rdma
 * Decides how a queue pair reacts to sequence errors, in the QueueDisc shape:
 * public non-virtual entry points calling private hooks. One instance per QP
 * (Fork), chosen by TypeId.
 */
class RdmaLossRecovery : public Object
{
  public:
    /** What the responder does with an arriving request packet. */
    enum class RxVerdict : uint8_t
    {
        Accept,     //!< in order: execute it
        Duplicate,  //!< already executed: acknowledge again, do not execute
        OutOfOrder, //!< ahead of the expected PSN: a packet before it was lost
    };

    static TypeId GetTypeId();
    ~RdmaLossRecovery() override;

    virtual Ptr<RdmaLossRecovery> Fork() const = 0;

    /** Responder: classify PSN \p psn when \p expected is the next in-order PSN. */
    RxVerdict Classify(uint64_t psn, uint64_t expected) const;
    /** Requester: the responder reported a sequence error at \p psn (NAK). */
    void OnSequenceNak(RdmaTxSequence& seq, uint64_t psn);
    /** Requester: the retransmission timer expired with packets outstanding. */
    void OnTimeout(RdmaTxSequence& seq);
    /** \return the retransmission timeout for the current state. */
    Time GetRetransmitTimeout(const RdmaTxSequence& seq) const;
    /** \return transport retries allowed before the QP fails (IBV retry_cnt). */
    uint32_t GetRetryLimit() const;

  private:
    virtual RxVerdict DoClassify(uint64_t psn, uint64_t expected) const = 0;
    virtual void DoSequenceNak(RdmaTxSequence& seq, uint64_t psn) = 0;
    virtual void DoTimeout(RdmaTxSequence& seq) = 0;
    virtual Time DoGetRetransmitTimeout(const RdmaTxSequence& seq) const = 0;

    uint32_t m_retryLimit;
};

} // namespace ns3

#endif /* RDMA_LOSS_RECOVERY_H */
