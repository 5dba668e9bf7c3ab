/*
 * HPCC (Li et al., "HPCC: High Precision Congestion Control", SIGCOMM 2019) as an
 * RdmaCongestionOps: window and rate from in-band network telemetry (IntTrailer).
 */
#ifndef RDMA_HPCC_H
#define RDMA_HPCC_H

#include "rdma-congestion-ops.h"

#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * HPCC for one queue pair (the paper's Algorithm 1).
 *
 * Every SEND/WRITE data packet carries an IntTrailer with MaxHops slots; each switch
 * egress port appends (B, ts, txBytes, qLen); the responder echoes the records in its
 * ACK. Per ACK, for each link i on the path, against the previous ACK's records:
 *   txRate_i = (txBytes_i - txBytes'_i) / (ts_i - ts'_i)
 *   u_i = min(qLen_i, qLen'_i) / (B_i T) + txRate_i / B_i
 * The most utilized link gives u and tau = ts - ts' (at most T); U <- (1 - tau/T) U +
 * (tau/T) u. Window, with reference window W_c updated once per RTT (an ACK beyond
 * the snd_nxt of the last update):
 *   if U >= eta or incStage >= maxStage: W = W_c / (U / eta) + W_AI (incStage <- 0)
 *   else: W = W_c + W_AI (incStage += 1)
 * W is kept within [max(W_AI, MinRate x T), W_init = line rate x T]; the rate is W / T.
 * Reacts to nothing else (CNPs, ECN echoes and OnAck are ignored).
 */
class RdmaHpcc : public RdmaCongestionOps
{
  public:
    /** TracedCallback signature for window changes (bytes). */
    typedef void (*WindowChangeTracedCallback)(uint64_t oldWindow, uint64_t newWindow);

    static TypeId GetTypeId();
    RdmaHpcc();
    ~RdmaHpcc() override;

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() const override;
    /** W = W_c = line rate x BaseRtt, line rate, U = 0. */
    void Init(RdmaCcState* state) override;
    /** AdditiveIncrease below the line rate. */
    bool CheckAttributes(DataRate lineRate, std::string& attribute,
                         std::string& reason) const override;
    void OnCnp() override;
    void OnDataSent(uint32_t bytes) override;
    void OnAck(const RdmaAckSample& ack) override;
    bool OnDataReceived(bool ceMarked) override;
    /** \return MaxHops */
    uint8_t GetIntHops() const override;
    void OnIntAck(const IntTrailer& echo, uint64_t ackedPsn, uint64_t nextPsn) override;

    /** \return the utilization estimate U. */
    double GetUtilization() const;
    /** \return the reference window W_c, bytes. */
    double GetReferenceWindow() const;
    /** \return the hop samples SampleCheck refused (records of two different ports). */
    uint64_t GetSamplesRejected() const;

  private:
    /** Update U from \p echo against the stored records; false if it cannot. */
    bool MeasureInflight(const IntTrailer& echo);
    double ComputeWindow(bool updateReference);
    void Apply(double window);

    RdmaCcState* m_state{nullptr};
    double m_eta;
    uint32_t m_maxStage;
    DataRate m_ai;
    DataRate m_minRate;
    Time m_baseRtt;
    uint8_t m_maxHops;
    bool m_sampleCheck;
    uint64_t m_samplesRejected{0}; //!< hop samples the sample check refused

    double m_windowInit{0}; //!< W_init = line rate x T, bytes
    double m_windowAi{0};   //!< W_AI = AdditiveIncrease x T, bytes
    double m_windowMin{0};  //!< max(W_AI, MinRate x T), bytes: the window's floor
    double m_windowRef{0};  //!< W_c
    double m_u{0};          //!< U
    uint32_t m_incStage{0};
    uint64_t m_lastUpdateSeq{0};
    bool m_haveRecords{false};
    uint8_t m_nHops{0};
    std::array<uint64_t, IntTrailer::MAX_HOPS> m_hops{}; //!< the previous ACK's records
    TracedCallback<uint64_t, uint64_t> m_windowTrace;
};

} // namespace ns3

#endif /* RDMA_HPCC_H */
