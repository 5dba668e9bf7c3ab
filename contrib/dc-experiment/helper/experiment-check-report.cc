#include "experiment-check-report.h"

#include "ns3/fault-plan.h"
#include "ns3/json-attribute-converter.h"
#include "ns3/rdma-work-request.h"

#include <algorithm>
#include <cstdio>

namespace ns3
{

namespace
{

/** "3 x a, 1 x b": how often each label occurs, in first-seen order. */
std::string
Counted(const std::vector<std::string>& labels)
{
    std::vector<std::pair<std::string, uint32_t>> counts;
    for (const std::string& label : labels)
    {
        auto it = std::find_if(counts.begin(), counts.end(),
                               [&label](const auto& c) { return c.first == label; });
        if (it == counts.end())
        {
            counts.emplace_back(label, 1);
        }
        else
        {
            ++it->second;
        }
    }
    std::string s;
    for (const auto& [label, n] : counts)
    {
        s += (s.empty() ? "" : ", ") + std::to_string(n) + " x " + label;
    }
    return s;
}

/** \p t in microseconds, "12.345 us". */
std::string
Micros(Time t)
{
    char text[64];
    std::snprintf(text, sizeof(text), "%.3f us", t.GetPicoSeconds() / 1e6);
    return text;
}

void
PrintNodes(const ExperimentConfig& config, std::ostream& out)
{
    const ExperimentTopology& t = config.GetTopology();
    out << "nodes: " << t.hosts.size() << " hosts, " << t.switches.size() << " switches, "
        << t.links.size() << " links (topology \"" << t.type << "\")\n";
    const NodeComposition& nodes = config.GetNodes();
    if (nodes.IsEmpty())
    {
        return;
    }
    std::vector<std::string> profiles;
    std::vector<std::string> hostModels;
    std::vector<std::string> caches;
    uint32_t pus = 0;
    uint32_t racks = 0;
    uint32_t virtualNics = 0;
    for (const NodeSpec& s : nodes.hosts)
    {
        if (s.nicProfile >= 0)
        {
            profiles.push_back(nodes.nicProfiles[s.nicProfile].name);
        }
        if (s.hostModel >= 0)
        {
            hostModels.push_back(nodes.hostModels[s.hostModel].label);
        }
        if (s.nicCache >= 0)
        {
            caches.push_back(nodes.nicCaches[s.nicCache].label);
        }
        pus += s.nicPus >= 0 ? 1 : 0;
        racks += s.dfabricRack >= 0 ? 1 : 0;
        virtualNics += s.virtualNics > 0 ? 1 : 0;
    }
    const auto line = [&out](const char* what, const std::string& text)
    {
        if (!text.empty())
        {
            out << "  " << what << ": " << text << '\n';
        }
    };
    line("NIC profiles", Counted(profiles));
    line("host models", Counted(hostModels));
    line("NIC caches", Counted(caches));
    line("NIC processing units", pus ? std::to_string(pus) + " hosts" : "");
    line("DFabric racks", racks ? std::to_string(racks) + " hosts" : "");
    line("virtual NICs", virtualNics ? std::to_string(virtualNics) + " hosts" : "");
}

void
PrintTraffic(const ExperimentConfig& config, std::ostream& out)
{
    const std::vector<ExperimentFlow>& flows = config.GetFlows();
    out << "flows: " << flows.size();
    if (!flows.empty())
    {
        uint64_t bytes = 0;
        Time first = flows.front().start;
        Time last = first;
        std::vector<std::string> verbs;
        for (const ExperimentFlow& f : flows)
        {
            bytes += f.bytes;
            first = std::min(first, f.start);
            last = std::max(last, f.start);
            verbs.push_back(RdmaVerbName(f.verb));
        }
        out << " (" << bytes << " bytes in all; " << Counted(verbs) << "; starting from "
            << Micros(first) << " to " << Micros(last) << ")";
    }
    out << '\n';
    for (const ExperimentCollective& c : config.GetCollectives())
    {
        out << "collective " << c.name << ": " << c.type << " over " << c.GetOver() << " among "
            << c.hosts.size() << " hosts, " << c.iterations << " iteration(s) (" << c.pointer
            << ")\n";
    }
    if (!config.GetHostDmaFlows().empty())
    {
        out << "host DMA streams: " << config.GetHostDmaFlows().size() << '\n';
    }
    out << "stop_time: " << JsonAttributeConverter::FormatTime(config.GetStopTime()) << ", seed "
        << config.GetSeed() << '\n';
}

void
PrintFaults(const ExperimentConfig& config, std::ostream& out)
{
    const FaultPlan& faults = config.GetFaults();
    const ExperimentTopology& t = config.GetTopology();
    out << "faults: " << faults.losses.size() + faults.events.size() << '\n';
    for (const FaultLoss& loss : faults.losses)
    {
        out << "  random loss on " << loss.links.size() << " links (" << loss.pointer << ")\n";
    }
    for (const FaultEvent& ev : faults.events)
    {
        out << "  " << JsonAttributeConverter::FormatTime(ev.time) << " "
            << FaultPlan::KindName(ev.kind) << " ";
        switch (ev.kind)
        {
            case FaultKind::LinkDown:
            case FaultKind::LinkUp:
            case FaultKind::LinkRate:
                out << FaultPlan::LinkName(t, ev.link);
                break;
            default:
                out << t.hosts[ev.host];
                break;
        }
        if (ev.kind == FaultKind::LinkRate || ev.kind == FaultKind::HostRate ||
            ev.kind == FaultKind::PcieRate)
        {
            out << " " << JsonAttributeConverter::FormatDataRate(ev.rate);
        }
        out << " (" << ev.pointer << ")\n";
    }
}

void
PrintOutputs(const ExperimentConfig& config, const std::string& directory,
             const OutputDirectory::Plan& plan, std::ostream& out)
{
    out << "outputs: " << directory << " (";
    if (!plan.exists)
    {
        out << "new";
    }
    else if (!plan.previousRun)
    {
        out << "empty";
    }
    else
    {
        out << "a previous run's: its " << plan.remove.size() << " listed files are cleared";
    }
    out << ")\n  every run: README, config.json, flows.csv, trace.csv, pfc.csv, ports.csv, "
           "summary.json\n";
    // The optional files the configuration asks for, each with the section asking.
    std::vector<std::pair<std::string, std::string>> optional;
    const ExperimentMonitors& monitors = config.GetMonitors();
    const auto interval = [&optional](Time t, const char* file, const char* key)
    {
        if (t.IsStrictlyPositive())
        {
            optional.emplace_back(file, std::string("/monitors/") + key + " " +
                                            JsonAttributeConverter::FormatTime(t));
        }
    };
    interval(monitors.queueInterval, "queues.csv", "queue_interval");
    interval(monitors.rateInterval, "rates.csv", "rate_interval");
    interval(monitors.bufferInterval, "buffers.csv", "buffer_interval");
    if (monitors.hostping.enabled)
    {
        optional.emplace_back("hostping.csv", "/monitors/hostping");
    }
    if (config.GetPfcSafety().deadlockMonitor)
    {
        optional.emplace_back("deadlocks.csv", "/monitors/deadlock");
    }
    if (config.GetOutputs().hpcc)
    {
        optional.emplace_back("fct.txt, pfc.txt", "/outputs/hpcc");
    }
    if (config.GetOutputs().pfcEvents)
    {
        optional.emplace_back("pfc_events.csv", "/outputs/pfc_events");
    }
    if (!config.GetPcap().IsEmpty())
    {
        optional.emplace_back("pcap/<node>-<port>.pcap", "/pcap");
    }
    if (!config.GetFaults().IsEmpty())
    {
        optional.emplace_back("faults.csv", "/faults");
    }
    if (!config.GetNodes().IsEmpty())
    {
        optional.emplace_back("nodes.csv", "/nodes");
    }
    if (!config.GetCollectives().empty())
    {
        optional.emplace_back("collectives.csv", "/collectives");
    }
    if (!config.GetHostDmaFlows().empty())
    {
        optional.emplace_back("host_dma_flows.csv", "/host_dma_flows");
    }
    const nlohmann::ordered_json& eff = config.EffectiveJson();
    if (eff.contains("plots") && eff["plots"].is_array() && !eff["plots"].empty())
    {
        optional.emplace_back("plot-*.png (./roce-lab run draws them)", "/plots");
    }
    for (const auto& [file, why] : optional)
    {
        out << "  " << file << " (" << why << ")\n";
    }
}

} // namespace

void
ExperimentCheckReport::Print(const ExperimentConfig& config, const std::string& directory,
                             const OutputDirectory::Plan& plan, std::ostream& out)
{
    out << "check: " << config.GetSource()
        << ": valid; the fabric was built and the flows' queue pairs set up; nothing was "
           "run or written\n";
    PrintNodes(config, out);
    PrintTraffic(config, out);
    PrintFaults(config, out);
    PrintOutputs(config, directory, plan, out);
}

} // namespace ns3
