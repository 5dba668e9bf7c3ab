/*
 * Swift (Kumar et al., "Swift: Delay is Simple and Effective for Congestion Control in
 * the Datacenter", SIGCOMM 2020) as a window-based RdmaCongestionOps.
 */
#ifndef RDMA_SWIFT_H
#define RDMA_SWIFT_H

#include "rdma-congestion-ops.h"

#include "ns3/traced-callback.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * Swift delay-target congestion control for one queue pair (paper Algorithm 1).
 *
 * Two windows in packets: the fabric window fcwnd reacts to the fabric delay (RTT minus
 * the remote endpoint delay) against the target
 *
 *     target = BaseTarget + hops x PerHopScaling + fs(fcwnd),
 *     fs(c) = clamp(a / sqrt(c) + b, 0, FsRange),
 *     a = FsRange / (1/sqrt(FsMinCwnd) - 1/sqrt(FsMaxCwnd)),  b = -a / sqrt(FsMaxCwnd)
 *
 * and the endpoint window ecwnd reacts to the endpoint delay against EndpointTarget.
 * On each ACK with an RTT sample, each window w with delay d and target t:
 * - d < t: w += AdditiveIncrease x acked / w (w >= 1) or AdditiveIncrease x acked (w < 1),
 *   acked in packets;
 * - else, at most once per RTT: w *= max(1 - Beta (d - t) / d, 1 - MaxMdf).
 * A retransmission (NAK or timeout) cuts both by 1 - MaxMdf (once per RTT);
 * RetxResetThreshold consecutive timeouts reset them to MinCwnd. Both stay within
 * [MinCwnd, MaxCwnd]; cwnd = min(fcwnd, ecwnd).
 *
 * Mapping onto the queue pair: cwnd >= 1 sets the in-flight cap
 * RdmaCcState::m_window = floor(cwnd) MTUs at line rate (self-clocked, as Swift);
 * cwnd < 1 keeps one packet in flight and paces at rate = cwnd x MTU / RTT, i.e. one
 * packet every RTT/cwnd (Swift's pacing below one packet), with the smoothed RTT.
 */
class RdmaSwift : public RdmaCongestionOps
{
  public:
    /** TracedCallback signature for window changes (packets). */
    typedef void (*CwndChangeTracedCallback)(double oldCwnd, double newCwnd);

    static TypeId GetTypeId();
    RdmaSwift();
    ~RdmaSwift() override;

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() const override;
    void Init(RdmaCcState* state) override;
    /** MinCwnd < MaxCwnd, FsMinCwnd < FsMaxCwnd, InitialCwnd within bounds. */
    bool CheckAttributes(DataRate lineRate, std::string& attribute,
                         std::string& reason) const override;
    /** Ignored: Swift reads congestion from delay. */
    void OnCnp() override;
    void OnDataSent(uint32_t bytes) override;
    void OnAck(const RdmaAckSample& ack) override;
    void OnRetransmit(bool timeout) override;
    /** \return false: no CNPs. */
    bool OnDataReceived(bool ceMarked) override;
    /** \return true */
    bool WantsRttSamples() const override;

    /** \return the fabric window (packets). */
    double GetFabricCwnd() const;
    /** \return the endpoint window (packets). */
    double GetEndpointCwnd() const;
    /** \return min(fabric, endpoint) window (packets). */
    double GetCwnd() const;
    /** \return the fabric target delay for \p hops hops at the current fabric window. */
    Time GetFabricTarget(uint8_t hops) const;

  private:
    /** One window's update for delay \p delay against \p target; \p acked in packets. */
    double Update(double cwnd, Time delay, Time target, double acked, bool canDecrease) const;
    /** Clamp the windows and write the window and pacing rate into the state. */
    void Apply();

    RdmaCcState* m_state{nullptr};
    Time m_baseTarget;
    Time m_perHopScaling;
    Time m_fsRange;
    double m_fsMinCwnd;
    double m_fsMaxCwnd;
    Time m_endpointTarget;
    double m_ai;
    double m_beta;
    double m_maxMdf;
    double m_minCwnd;
    double m_maxCwnd;
    double m_initialCwnd;
    uint32_t m_retxResetThreshold;
    double m_rttGain;

    double m_fcwnd{1};
    double m_ecwnd{1};
    Time m_srtt{0};         //!< smoothed RTT (pacing below one packet; once-per-RTT cuts)
    Time m_lastDecrease{0}; //!< when a window was last cut
    bool m_decreased{false};
    uint32_t m_retransmits{0}; //!< consecutive timeouts
    double m_tracedCwnd{0};    //!< the window last reported by CwndChange
    TracedCallback<double, double> m_cwndTrace;
};

} // namespace ns3

#endif /* RDMA_SWIFT_H */
