#include "rate-monitor.h"

#include "flow-queue-pairs.h"

#include "ns3/simulator.h"

#include <cstdio>

namespace ns3
{

RateMonitor::RateMonitor()
    : PeriodicCsvMonitor("rates", COLUMNS,
                         "rate monitor: the congestion controller's rate of each flow in "
                         "progress, every monitors/rate_interval")
{
}

Time
RateMonitor::GetInterval(const ExperimentMonitors& monitors) const
{
    return monitors.rateInterval;
}

void
RateMonitor::WriteRows(const ExperimentRunContext& context, const std::string& now,
                       std::ostream& out)
{
    const Time t = Simulator::Now();
    const std::vector<ExperimentFlowResult>& results = context.GetResults();
    const auto& flows = context.GetConfig().GetFlows();
    const TopologyBuilder& topology = context.GetTopology();
    for (uint32_t id = 0; id < results.size(); ++id)
    {
        if (results[id].start > t || results[id].completed ||
            !context.IsLocal(topology.GetHost(flows[id].src)))
        {
            continue;
        }
        context.OpenFlow(id); // its start event may come later at this time
        const double gbps =
            static_cast<double>(
                context.GetFlowQueuePairs().GetDataSender(id)->GetCcState().m_rate.GetBitRate()) /
            1e9;
        char text[64];
        std::snprintf(text, sizeof(text), "%.6f", gbps);
        out << now << ',' << id << ',' << text << '\n';
    }
}

} // namespace ns3
