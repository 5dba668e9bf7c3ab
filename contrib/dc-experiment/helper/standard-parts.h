/*
 * The composers, workloads and monitors every experiment run gets from its
 * configuration.
 */
#ifndef STANDARD_PARTS_H
#define STANDARD_PARTS_H

#include "experiment-composer.h"
#include "experiment-monitor.h"
#include "experiment-workload.h"

#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The runner's own parts, made from the configuration, each kind in the order the
 * runner calls it:
 *
 * - composers: FaultInjector ("faults"), NodeComposer ("nodes"), so that the faults'
 *   loss models and timed events are in place before the hosts are composed;
 * - workloads (after the runner's FlowWorkload): CollectiveWorkload ("collectives"),
 *   HostDmaFlowWorkload ("host_dma_flows");
 * - monitors, in the order the README lists their files and summary.json their keys:
 *   PfcSafetyOutputWriter (deadlock monitor, PFC watchdog), QueueMonitor, RateMonitor,
 *   BufferMonitor, ExactlyOnceMonitor, FaultLogWriter, HpccOutputWriter (outputs/hpcc),
 *   PortMapWriter, NodeCompositionWriter, HostpingRunMonitor (monitors/hostping),
 *   PcapCapture (/pcap) and PfcEventWriter (outputs/pfc_events); those in parentheses
 *   only when the configuration asks for them. A part whose section is absent does
 *   nothing.
 */
struct StandardParts
{
    std::vector<std::unique_ptr<ExperimentComposer>> composers;
    std::vector<std::unique_ptr<ExperimentWorkload>> workloads;
    std::vector<std::unique_ptr<ExperimentMonitor>> monitors;

    /** \return the parts for \p config on \p topology (both must outlive them). */
    static StandardParts Create(const ExperimentConfig& config, const TopologyBuilder& topology);
};

} // namespace ns3

#endif /* STANDARD_PARTS_H */
