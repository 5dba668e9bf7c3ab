/*
 * TIMELY (Mittal et al., "TIMELY: RTT-based Congestion Control for the Datacenter",
 * SIGCOMM 2015) as a rate-based RdmaCongestionOps driven by NIC-timestamped RTTs.
 */
#ifndef RDMA_TIMELY_H
#define RDMA_TIMELY_H

#include "rdma-congestion-ops.h"

#include "ns3/traced-callback.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * TIMELY rate control for one queue pair (paper Algorithm 1), run once per ACK that
 * carries an RTT sample (RdmaAckSample::rtt; the paper's "completion event"):
 *
 *     new_rtt_diff = new_rtt - prev_rtt;  prev_rtt = new_rtt
 *     rtt_diff = (1 - Alpha) rtt_diff + Alpha new_rtt_diff
 *     gradient = rtt_diff / MinRtt
 *     new_rtt < Tlow:   rate += AdditiveStep
 *     new_rtt > Thigh:  rate *= 1 - Beta (1 - Thigh / new_rtt)
 *     gradient <= 0:    rate += N AdditiveStep, N = HaiMultiplier after HaiThreshold
 *                       consecutive samples with gradient <= 0 (HAI), else 1
 *     otherwise:        rate *= 1 - Beta gradient
 *
 * The rate paces the QP (RdmaCcState::m_rate) between MinRate and the line rate; the
 * window stays unlimited. A new QP starts at line rate, as RDMA NICs do. The first
 * sample only primes prev_rtt.
 */
class RdmaTimely : public RdmaCongestionOps
{
  public:
    /** TracedCallback signature for rate changes. */
    typedef void (*RateChangeTracedCallback)(DataRate oldRate, DataRate newRate);

    static TypeId GetTypeId();
    RdmaTimely();
    ~RdmaTimely() override;

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() const override;
    void Init(RdmaCcState* state) override;
    /** Tlow < Thigh, MinRtt > 0, 0 < MinRate <= line rate. */
    bool CheckAttributes(DataRate lineRate, std::string& attribute,
                         std::string& reason) const override;
    /** Ignored: TIMELY reads congestion from RTTs. */
    void OnCnp() override;
    void OnDataSent(uint32_t bytes) override;
    void OnAck(const RdmaAckSample& ack) override;
    /** \return false: no CNPs. */
    bool OnDataReceived(bool ceMarked) override;
    /** \return true */
    bool WantsRttSamples() const override;

    /** \return the smoothed RTT difference rtt_diff. */
    Time GetRttDiff() const;
    /** \return consecutive samples with a non-positive gradient. */
    uint32_t GetNegativeGradientCount() const;

  private:
    void SetRate(double bps);

    RdmaCcState* m_state{nullptr};
    double m_alpha;
    double m_beta;
    DataRate m_additiveStep;
    Time m_tLow;
    Time m_tHigh;
    Time m_minRtt;
    uint32_t m_haiThreshold;
    uint32_t m_haiMultiplier;
    DataRate m_minRate;

    Time m_prevRtt{0};              //!< 0 until the first sample
    double m_rttDiffSeconds{0};     //!< smoothed rtt_diff (s)
    uint32_t m_negativeGradient{0}; //!< consecutive samples with gradient <= 0
    TracedCallback<DataRate, DataRate> m_rateTrace;
};

} // namespace ns3

#endif /* RDMA_TIMELY_H */
