/*
 * Loss recovery of a reliable-connected queue pair (go-back-N, selective repeat).
 */
#ifndef RDMA_LOSS_RECOVERY_H
#define RDMA_LOSS_RECOVERY_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

class HostModel;

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
        Buffer,     //!< ahead of the expected PSN and inside the receive window: keep it
                    //!< (selective repeat) and report it in a SACK
    };

    /** No SACK information in a NAK. */
    static constexpr uint64_t NO_SACK = UINT64_MAX;

    static TypeId GetTypeId();
    ~RdmaLossRecovery() override;

    virtual Ptr<RdmaLossRecovery> Fork() const = 0;

    /** Responder: classify PSN \p psn when \p expected is the next in-order PSN. */
    RxVerdict Classify(uint64_t psn, uint64_t expected) const;
    /**
     * Responder: a request packet with PSN \p psn arrived while \p expected is the next
     * in-order PSN. Like Classify, but the loss recovery may change state (a hardware
     * fast path / software slow path split). Default: Classify.
     */
    RxVerdict OnRequestArrival(uint64_t psn, uint64_t expected);
    /**
     * Hooks into the owning queue pair, set by RdmaQueuePair::Setup: \p txReady when a
     * retransmission became available later than the call that caused it (a slow path),
     * \p deliver(upTo) when kept (Buffer) packets below upTo may now be executed in PSN
     * order (a slow path may answer even the expected PSN with Buffer).
     */
    void SetQueuePairHooks(Callback<void> txReady, Callback<void, uint64_t> deliver);
    /**
     * Requester: the responder reported a sequence error at \p psn (NAK; everything
     * before \p psn is acknowledged), and, from a selective-repeat responder, that it
     * holds \p sackPsn out of order (NO_SACK when the NAK carries no SACK).
     */
    void OnSequenceNak(RdmaTxSequence& seq, uint64_t psn, uint64_t sackPsn = NO_SACK);
    /** Requester: the retransmission timer expired with packets outstanding. */
    void OnTimeout(RdmaTxSequence& seq);
    /** \return the retransmission timeout for the current state. */
    Time GetRetransmitTimeout(const RdmaTxSequence& seq) const;
    /** \return transport retries allowed before the QP fails (IBV retry_cnt). */
    uint32_t GetRetryLimit() const;
    /**
     * Requester: \return true if a lost packet waits for retransmission (sent ahead of
     * new data and regardless of the CC window, which it already counts in).
     */
    bool HasRetransmission(const RdmaTxSequence& seq) const;
    /**
     * Requester: \return the PSN of the packet to send now: a retransmission, or
     * seq.nxt for new data (or go-back-N's resend point). Consumes the retransmission.
     */
    uint64_t NextTransmitPsn(const RdmaTxSequence& seq);
    /**
     * \return the most packets in flight (seq.nxt - seq.una) the requester may have,
     * and the responder's reordering window, in packets.
     */
    uint64_t GetInFlightCap() const;
    /**
     * \return true for a selective-repeat recovery: the responder keeps out-of-order
     * packets and the requester resends (or, for READ responses, re-requests) only the
     * lost PSNs. False (default): go-back-N.
     */
    bool IsSelective() const;
    /**
     * Requester: \return how long after a PSN-sequence-error NAK arrives the transmit
     * engine applies it (OnSequenceNak); packets already scheduled keep leaving until
     * then. Zero (default) applies it at once.
     */
    Time GetNakReactionTime() const;
    /**
     * The NIC has a host model: a loss recovery with a slow path in host software moves
     * its PCIe transfers as DMAs from RNIC port \p rnic to memory \p memory of \p host,
     * sharing the host's PCIe with data DMA. Default: ignored.
     */
    void SetHostDma(Ptr<HostModel> host, uint32_t rnic, uint32_t memory);

  protected:
    void DoDispose() override;
    /** Tell the queue pair a retransmission became available (see SetQueuePairHooks). */
    void NotifyTxReady() const;
    /** Tell the queue pair kept packets below \p upTo may be executed. */
    void NotifyDeliver(uint64_t upTo) const;

  private:
    virtual RxVerdict DoClassify(uint64_t psn, uint64_t expected) const = 0;
    /** Default: DoClassify. */
    virtual RxVerdict DoRequestArrival(uint64_t psn, uint64_t expected);
    virtual void DoSequenceNak(RdmaTxSequence& seq, uint64_t psn, uint64_t sackPsn) = 0;
    virtual void DoTimeout(RdmaTxSequence& seq) = 0;
    virtual Time DoGetRetransmitTimeout(const RdmaTxSequence& seq) const = 0;
    /** Default: no retransmission queue (go-back-N rewinds seq.nxt instead). */
    virtual bool DoHasRetransmission(const RdmaTxSequence& seq) const;
    /** Default: seq.nxt. */
    virtual uint64_t DoNextTransmitPsn(const RdmaTxSequence& seq);
    /** Default: unlimited. */
    virtual uint64_t DoGetInFlightCap() const;
    /** Default: false (go-back-N). */
    virtual bool DoIsSelective() const;
    /** Default: zero. */
    virtual Time DoGetNakReactionTime() const;
    /** Default: nothing. */
    virtual void DoSetHostDma(Ptr<HostModel> host, uint32_t rnic, uint32_t memory);

    uint32_t m_retryLimit;
    Callback<void> m_txReady;
    Callback<void, uint64_t> m_deliver;
};

} // namespace ns3

#endif /* RDMA_LOSS_RECOVERY_H */
