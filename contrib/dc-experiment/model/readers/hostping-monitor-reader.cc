#include "hostping-monitor-reader.h"

#include "node-composition-reader.h"

#include "ns3/host-selection.h"

#include <algorithm>

namespace ns3
{

ExperimentHostping
HostpingMonitorReader::Read(const JsonSchemaReader& reader, const nlohmann::json* monitors,
                            const ExperimentTopology& topology, const NodeComposition& nodes,
                            const ComponentParser& parse, nlohmann::ordered_json& effective)
{
    const std::string pointer = "/monitors/hostping";
    const nlohmann::json* section =
        monitors ? JsonSchemaReader::Find(*monitors, "hostping") : nullptr;
    ExperimentHostping out;
    nlohmann::json attributes = nlohmann::json::object();
    const nlohmann::json* hosts = nullptr;
    if (section)
    {
        reader.RequireObject(*section, pointer);
        out.enabled = reader.GetBool(*section, pointer, "enabled", true);
        hosts = JsonSchemaReader::Find(*section, "hosts");
        attributes = *section;
        attributes.erase("enabled");
        attributes.erase("hosts");
    }
    const nlohmann::ordered_json monitorEff =
        parse(&attributes, pointer, "ns3::HostpingMonitor", out.monitor);

    if (hosts)
    {
        out.hosts = HostSelection(reader, topology)
                        .Select(*hosts, JsonSchemaReader::Child(pointer, "hosts"));
        std::sort(out.hosts.begin(), out.hosts.end());
    }
    else
    {
        for (uint32_t h = 0; h < nodes.hosts.size(); ++h)
        {
            if (nodes.hosts[h].hostModel >= 0)
            {
                out.hosts.push_back(h);
            }
        }
        if (out.enabled && out.hosts.empty())
        {
            reader.Fail(pointer,
                        "no host has a host model (\"nodes\" entries' \"host_model\") to watch: "
                        "give one, or choose the hosts with \"hosts\"");
        }
    }

    nlohmann::ordered_json eff{{"enabled", out.enabled}};
    if (!out.hosts.empty())
    {
        nlohmann::ordered_json names = nlohmann::ordered_json::array();
        for (uint32_t h : out.hosts)
        {
            names.push_back(topology.hosts[h]);
        }
        eff["hosts"] = names;
    }
    else
    {
        eff["hosts"] = nullptr; // off, and no host has a host model
    }
    for (const auto& item : monitorEff.items())
    {
        eff[item.key()] = item.value();
    }
    effective = eff;
    return out;
}

} // namespace ns3
