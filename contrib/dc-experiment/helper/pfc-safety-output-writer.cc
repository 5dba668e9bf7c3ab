#include "pfc-safety-output-writer.h"

#include "ns3/dcb-helper.h"
#include "ns3/experiment-config-error.h"
#include "ns3/object-factory.h"
#include "ns3/output-micros.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace ns3
{

namespace
{
constexpr const char* DEADLOCKS_COLUMNS =
    "deadlock,formed_us,detected_us,node,port,class,paused_since_us,queued_bytes";

double
MicrosValue(Time t)
{
    return std::round(static_cast<double>(t.GetPicoSeconds()) / 1e6 * 1e6) / 1e6;
}

ObjectFactory
Factory(const ExperimentComponent& component)
{
    ObjectFactory factory(component.typeName);
    for (const ExperimentAttribute& a : component.attributes)
    {
        factory.Set(a.name, *a.value);
    }
    return factory;
}
} // namespace

PfcSafetyOutputWriter::PfcSafetyOutputWriter(const ExperimentConfig& config)
    : m_config(config)
{
}

void
PfcSafetyOutputWriter::CheckConfig(const ExperimentRunContext& context)
{
    const ExperimentPfcSafety& safety = m_config.GetPfcSafety();
    if (context.IsDistributed() && (safety.deadlockMonitor || safety.watchdog))
    {
        throw ExperimentConfigError(m_config.GetSource(),
                                    safety.deadlockMonitor ? "/monitors/deadlock" : "/pfc_watchdog",
                                    "not available in distributed runs (the wait-for graph and "
                                    "the watchdog's counters need every switch on one rank)");
    }
}

void
PfcSafetyOutputWriter::Install(ExperimentRunContext& context)
{
    const TopologyBuilder& topology = context.GetTopology();
    m_topology = &topology;
    std::vector<Ptr<DcbSwitch>> switches;
    for (uint32_t s = 0; s < topology.GetNSwitches(); ++s)
    {
        switches.push_back(topology.GetSwitch(s));
    }
    if (m_config.GetPfcSafety().watchdog)
    {
        const ObjectFactory factory = Factory(m_config.GetPfcWatchdog());
        for (Ptr<DcbSwitch> sw : switches)
        {
            m_watchdogs.push_back(DcbHelper::InstallPfcWatchdog(sw, factory));
        }
    }
    if (m_config.GetPfcSafety().deadlockMonitor)
    {
        m_monitor = Factory(m_config.GetDeadlockMonitor()).Create<PfcDeadlockMonitor>();
        m_monitor->Install(switches);
    }
}

Ptr<PfcDeadlockMonitor>
PfcSafetyOutputWriter::GetMonitor() const
{
    return m_monitor;
}

void
PfcSafetyOutputWriter::Write(ExperimentRunContext& context)
{
    if (!m_monitor)
    {
        return;
    }
    RunReadmeWriter& readme = context.GetReadme();
    const std::string path = context.OutputPath("deadlocks.csv");
    std::ofstream out(path, std::ios::binary);
    out << DEADLOCKS_COLUMNS << '\n';
    const ExperimentTopology& topo = m_config.GetTopology();
    const auto& deadlocks = m_monitor->GetDeadlocks();
    for (std::size_t i = 0; i < deadlocks.size(); ++i)
    {
        for (const PfcDeadlockMonitor::Queue& q : deadlocks[i].queues)
        {
            out << i << ',' << FormatMicros(deadlocks[i].formed) << ','
                << FormatMicros(deadlocks[i].detected) << ',' << topo.switches[q.sw] << ','
                << q.port << ',' << unsigned{q.cls} << ',' << FormatMicros(q.pausedSince) << ','
                << q.bytes << '\n';
        }
    }
    RunReadmeWriter::CloseChecked(out, path);
    readme.AddCsv("deadlocks.csv",
                  "deadlock monitor: one row per switch egress queue of each PFC deadlock (a cycle "
                  "of paused queues waiting on each other), when it formed and was found",
                  DEADLOCKS_COLUMNS);
}

void
PfcSafetyOutputWriter::AddToSummary(const ExperimentRunContext& /* context */,
                                    nlohmann::ordered_json& summary) const
{
    using OrderedJson = nlohmann::ordered_json;
    OrderedJson d{{"monitor", static_cast<bool>(m_monitor)}};
    if (m_monitor)
    {
        const auto& deadlocks = m_monitor->GetDeadlocks();
        d["count"] = deadlocks.size();
        OrderedJson list = OrderedJson::array();
        for (const auto& k : deadlocks)
        {
            OrderedJson queues = OrderedJson::array();
            for (const PfcDeadlockMonitor::Queue& q : k.queues)
            {
                queues.push_back(OrderedJson{{"node", m_config.GetTopology().switches[q.sw]},
                                             {"port", q.port},
                                             {"class", q.cls}});
            }
            list.push_back(OrderedJson{{"formed_us", MicrosValue(k.formed)},
                                       {"detected_us", MicrosValue(k.detected)},
                                       {"queues", queues}});
        }
        d["deadlocks"] = list;
    }
    summary["deadlocks"] = d;

    OrderedJson w{{"enabled", !m_watchdogs.empty()}};
    if (!m_watchdogs.empty())
    {
        uint64_t detected = 0;
        uint64_t restored = 0;
        uint64_t drops = 0;
        for (uint32_t s = 0; s < m_watchdogs.size(); ++s)
        {
            detected += m_watchdogs[s]->GetStormsDetected();
            restored += m_watchdogs[s]->GetStormsRestored();
            drops += m_topology->GetSwitch(s)->GetDrops(DcbSwitch::DROP_PFC_WATCHDOG);
        }
        w["storms_detected"] = detected;
        w["storms_restored"] = restored;
        w["dropped_packets"] = drops;
    }
    summary["pfc_watchdog"] = w;
}

} // namespace ns3
