#include "load-balancing-reader.h"

#include "ns3/switch-selection.h"

namespace ns3
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

ExperimentComponent
LoadBalancingReader::ReadSection(const JsonSchemaReader& r, const Json& e, const std::string& p,
                                 const char* key, const char* base,
                                 const ExperimentComponentReader& components,
                                 OrderedJson& effective)
{
    const std::string bp = JsonSchemaReader::Child(p, key);
    const Json* section = JsonSchemaReader::Find(e, key);
    if (!section)
    {
        r.Fail(bp, "missing required field \"" + std::string(key) + "\" ({\"type\": a " + base +
                       ", attributes}; " + ExperimentComponentReader::ChoicesText("", base) + ")");
    }
    r.RequireObject(*section, bp);
    if (!JsonSchemaReader::Find(*section, "type"))
    {
        r.Fail(JsonSchemaReader::Child(bp, "type"),
               "missing required field \"type\"; " +
                   ExperimentComponentReader::ChoicesText("", base));
    }
    ExperimentComponent component;
    effective = components.Read(section, bp, "", base, {}, component);
    return component;
}

void
LoadBalancingReader::Read(const JsonSchemaReader& r, const Json* entries,
                          const std::string& pointer, const ExperimentTopology& topo,
                          const HostSelection& hosts, const ExperimentComponentReader& components,
                          std::vector<ExperimentComponent>& balancers,
                          std::vector<int32_t>& balancerOfSwitch,
                          std::vector<ExperimentComponent>& entropies,
                          std::vector<int32_t>& entropyOfHost, OrderedJson& effective)
{
    balancerOfSwitch.assign(topo.switches.size(), -1);
    balancers.clear();
    entropyOfHost.assign(topo.hosts.size(), -1);
    entropies.clear();
    if (!entries)
    {
        return;
    }
    if (!entries->is_array())
    {
        r.Fail(pointer, "expected an array of {\"roles\": [...], \"switches\": [...], "
                        "\"balancer\": {\"type\": ...}} and {\"hosts\": ..., \"entropy\": "
                        "{\"type\": ...}}, got " +
                            std::string(entries->type_name()));
    }
    SwitchSelection selection(r, topo);
    std::vector<std::string> entryOfHost(topo.hosts.size()); // the pointer that selected it
    OrderedJson eff = OrderedJson::array();
    for (std::size_t i = 0; i < entries->size(); ++i)
    {
        const Json& e = (*entries)[i];
        const std::string p = JsonSchemaReader::Child(pointer, i);
        r.CheckKeys(e, p, {"roles", "switches", "balancer", "hosts", "entropy"});
        if (JsonSchemaReader::Find(e, "hosts") || JsonSchemaReader::Find(e, "entropy"))
        {
            // A NIC entry: the hosts whose NICs choose their packets' entropy.
            for (const char* key : {"roles", "switches", "balancer"})
            {
                if (JsonSchemaReader::Find(e, key))
                {
                    r.Fail(JsonSchemaReader::Child(p, key),
                           "an entry with \"hosts\"/\"entropy\" configures NICs; give switches "
                           "(\"roles\", \"switches\", \"balancer\") an entry of their own");
                }
            }
            const std::string hp = JsonSchemaReader::Child(p, "hosts");
            const Json* selected = JsonSchemaReader::Find(e, "hosts");
            if (!selected)
            {
                r.Fail(hp, "missing required field \"hosts\" (the hosts whose NICs take this "
                           "\"entropy\": \"all\", a name, a range or {\"under\": switch})");
            }
            OrderedJson effEntropy;
            entropies.push_back(
                ReadSection(r, e, p, "entropy", ENTROPY_TYPE, components, effEntropy));
            for (uint32_t h : hosts.Select(*selected, hp))
            {
                if (entropyOfHost[h] >= 0)
                {
                    r.Fail(hp, "host " + topo.hosts[h] + " already has an \"entropy\" in " +
                                   entryOfHost[h]);
                }
                entropyOfHost[h] = static_cast<int32_t>(entropies.size() - 1);
                entryOfHost[h] = p;
            }
            OrderedJson effEntry = OrderedJson::object();
            effEntry["hosts"] = *selected;
            effEntry["entropy"] = effEntropy;
            eff.push_back(effEntry);
            continue;
        }
        std::vector<std::string> roles;
        std::vector<std::string> switches;
        selection.ReadEntry(e, p, static_cast<int32_t>(balancers.size()), roles, switches);
        OrderedJson effBalancer;
        balancers.push_back(ReadSection(r, e, p, "balancer", BASE_TYPE, components, effBalancer));
        OrderedJson effEntry = SwitchSelection::EffectiveEntry(roles, switches);
        effEntry["balancer"] = effBalancer;
        eff.push_back(effEntry);
    }
    balancerOfSwitch = selection.GetEntryOfSwitch();
    effective = eff;
}

} // namespace ns3
