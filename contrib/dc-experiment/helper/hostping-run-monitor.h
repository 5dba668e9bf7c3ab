/*
 * Hostping's hardware monitor (NSDI'23 §4.2, §5) on the hosts of an experiment run,
 * fed from their NICs' counters and host models, and its trigger log hostping.csv.
 */
#ifndef HOSTPING_RUN_MONITOR_H
#define HOSTPING_RUN_MONITOR_H

#include "experiment-monitor.h"

#include "ns3/host-model.h"
#include "ns3/hostping-monitor.h"
#include "ns3/nstime.h"
#include "ns3/rdma-nic.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * For the "monitors"/"hostping" section (ExperimentHostping): at Install, one
 * ns3::HostpingMonitor with the section's attributes per chosen host, watching the
 * host's RNIC through its counters (SampleNic) and, where "nodes" gave the host a host
 * model with GPUs, their idleness (no DMA to or from a GPU running now or completed
 * since the previous status check). Every trigger becomes a row of hostping.csv
 * (COLUMNS) with the metrics of the check that fired it; summary.json gets "hostping".
 * Not available in distributed runs.
 */
class HostpingRunMonitor : public ExperimentMonitor
{
  public:
    /** One trigger of a host's monitor. */
    struct Trigger
    {
        Time time;
        uint32_t host;
        HostpingMonitor::Reason reason;
        uint32_t rnic;
        HostpingRnicMetrics metrics;
    };

    /** \param config must outlive the monitor; its hostping section must be enabled. */
    explicit HostpingRunMonitor(const ExperimentConfig& config);
    ~HostpingRunMonitor() override;
    HostpingRunMonitor(const HostpingRunMonitor&) = delete;
    HostpingRunMonitor& operator=(const HostpingRunMonitor&) = delete;

    /**
     * Hostping's view of \p nic: bytes sent and received on its port (frames), the time
     * its receive pipeline held its peer paused (RdmaRxPipeline::GetPausedTime), the
     * packets that pipeline dropped (lossy above XOFF, lossless with the buffer full) and
     * its line rate.
     */
    static HostpingRnicSample SampleNic(Ptr<RdmaNic> nic);
    /** \return the name hostping.csv gives \p reason: idle, pause_ratio or drops. */
    static const char* ReasonName(HostpingMonitor::Reason reason);

    /** Refuses a distributed run. */
    void CheckConfig(const ExperimentRunContext& context) override;
    /** Attach and start the monitors (host models are in place since the composers' Compose). */
    void Install(ExperimentRunContext& context) override;
    /** Write hostping.csv and register it. */
    void Write(ExperimentRunContext& context) override;
    /** Add "hostping": hosts watched, triggers by reason. */
    void AddToSummary(const ExperimentRunContext& context,
                      nlohmann::ordered_json& summary) const override;

    /** \return the triggers so far, in time order. */
    const std::vector<Trigger>& GetTriggers() const;

    /** Header row of hostping.csv. */
    static constexpr const char* COLUMNS =
        "time_us,host,reason,rnic,throughput_share,pause_ratio,drops";

  private:
    /** One watched host. */
    struct Watched
    {
        uint32_t host;
        Ptr<HostpingMonitor> monitor;
        Ptr<HostModel> model;          //!< null without a host model
        std::vector<uint32_t> gpus;    //!< GpuDevice resources of the model
        std::vector<uint8_t> isGpu;    //!< by resource index
        uint64_t gpuDmasSinceCheck{0}; //!< DMAs to or from a GPU completed since the last check
    };

    static bool GpusIdleOf(HostpingRunMonitor* self, uint32_t watched);
    static void GpuDmaOf(HostpingRunMonitor* self, uint32_t watched, uint32_t initiator,
                         uint32_t target, uint64_t bytes, Time latency);
    static void TriggeredOf(HostpingRunMonitor* self, uint32_t watched, uint8_t reason,
                            uint32_t rnic);

    const ExperimentConfig& m_config;
    std::vector<Watched> m_watched;
    std::vector<Trigger> m_triggers;
};

} // namespace ns3

#endif /* HOSTPING_RUN_MONITOR_H */
