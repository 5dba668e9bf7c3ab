#include "buffer-monitor.h"

#include "output-micros.h"

#include "ns3/simulator.h"

namespace ns3
{

void
BufferMonitor::Install(ExperimentRunContext& context)
{
    const Time interval = context.GetConfig().GetMonitors().bufferInterval;
    if (!interval.IsStrictlyPositive())
    {
        return;
    }
    m_context = &context;
    m_file.open(context.OutputPath(context.MonitorFileName("buffers", false)), std::ios::binary);
    m_file << COLUMNS << '\n';
    Simulator::Schedule(interval, &BufferMonitor::Sample, this);
}

void
BufferMonitor::Sample()
{
    const std::string now = FormatMicros(Simulator::Now());
    const TopologyBuilder& topology = m_context->GetTopology();
    const ExperimentTopology& topo = m_context->GetConfig().GetTopology();
    const bool clear = m_context->GetConfig().GetMonitors().clearWatermarks;
    for (uint32_t s = 0; s < topology.GetNSwitches(); ++s)
    {
        if (!m_context->IsLocal(topology.GetSwitchNodes().Get(s)))
        {
            continue;
        }
        Ptr<BufferManager> bm = topology.GetSwitch(s)->GetBufferManager();
        m_report.clear();
        bm->ReportOccupancy(m_report);
        for (const BufferOccupancy& f : m_report)
        {
            m_file << now << ',' << topo.switches[s] << ',' << f.object << ',' << f.name << ',';
            if (f.port >= 0)
            {
                m_file << f.port;
            }
            m_file << ',';
            if (f.index >= 0)
            {
                m_file << f.index;
            }
            m_file << ',' << f.bytes << ',' << f.watermark << '\n';
        }
        if (clear)
        {
            bm->ClearWatermarks();
        }
    }
    Simulator::Schedule(m_context->GetConfig().GetMonitors().bufferInterval,
                        &BufferMonitor::Sample, this);
}

void
BufferMonitor::Collect(ExperimentRunContext& context)
{
    if (!m_file.is_open())
    {
        return;
    }
    RunReadmeWriter::CloseChecked(m_file,
                                  context.OutputPath(context.MonitorFileName("buffers", false)));
    context.GetReadme().AddCsv(context.MonitorFileName("buffers", true),
                               "buffer monitor: per switch, the occupancy and watermark of its "
                               "buffer pools, PGs and queues (or total occupancy), every "
                               "monitors/buffer_interval" +
                                   context.PerRankNote(),
                               COLUMNS);
    WriteDrops(context);
}

void
BufferMonitor::WriteDrops(ExperimentRunContext& context) const
{
    const std::string path = context.OutputPath(context.MonitorFileName("buffer_drops", false));
    std::ofstream out(path, std::ios::binary);
    out << DROPS_COLUMNS << '\n';
    const TopologyBuilder& topology = context.GetTopology();
    const ExperimentTopology& topo = context.GetConfig().GetTopology();
    for (uint32_t s = 0; s < topology.GetNSwitches(); ++s)
    {
        if (!context.IsLocal(topology.GetSwitchNodes().Get(s)))
        {
            continue;
        }
        Ptr<BufferManager> bm = topology.GetSwitch(s)->GetBufferManager();
        for (uint32_t r = 0; r < BufferManager::N_DROP_REASONS; ++r)
        {
            const auto reason = static_cast<BufferManager::DropReason>(r);
            if (bm->GetDrops(reason) > 0)
            {
                out << topo.switches[s] << ',' << BufferManager::DropReasonName(reason) << ','
                    << bm->GetDrops(reason) << '\n';
            }
        }
    }
    RunReadmeWriter::CloseChecked(out, path);
    context.GetReadme().AddCsv(context.MonitorFileName("buffer_drops", true),
                               "buffer-manager drops per switch and reason, where above zero "
                               "(with the buffer monitor)" +
                                   context.PerRankNote(),
                               DROPS_COLUMNS);
}

} // namespace ns3
