#include "buffer-monitor.h"

namespace ns3
{

BufferMonitor::BufferMonitor()
    : PeriodicCsvMonitor("buffers", COLUMNS,
                         "buffer monitor: per switch, the occupancy and watermark of its buffer "
                         "pools, PGs and queues (or total occupancy), every "
                         "monitors/buffer_interval")
{
}

Time
BufferMonitor::GetInterval(const ExperimentMonitors& monitors) const
{
    return monitors.bufferInterval;
}

void
BufferMonitor::WriteRows(const ExperimentRunContext& context, const std::string& now,
                         std::ostream& out)
{
    const TopologyBuilder& topology = context.GetTopology();
    const ExperimentTopology& topo = context.GetConfig().GetTopology();
    const bool clear = context.GetConfig().GetMonitors().clearWatermarks;
    for (uint32_t s = 0; s < topology.GetNSwitches(); ++s)
    {
        if (!context.IsLocal(topology.GetSwitchNodes().Get(s)))
        {
            continue;
        }
        Ptr<BufferManager> bm = topology.GetSwitch(s)->GetBufferManager();
        m_report.clear();
        bm->ReportOccupancy(m_report);
        for (const BufferOccupancy& f : m_report)
        {
            out << now << ',' << topo.switches[s] << ',' << f.object << ',' << f.name << ',';
            if (f.port >= 0)
            {
                out << f.port;
            }
            out << ',';
            if (f.index >= 0)
            {
                out << f.index;
            }
            out << ',' << f.bytes << ',' << f.watermark << '\n';
        }
        if (clear)
        {
            bm->ClearWatermarks();
        }
    }
}

void
BufferMonitor::Collect(ExperimentRunContext& context)
{
    const bool sampled = GetInterval(context.GetConfig().GetMonitors()).IsStrictlyPositive();
    PeriodicCsvMonitor::Collect(context);
    if (sampled)
    {
        WriteDrops(context);
    }
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
