#include "queue-monitor.h"

#include "output-micros.h"

#include "ns3/dcb-net-device.h"
#include "ns3/simulator.h"

namespace ns3
{

void
QueueMonitor::Install(ExperimentRunContext& context)
{
    const Time interval = context.GetConfig().GetMonitors().queueInterval;
    if (!interval.IsStrictlyPositive())
    {
        return;
    }
    m_context = &context;
    m_file.open(context.OutputPath(context.MonitorFileName("queues", false)), std::ios::binary);
    m_file << COLUMNS << '\n';
    Simulator::Schedule(interval, &QueueMonitor::Sample, this);
}

void
QueueMonitor::Sample()
{
    const std::string now = FormatMicros(Simulator::Now());
    const TopologyBuilder& topology = m_context->GetTopology();
    const ExperimentTopology& topo = m_context->GetConfig().GetTopology();
    for (uint32_t s = 0; s < topology.GetNSwitches(); ++s)
    {
        Ptr<DcbSwitch> sw = topology.GetSwitch(s);
        if (!m_context->IsLocal(topology.GetSwitchNodes().Get(s)))
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
                    m_file << now << ',' << topo.switches[s] << ',' << p << ',' << unsigned{c}
                           << ',' << bytes << '\n';
                }
            }
        }
    }
    Simulator::Schedule(m_context->GetConfig().GetMonitors().queueInterval, &QueueMonitor::Sample,
                        this);
}

void
QueueMonitor::Collect(ExperimentRunContext& context)
{
    if (!m_file.is_open())
    {
        return;
    }
    RunReadmeWriter::CloseChecked(m_file,
                                  context.OutputPath(context.MonitorFileName("queues", false)));
    context.GetReadme().AddCsv(context.MonitorFileName("queues", true),
                               "queue monitor: the bytes of every switch egress queue holding "
                               "data, every monitors/queue_interval" +
                                   context.PerRankNote(),
                               COLUMNS);
}

} // namespace ns3
