#include "periodic-csv-monitor.h"

#include "output-micros.h"

#include "ns3/simulator.h"

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
    Simulator::Schedule(m_interval, &PeriodicCsvMonitor::Sample, this);
}

void
PeriodicCsvMonitor::Sample()
{
    WriteRows(*m_context, FormatMicros(Simulator::Now()), m_file);
    Simulator::Schedule(m_interval, &PeriodicCsvMonitor::Sample, this);
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
