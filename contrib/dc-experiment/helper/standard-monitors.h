/*
 * The monitors every experiment run gets from its configuration.
 */
#ifndef STANDARD_MONITORS_H
#define STANDARD_MONITORS_H

#include "experiment-monitor.h"

#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The runner's own monitors, in the order the README lists their files and
 * summary.json their keys: PfcSafetyOutputWriter (deadlock monitor, PFC watchdog),
 * QueueMonitor, RateMonitor, BufferMonitor, ExactlyOnceMonitor, FaultInjector,
 * HpccOutputWriter (outputs/hpcc), PortMapWriter, NodeComposer, HostpingRunMonitor
 * (monitors/hostping), PcapCapture (/pcap) and PfcEventWriter (outputs/pfc_events); those in
 * parentheses only when the configuration asks for them.
 */
class StandardMonitors
{
  public:
    /** \return the monitors for \p config on \p topology (both must outlive them). */
    static std::vector<std::unique_ptr<ExperimentMonitor>> Create(const ExperimentConfig& config,
                                                                  const TopologyBuilder& topology);
};

} // namespace ns3

#endif /* STANDARD_MONITORS_H */
