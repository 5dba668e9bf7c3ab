#include "standard-monitors.h"

#include "buffer-monitor.h"
#include "exactly-once-monitor.h"
#include "fault-injector.h"
#include "hostping-run-monitor.h"
#include "hpcc-output-writer.h"
#include "node-composer.h"
#include "pcap-capture.h"
#include "pfc-event-writer.h"
#include "pfc-safety-output-writer.h"
#include "port-map-writer.h"
#include "queue-monitor.h"
#include "rate-monitor.h"

namespace ns3
{

std::vector<std::unique_ptr<ExperimentMonitor>>
StandardMonitors::Create(const ExperimentConfig& config, const TopologyBuilder& topology)
{
    std::vector<std::unique_ptr<ExperimentMonitor>> monitors;
    monitors.push_back(std::make_unique<PfcSafetyOutputWriter>(config));
    monitors.push_back(std::make_unique<QueueMonitor>());
    monitors.push_back(std::make_unique<RateMonitor>());
    monitors.push_back(std::make_unique<BufferMonitor>());
    monitors.push_back(std::make_unique<ExactlyOnceMonitor>());
    monitors.push_back(std::make_unique<FaultInjector>(config, topology));
    if (config.GetOutputs().hpcc)
    {
        monitors.push_back(std::make_unique<HpccOutputWriter>(config));
    }
    monitors.push_back(std::make_unique<PortMapWriter>());
    monitors.push_back(std::make_unique<NodeComposer>(config, topology));
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
    return monitors;
}

} // namespace ns3
