#include "rate-monitor.h"

#include "flow-queue-pairs.h"
#include "output-micros.h"

#include "ns3/simulator.h"

#include <cstdio>

namespace ns3
{

void
RateMonitor::Install(ExperimentRunContext& context)
{
    const Time interval = context.GetConfig().GetMonitors().rateInterval;
    if (!interval.IsStrictlyPositive())
    {
        return;
    }
    m_context = &context;
    m_file.open(context.OutputPath(context.MonitorFileName("rates", false)), std::ios::binary);
    m_file << COLUMNS << '\n';
    Simulator::Schedule(interval, &RateMonitor::Sample, this);
}

void
RateMonitor::Sample()
{
    const std::string now = FormatMicros(Simulator::Now());
    const Time t = Simulator::Now();
    const std::vector<ExperimentFlowResult>& results = m_context->GetResults();
    const auto& flows = m_context->GetConfig().GetFlows();
    const TopologyBuilder& topology = m_context->GetTopology();
    for (uint32_t id = 0; id < results.size(); ++id)
    {
        if (results[id].start > t || results[id].completed ||
            !m_context->IsLocal(topology.GetHost(flows[id].src)))
        {
            continue;
        }
        m_context->OpenFlow(id); // its start event may come later at this time
        const double gbps = static_cast<double>(m_context->GetFlowQueuePairs()
                                                    .GetDataSender(id)
                                                    ->GetCcState()
                                                    .m_rate.GetBitRate()) /
                            1e9;
        char text[64];
        std::snprintf(text, sizeof(text), "%.6f", gbps);
        m_file << now << ',' << id << ',' << text << '\n';
    }
    Simulator::Schedule(m_context->GetConfig().GetMonitors().rateInterval, &RateMonitor::Sample,
                        this);
}

void
RateMonitor::Collect(ExperimentRunContext& context)
{
    if (!m_file.is_open())
    {
        return;
    }
    RunReadmeWriter::CloseChecked(m_file,
                                  context.OutputPath(context.MonitorFileName("rates", false)));
    context.GetReadme().AddCsv(context.MonitorFileName("rates", true),
                               "rate monitor: the congestion controller's rate of each flow in "
                               "progress, every monitors/rate_interval" +
                                   context.PerRankNote(),
                               COLUMNS);
}

} // namespace ns3
