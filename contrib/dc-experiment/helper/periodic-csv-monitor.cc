#include "periodic-csv-monitor.h"

#include "ns3/output-micros.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

PeriodicCsvMonitor::PeriodicCsvMonitor(std::string name, std::string columns, std::string readme)
    : m_name(std::move(name))
    , m_columns(std::move(columns))
    , m_readme(std::move(readme))
{
}

void
PeriodicCsvMonitor::Install(ExperimentRunContext& context)
{
    m_interval = GetInterval(context.GetConfig().GetMonitors());
    if (!m_interval.IsStrictlyPositive())
    {
        return;
    }
    m_context = &context;
    m_file.open(context.OutputPath(context.MonitorFileName(m_name, false)), std::ios::binary);
    m_file << m_columns << '\n';
    Time start(0);
    GetWindow(context.GetConfig().GetMonitors(), start, m_end);
    const Time first = std::max(start, Simulator::Now()) + m_interval;
    if (m_end.IsZero() || first <= m_end)
    {
        Simulator::Schedule(first - Simulator::Now(), &PeriodicCsvMonitor::Sample, this);
    }
}

void
PeriodicCsvMonitor::GetWindow(const ExperimentMonitors& /* monitors */, Time& start,
                              Time& end) const
{
    start = Time(0);
    end = Time(0);
}

void
PeriodicCsvMonitor::Sample()
{
    WriteRows(*m_context, FormatMicros(Simulator::Now()), m_file);
    if (m_end.IsZero() || Simulator::Now() + m_interval <= m_end)
    {
        Simulator::Schedule(m_interval, &PeriodicCsvMonitor::Sample, this);
    }
}

void
PeriodicCsvMonitor::Collect(ExperimentRunContext& context)
{
    if (!m_file.is_open())
    {
        return;
    }
    RunReadmeWriter::CloseChecked(m_file,
                                  context.OutputPath(context.MonitorFileName(m_name, false)));
    context.GetReadme().AddCsv(context.MonitorFileName(m_name, true),
                               m_readme + context.PerRankNote(), m_columns);
}

} // namespace ns3
