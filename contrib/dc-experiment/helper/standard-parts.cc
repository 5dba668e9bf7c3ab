#include "standard-parts.h"

#include "buffer-monitor.h"
#include "collective-workload.h"
#include "exactly-once-monitor.h"
#include "fault-injector.h"
#include "fault-log-writer.h"
#include "host-dma-flow-workload.h"
#include "hostping-run-monitor.h"
#include "hpcc-output-writer.h"
#include "job-workload.h"
#include "node-composer.h"
#include "node-composition-writer.h"
#include "pcap-capture.h"
#include "pfc-event-writer.h"
#include "pfc-safety-output-writer.h"
#include "port-map-writer.h"
#include "queue-monitor.h"
#include "rate-monitor.h"

namespace ns3
{

StandardParts
StandardParts::Create(const ExperimentConfig& config, const TopologyBuilder& topology)
{
    StandardParts parts;
    auto faults = std::make_unique<FaultInjector>(config, topology);
    const FaultInjector& faultLog = *faults;
    parts.composers.push_back(std::move(faults));
    parts.composers.push_back(std::make_unique<NodeComposer>(config, topology));

    parts.workloads.push_back(std::make_unique<CollectiveWorkload>(config, topology));
    parts.workloads.push_back(std::make_unique<HostDmaFlowWorkload>(config, topology));
    parts.workloads.push_back(std::make_unique<JobWorkload>(config, topology));

    auto& monitors = parts.monitors;
    monitors.push_back(std::make_unique<PfcSafetyOutputWriter>(config));
    monitors.push_back(std::make_unique<QueueMonitor>());
    monitors.push_back(std::make_unique<RateMonitor>());
    monitors.push_back(std::make_unique<BufferMonitor>());
    monitors.push_back(std::make_unique<ExactlyOnceMonitor>());
    monitors.push_back(std::make_unique<FaultLogWriter>(faultLog));
    if (config.GetOutputs().hpcc)
    {
        monitors.push_back(std::make_unique<HpccOutputWriter>(config));
    }
    monitors.push_back(std::make_unique<PortMapWriter>());
    monitors.push_back(std::make_unique<NodeCompositionWriter>());
    if (config.GetMonitors().hostping.enabled)
    {
        monitors.push_back(std::make_unique<HostpingRunMonitor>(config));
    }
    if (!config.GetPcap().IsEmpty())
    {
        monitors.push_back(std::make_unique<PcapCapture>());
    }
    if (config.GetOutputs().pfcEvents)
    {
        monitors.push_back(std::make_unique<PfcEventWriter>(config.GetTopology()));
    }
    return parts;
}

} // namespace ns3
