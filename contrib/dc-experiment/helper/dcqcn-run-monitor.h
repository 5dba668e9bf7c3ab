/*
 * Steady-state measurements of a DCQCN experiment after a warm-up: payload
 * goodput of every sending queue pair (bytes delivered at the receiver), Jain's fairness index of
 * those goodputs, and the switch queue watermark polled per window (Azure NSDI'23 App. B polls
 * watermark counters at the congested switch).
 */
#ifndef DCQCN_RUN_MONITOR_H
#define DCQCN_RUN_MONITOR_H

#include "experiment-monitor.h"
#include "topology-builder.h"

#include "ns3/nstime.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Samples every switch egress queue each \p sampleInterval from \p warmup on;
 * the largest sample in each \p watermarkWindow is that window's watermark.
 * Finish() takes the goodput of every queue pair whose payload reached its peer
 * since the warm-up while the pair still has work outstanding at the end (the
 * backlogged flows whose steady state the metrics describe; finished messages
 * count in fct_us). Goodput is payload placed in the receiver's memory (the
 * NICs' DataPlaced trace), not payload sent: bytes still queued in the fabric or
 * on a long-haul link at the end, and retransmissions, are not goodput.
 *
 * Added to a run with ExperimentRunner::AddMonitor, it starts itself (Install),
 * writes goodput.csv (`host,qpn,from_us,to_us,goodput_gbps`) when the run is
 * over and adds its metrics to summary.json as "dcqcn" (ToJson).
 */
class DcqcnRunMonitor : public ExperimentMonitor
{
  public:
    /** One sending queue pair. */
    struct QpGoodput
    {
        uint32_t host;
        uint32_t qpn;
        double gbps;
    };

    DcqcnRunMonitor(const TopologyBuilder& topology, Time warmup, Time sampleInterval,
                    Time watermarkWindow);

    /**
     * Schedule, at the warm-up, the connection to the NICs' DataPlaced traces and the
     * queue sampling (call before Simulator::Run).
     */
    void Start();
    /** Measure goodputs up to \p end (the run's end). */
    void Finish(Time end);

    const std::vector<QpGoodput>& GetGoodputs() const;
    /** \return Jain's index (sum x)^2 / (n sum x^2) of the goodputs; 1 when none. */
    double GetJainIndex() const;
    /** \return the largest queue sample after the warm-up, bytes. */
    uint64_t GetPeakWatermark() const;
    /** \return the mean of the per-window watermarks, bytes. */
    double GetMeanWatermark() const;
    /**
     * \return the time average of the largest switch queue, bytes (mean of the samples
     * since the warm-up): with the watermarks, it tells a queue that holds near its
     * watermark from one that peaks and drains.
     */
    double GetMeanQueue() const;
    /** \return the metrics as a JSON object (for summary.json). */
    nlohmann::ordered_json ToJson() const;
    /** Write goodput.csv (host,qpn,from_us,to_us,goodput_gbps); \return false on failure. */
    bool WriteGoodputCsv(const std::string& path) const;

    /** Start(). */
    void Install(ExperimentRunContext& context) override;
    /**
     * Finish() at the run's end and write goodput.csv.
     * \throw std::runtime_error if the run ended before the warm-up, or goodput.csv
     *        cannot be written
     */
    void Write(ExperimentRunContext& context) override;
    /** Add "dcqcn" (ToJson()) to \p summary. */
    void AddToSummary(const ExperimentRunContext& context,
                      nlohmann::ordered_json& summary) const override;

  private:
    /** DataPlaced of host \p host's NIC: \p bytes of payload placed for queue pair \p qpn. */
    void DataPlaced(uint32_t host, uint32_t qpn, uint64_t address, uint32_t bytes);
    /** DataPlaced through a free function: ns-3 < 3.37 binds arguments only to those
     *  (MakeBoundCallback), not to a member function with its object. */
    static void DataPlacedOf(DcqcnRunMonitor* monitor, uint32_t host, uint32_t qpn,
                             uint64_t address, uint32_t bytes);
    /** \return bytes placed since the warm-up at \p host for queue pair \p qpn. */
    uint64_t Placed(uint32_t host, uint32_t qpn) const;
    /** At the warm-up's end: connect the NICs' DataPlaced traces, take the first sample. */
    void AtWarmup();
    void Sample();

    const TopologyBuilder& m_topology;
    Time m_warmup;
    Time m_sampleInterval;
    Time m_window;
    Time m_end;
    /** [host][qpn - FIRST_QPN]: payload bytes placed since the warm-up. */
    std::vector<std::vector<uint64_t>> m_placed;
    std::vector<QpGoodput> m_goodputs;
    std::vector<uint64_t> m_windowMax; //!< watermark of each window since the warm-up
    double m_sampleSum{0};             //!< sum of the samples (largest queue), bytes
    uint64_t m_samples{0};             //!< samples taken
};

} // namespace ns3

#endif /* DCQCN_RUN_MONITOR_H */
