/*
 * DCTCP (Alizadeh et al., SIGCOMM 2010; RFC 8257) as a window-based RdmaCongestionOps,
 * the congestion control of SRNIC (Wang et al., NSDI 2023, section 5).
 */
#ifndef RDMA_DCTCP_H
#define RDMA_DCTCP_H

#include "rdma-congestion-ops.h"

#include "ns3/queue-size.h"
#include "ns3/traced-callback.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * DCTCP window congestion control for one queue pair.
 *
 * The window W (RdmaCcState::m_window, bytes) caps the unacknowledged bytes; the
 * rate stays at line rate (pacing is left to the window's self-clocking). The
 * responder echoes CE marks in the BTH BECN bit of its ACKs (WantsEcnEcho), with
 * DCTCP's receiver state machine: when the CE state of arriving packets changes,
 * the packets received so far are acknowledged at once, so that with
 * AckInterval > 1 an ACK's echo still describes every packet it covers (RFC 8257
 * section 3.2).
 *
 * Sender, per ACK acknowledging b new bytes with echo e:
 * - acked += b; marked += b if e;
 * - once acked reaches the window in force when the observation window started
 *   (one window of ACKs): alpha <- (1 - g) alpha + g marked/acked, counters reset;
 * - if e and no cut happened in the current window: W <- max(MTU, W (1 - alpha/2)),
 *   and no further cut until one window of bytes has been acknowledged;
 * - otherwise additive increase: W += MTU b / W (one MTU per window of ACKs).
 */
class RdmaDctcp : public RdmaCongestionOps
{
  public:
    /** TracedCallback signature for window changes (bytes). */
    typedef void (*WindowChangeTracedCallback)(uint64_t oldWindow, uint64_t newWindow);

    static TypeId GetTypeId();
    RdmaDctcp();
    ~RdmaDctcp() override;

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() const override;
    /** Line rate, W = InitialWindow, alpha = InitialAlpha. */
    void Init(RdmaCcState* state) override;
    /** InitialWindow must be in bytes. */
    bool CheckAttributes(DataRate lineRate, std::string& attribute,
                         std::string& reason) const override;
    /** Ignored: DCTCP reads congestion from ACK echoes, not CNPs. */
    void OnCnp() override;
    void OnDataSent(uint32_t bytes) override;
    void OnAck(const RdmaAckSample& ack) override;
    /** \return false: DCTCP sends no CNPs; the QP echoes CE in ACKs instead. */
    bool OnDataReceived(bool ceMarked) override;
    /** \return true */
    bool WantsEcnEcho() const override;

    /** \return the EWMA gain g. */
    double GetG() const;
    /** \return the smallest window (one MTU), bytes. */
    uint64_t GetMinWindow() const;

  private:
    void SetWindow(uint64_t window);

    RdmaCcState* m_state{nullptr};
    double m_g;
    QueueSize m_initialWindow;
    double m_initialAlpha;
    uint64_t m_ackedInObservation{0};  //!< bytes acknowledged in the current alpha window
    uint64_t m_markedInObservation{0}; //!< of which echoed CE
    uint64_t m_observationLength{0};   //!< window in force when the observation started
    uint64_t m_ackedSinceCut{0};       //!< bytes acknowledged since the last cut
    uint64_t m_cutHoldoff{0};          //!< no new cut until m_ackedSinceCut reaches this
    double m_aiCredit{0};              //!< fractional additive-increase bytes
    TracedCallback<uint64_t, uint64_t> m_windowTrace;
};

} // namespace ns3

#endif /* RDMA_DCTCP_H */
