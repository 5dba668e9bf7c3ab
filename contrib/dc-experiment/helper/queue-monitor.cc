#include "queue-monitor.h"

#include "ns3/dcb-net-device.h"

namespace ns3
{

QueueMonitor::QueueMonitor()
    : PeriodicCsvMonitor("queues", COLUMNS,
                         "queue monitor: the bytes of every switch egress queue holding data, "
                         "every monitors/queue_interval")
{
}

Time
QueueMonitor::GetInterval(const ExperimentMonitors& monitors) const
{
    return monitors.queueInterval;
}

void
QueueMonitor::GetWindow(const ExperimentMonitors& monitors, Time& start, Time& end) const
{
    start = monitors.queueStart;
    end = monitors.queueEnd;
}

void
QueueMonitor::WriteRows(const ExperimentRunContext& context, const std::string& now,
                        std::ostream& out)
{
    const TopologyBuilder& topology = context.GetTopology();
    const ExperimentTopology& topo = context.GetConfig().GetTopology();
    for (uint32_t s = 0; s < topology.GetNSwitches(); ++s)
    {
        Ptr<DcbSwitch> sw = topology.GetSwitch(s);
        if (!context.IsLocal(topology.GetSwitchNodes().Get(s)))
        {
            continue;
        }
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            Ptr<DcbNetDevice> port = sw->GetPort(p);
            for (uint8_t c = 0; c < DcbNetDevice::N_CLASSES; ++c)
            {
                const uint64_t bytes = port->GetQueueBytes(c);
                if (bytes > 0)
                {
                    out << now << ',' << topo.switches[s] << ',' << p << ',' << unsigned{c} << ','
                        << bytes << '\n';
                }
            }
        }
    }
}

} // namespace ns3
