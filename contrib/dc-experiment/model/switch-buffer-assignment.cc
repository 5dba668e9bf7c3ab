#include "switch-buffer-assignment.h"

#include "experiment-config.h"

#include "ns3/sonic-buffer-config.h"
#include "ns3/sonic-config-loader.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <fstream>
#include <map>

namespace ns3
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

Json
SwitchBufferAssignment::ResolveConfigDb(const JsonSchemaReader& r, const Json& section,
                                        const std::string& pointer, const std::string& defaultType)
{
    const Json* configDb =
        section.is_object() ? JsonSchemaReader::Find(section, "config_db") : nullptr;
    if (!configDb)
    {
        return section;
    }
    const std::string cp = JsonSchemaReader::Child(pointer, "config_db");
    const std::string type = r.GetString(section, pointer, "type", defaultType, {});
    Json out = section;
    out.erase("config_db");
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(type, &tid))
    {
        return out; // the component parser reports the unknown type at /type
    }
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName("ConfigFile", &info))
    {
        r.Fail(cp, "buffer type \"" + type +
                       "\" does not read a SONiC config_db file (ns3::SonicBufferManager and "
                       "ns3::DeepBufferVoq do; set \"type\")");
    }
    if (JsonSchemaReader::Find(section, "ConfigFile"))
    {
        r.Fail(JsonSchemaReader::Child(pointer, "ConfigFile"),
               "give either \"config_db\" (relative to this file) or \"ConfigFile\", not both");
    }
    const std::string given = r.GetString(section, pointer, "config_db", std::nullopt, {});
    if (given.empty())
    {
        r.Fail(cp, "expected the path of a SONiC config_db JSON file, got an empty string");
    }
    const std::string path = ExperimentTopology::ResolvePath(r.GetFile(), given);
    if (!std::ifstream(path, std::ios::binary))
    {
        r.Fail(cp, "cannot open the SONiC config_db file \"" + path + "\"");
    }
    // The buffer manager reads the file again at Setup; reading it here finds its
    // errors (which name that file and its JSON pointer) before anything is built.
    const Json* naming = JsonSchemaReader::Find(section, "PortNaming");
    SonicConfigLoader loader;
    loader.SetEthernetDivisor(naming && *naming == "EthernetIndex" ? 1 : 4);
    SonicBufferConfig config;
    if (!loader.LoadFile(path, config))
    {
        r.Fail(cp, "config_db file rejected: " + loader.GetError());
    }
    out["ConfigFile"] = path;
    return out;
}

namespace
{

/** Read the array of names at \p key of an entry; each must be in \p known. */
std::vector<std::string>
ReadNames(const JsonSchemaReader& r, const Json& entry, const std::string& pointer,
          const std::string& key, const std::vector<std::string>& known,
          const std::string& unknownWhat, const std::string& knownList)
{
    std::vector<std::string> names;
    const Json* v = JsonSchemaReader::Find(entry, key);
    if (!v)
    {
        return names;
    }
    const std::string p = JsonSchemaReader::Child(pointer, key);
    if (!v->is_array() || v->empty())
    {
        r.Fail(p, "expected a non-empty array of " + key + " names, got " + v->dump());
    }
    for (std::size_t k = 0; k < v->size(); ++k)
    {
        const Json& n = (*v)[k];
        const std::string np = JsonSchemaReader::Child(p, k);
        if (!n.is_string())
        {
            r.Fail(np,
                   "expected a name (string), got " + std::string(n.type_name()) + " " + n.dump());
        }
        const std::string name = n.get<std::string>();
        if (std::find(known.begin(), known.end(), name) == known.end())
        {
            r.Fail(np, unknownWhat + " \"" + name + "\"; " + knownList);
        }
        names.push_back(name);
    }
    return names;
}

} // namespace

void
SwitchBufferAssignment::Parse(const JsonSchemaReader& r, const Json* entries,
                              const std::string& pointer, const ExperimentTopology& topo,
                              const std::string& defaultType, const ComponentParser& parseComponent,
                              std::vector<ExperimentComponent>& components,
                              std::vector<int32_t>& componentOfSwitch, OrderedJson& effective)
{
    componentOfSwitch.assign(topo.switches.size(), -1);
    components.clear();
    if (!entries)
    {
        return;
    }
    if (!entries->is_array())
    {
        r.Fail(pointer,
               "expected an array of {\"roles\": [...], \"switches\": [...], \"buffer\": {...}}, "
               "got " +
                   std::string(entries->type_name()));
    }
    const std::vector<std::string> roles = topo.GetSwitchRoles();
    const std::string roleList =
        roles.empty() ? "this " + topo.type +
                            " topology has no switch roles (fat_tree: tor, agg, core; "
                            "leaf_spine: leaf, spine; regional: T0, T1, T2, RH; "
                            "custom: a switch's \"role\")"
                      : "the topology's switch roles are " + JsonSchemaReader::JoinNames(roles);
    const std::string switchList =
        "not a switch of the topology (" + JsonSchemaReader::JoinNames(topo.switches, 10) + ")";
    std::map<std::string, std::string> roleEntry;   // role -> pointer that named it
    std::map<std::string, std::string> switchEntry; // switch -> pointer that named it
    std::vector<int32_t> byName(topo.switches.size(), -1);
    std::map<std::string, int32_t> byRole;
    OrderedJson eff = OrderedJson::array();
    for (std::size_t i = 0; i < entries->size(); ++i)
    {
        const Json& e = (*entries)[i];
        const std::string p = JsonSchemaReader::Child(pointer, i);
        r.CheckKeys(e, p, {"roles", "switches", "buffer"});
        const auto entry = static_cast<int32_t>(i);
        const std::vector<std::string> entryRoles =
            ReadNames(r, e, p, "roles", roles, "unknown switch role", roleList);
        const std::vector<std::string> entrySwitches =
            ReadNames(r, e, p, "switches", topo.switches, "unknown switch", switchList);
        if (entryRoles.empty() && entrySwitches.empty())
        {
            r.Fail(p, "an entry needs \"roles\" or \"switches\" (the switches it configures)");
        }
        for (std::size_t k = 0; k < entryRoles.size(); ++k)
        {
            const std::string np = JsonSchemaReader::Child(JsonSchemaReader::Child(p, "roles"), k);
            if (!roleEntry.emplace(entryRoles[k], np).second)
            {
                r.Fail(np, "role \"" + entryRoles[k] + "\" is already configured at " +
                               roleEntry[entryRoles[k]]);
            }
            byRole[entryRoles[k]] = entry;
        }
        for (std::size_t k = 0; k < entrySwitches.size(); ++k)
        {
            const std::string np =
                JsonSchemaReader::Child(JsonSchemaReader::Child(p, "switches"), k);
            if (!switchEntry.emplace(entrySwitches[k], np).second)
            {
                r.Fail(np, "switch \"" + entrySwitches[k] + "\" is already configured at " +
                               switchEntry[entrySwitches[k]]);
            }
            const auto s = static_cast<std::size_t>(
                std::find(topo.switches.begin(), topo.switches.end(), entrySwitches[k]) -
                topo.switches.begin());
            byName[s] = entry;
        }
        const std::string bp = JsonSchemaReader::Child(p, "buffer");
        const Json* section = JsonSchemaReader::Find(e, "buffer");
        if (!section)
        {
            r.Fail(bp, "missing required field \"buffer\" (a buffer section: \"type\", "
                       "\"config_db\" and attributes)");
        }
        r.RequireObject(*section, bp);
        const Json resolved = ResolveConfigDb(r, *section, bp, defaultType);
        ExperimentComponent component;
        OrderedJson effBuffer;
        parseComponent(&resolved, bp, defaultType, component, effBuffer);
        components.push_back(component);
        OrderedJson effEntry;
        if (!entryRoles.empty())
        {
            effEntry["roles"] = entryRoles;
        }
        if (!entrySwitches.empty())
        {
            effEntry["switches"] = entrySwitches;
        }
        effEntry["buffer"] = effBuffer;
        eff.push_back(effEntry);
    }
    for (std::size_t s = 0; s < topo.switches.size(); ++s)
    {
        auto it = byRole.find(topo.switchRoles[s]);
        componentOfSwitch[s] = byName[s] >= 0 ? byName[s] : it != byRole.end() ? it->second : -1;
    }
    effective = eff;
}

} // namespace ns3
