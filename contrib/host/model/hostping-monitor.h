/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HOSTPING_MONITOR_H
#define HOSTPING_MONITOR_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup host
 * Cumulative counters of one RNIC, as its vendor tools report them.
 */
struct HostpingRnicSample
{
    uint64_t bytes{0}; //!< bytes sent + received
    Time txPaused{0};  //!< time the RNIC has asked its peer to pause (Tx pause duration)
    uint64_t drops{0}; //!< packets the RNIC dropped
    DataRate lineRate; //!< its line rate
};

/**
 * \ingroup host
 * What the monitor computed for one RNIC at its latest check (during a trigger: the check
 * that triggered).
 */
struct HostpingRnicMetrics
{
    /** Bytes moved over the latest period (status or metrics), as a share of the line rate. */
    double throughput{0};
    double pauseRatio{0}; //!< Tx pause time over the latest metrics period, as a share of it
    uint64_t drops{0};    //!< packets dropped in the latest metrics period
};

/**
 * \ingroup host
 * Hostping's hardware monitor (NSDI'23 §4.2, §5): decides when to run the Hostping engine.
 * Every StatusPeriod it checks whether the host is idle (every RNIC below IdleThroughput of its
 * line rate and every GPU idle) and, if so, triggers a run; every MetricsPeriod it checks the
 * abnormal metrics and triggers at once when an RNIC's Tx pause duration ratio exceeds
 * PauseRatio or it dropped packets. The counters come from callbacks (one per RNIC), so the
 * monitor needs nothing of the NIC model; the trigger is a trace and a callback.
 */
class HostpingMonitor : public Object
{
  public:
    /// Why the engine was triggered.
    enum Reason : uint8_t
    {
        IDLE,        //!< periodic run on an idle host
        PAUSE_RATIO, //!< an RNIC's Tx pause ratio exceeded PauseRatio
        DROPS        //!< an RNIC dropped packets
    };

    typedef Callback<HostpingRnicSample> SampleCallback;
    /// Trace signature: reason, index of the RNIC (0 for IDLE).
    typedef void (*TriggerTracedCallback)(uint8_t, uint32_t);

    static TypeId GetTypeId();
    HostpingMonitor();
    ~HostpingMonitor() override;

    /** Watch one more RNIC; \return its index. */
    uint32_t AddRnic(SampleCallback sample);
    /** Whether the GPUs are idle (default: always). */
    void SetGpuIdleCallback(Callback<bool> idle);
    /** Called at every trigger. */
    void SetTriggerCallback(Callback<void, uint8_t, uint32_t> trigger);
    void Start();
    void Stop();
    uint32_t GetTriggerCount() const;
    /** \return the RNICs watched (AddRnic calls). */
    uint32_t GetNRnics() const;
    /**
     * \return RNIC \p rnic's metrics at the latest check; from a trigger callback, those
     * of the check that triggered (all 0 before the first check).
     */
    const HostpingRnicMetrics& GetMetrics(uint32_t rnic) const;

  protected:
    void DoDispose() override;

  private:
    void CheckStatus();
    void CheckMetrics();
    void Trigger(Reason reason, uint32_t rnic);

    Time m_statusPeriod;
    Time m_metricsPeriod;
    double m_idleThroughput;
    double m_pauseRatio;

    std::vector<SampleCallback> m_rnics;
    std::vector<HostpingRnicSample> m_lastStatus;
    std::vector<HostpingRnicSample> m_lastMetrics;
    std::vector<HostpingRnicMetrics> m_metrics;
    Callback<bool> m_gpuIdle;
    Callback<void, uint8_t, uint32_t> m_trigger;
    EventId m_statusEvent;
    EventId m_metricsEvent;
    uint32_t m_triggers{0};
    TracedCallback<uint8_t, uint32_t> m_triggerTrace;
};

} // namespace ns3

#endif /* HOSTPING_MONITOR_H */
