#include "switch-buffer-assignment.h"

#include "ns3/experiment-config.h"
#include "ns3/sonic-buffer-config.h"
#include "ns3/sonic-config-loader.h"
#include "ns3/switch-selection.h"
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
                                        const std::string& pointer, const std::string& defaultType,
                                        std::vector<std::string>* unmodelled)
{
    const Json* configDb =
        section.is_object() ? JsonSchemaReader::Find(section, "config_db") : nullptr;
    const Json* ports =
        section.is_object() ? JsonSchemaReader::Find(section, "config_db_ports") : nullptr;
    const std::string pp = JsonSchemaReader::Child(pointer, "config_db_ports");
    if (!configDb)
    {
        if (ports)
        {
            r.Fail(pp, "names config_db ports, but this section has no \"config_db\"");
        }
        return section;
    }
    const std::string cp = JsonSchemaReader::Child(pointer, "config_db");
    const std::string type = r.GetString(section, pointer, "type", defaultType, {});
    Json out = section;
    out.erase("config_db");
    out.erase("config_db_ports");
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
    for (const char* attribute : {"ConfigFile", "PortNames"})
    {
        if (JsonSchemaReader::Find(section, attribute))
        {
            r.Fail(JsonSchemaReader::Child(pointer, attribute),
                   std::string("give either \"config_db\"") +
                       (attribute == std::string("ConfigFile")
                            ? " (relative to this file)"
                            : " with \"config_db_ports\" (config_db port names)") +
                       " or \"" + attribute + "\", not both");
        }
    }
    // One file, or several merged in order (a buffer file and a QoS-map file, say).
    std::vector<std::pair<std::string, std::string>> given; // (pointer, path as written)
    if (configDb->is_array())
    {
        if (configDb->empty())
        {
            r.Fail(cp, "expected the path of a SONiC config_db JSON file or a non-empty array "
                       "of them, got []");
        }
        for (std::size_t k = 0; k < configDb->size(); ++k)
        {
            const std::string kp = JsonSchemaReader::Child(cp, k);
            if (!(*configDb)[k].is_string())
            {
                r.Fail(kp, "expected the path of a SONiC config_db JSON file, got " +
                               (*configDb)[k].dump());
            }
            r.CheckNoNul((*configDb)[k], kp);
            given.emplace_back(kp, (*configDb)[k].get<std::string>());
        }
    }
    else if (configDb->is_string())
    {
        r.CheckNoNul(*configDb, cp);
        given.emplace_back(cp, configDb->get<std::string>());
    }
    else
    {
        r.Fail(cp, "expected a string (the path of a SONiC config_db JSON file) or an array "
                   "of them, got " +
                       configDb->dump());
    }
    std::vector<std::string> paths;
    std::string joined;
    for (const auto& [kp, name] : given)
    {
        if (name.empty())
        {
            r.Fail(kp, "expected the path of a SONiC config_db JSON file, got an empty string");
        }
        const std::string path = r.ResolvePath(name);
        if (path.find(',') != std::string::npos)
        {
            r.Fail(kp, "the path \"" + path + "\" contains a comma, which separates files");
        }
        if (!std::ifstream(path, std::ios::binary))
        {
            r.Fail(kp, "cannot open the SONiC config_db file \"" + path + "\"");
        }
        paths.push_back(path);
        joined += (joined.empty() ? "" : ",") + path;
    }
    // Port names: an explicit list (switch port k is the k-th name), else the
    // PortNaming rule (by default the file's ports in the order of EthernetN, i.e.
    // the switch's neighbours in the order the topology lists its links).
    std::map<std::string, uint32_t> portMap;
    std::vector<std::string> portNames;
    if (ports)
    {
        if (!ports->is_array() || ports->empty())
        {
            r.Fail(pp, "expected a non-empty array of config_db port names (switch port 0, 1, "
                       "... in order), got " +
                           ports->dump());
        }
        for (std::size_t k = 0; k < ports->size(); ++k)
        {
            const std::string kp = JsonSchemaReader::Child(pp, k);
            const Json& n = (*ports)[k];
            if (!n.is_string() || n.get<std::string>().empty() ||
                n.get<std::string>().find(',') != std::string::npos)
            {
                r.Fail(kp, "expected a config_db port name such as \"Ethernet8\", got " + n.dump());
            }
            const std::string name = n.get<std::string>();
            if (!portMap.emplace(name, static_cast<uint32_t>(k)).second)
            {
                r.Fail(kp, "port \"" + name + "\" is already switch port " +
                               std::to_string(portMap[name]));
            }
            portNames.push_back(name);
        }
        if (JsonSchemaReader::Find(section, "PortNaming"))
        {
            r.Fail(JsonSchemaReader::Child(pointer, "PortNaming"),
                   "give \"config_db_ports\" or \"PortNaming\", not both");
        }
    }
    // The buffer manager reads the files again at Setup; reading them here finds their
    // errors (which name the file and its JSON pointer) before anything is built.
    const Json* naming = JsonSchemaReader::Find(section, "PortNaming");
    SonicConfigLoader loader;
    loader.SetEthernetDivisor(!naming                      ? 0
                              : *naming == "EthernetDiv4"  ? 4
                              : *naming == "EthernetIndex" ? 1
                                                           : 0);
    loader.SetPortMap(portMap);
    SonicBufferConfig config;
    try
    {
        config = loader.Read(paths);
    }
    catch (const ConfigError& e)
    {
        r.Fail(cp, "config_db file rejected: " + std::string(e.what()));
    }
    for (std::size_t k = 0; k < portNames.size(); ++k)
    {
        if (k >= config.ports.size() || !config.ports[k].configured)
        {
            r.Fail(JsonSchemaReader::Child(pp, k),
                   "port \"" + portNames[k] + "\" is named by no table of " + joined);
        }
    }
    if (unmodelled && !loader.GetUnmodelled().empty() &&
        std::find(unmodelled->begin(), unmodelled->end(), loader.GetUnmodelled()) ==
            unmodelled->end())
    {
        unmodelled->push_back(loader.GetUnmodelled());
    }
    out["ConfigFile"] = joined;
    if (!portNames.empty())
    {
        std::string names;
        for (const std::string& n : portNames)
        {
            names += (names.empty() ? "" : ",") + n;
        }
        out["PortNames"] = names;
    }
    return out;
}

void
SwitchBufferAssignment::Parse(const JsonSchemaReader& r, const Json* entries,
                              const std::string& pointer, const ExperimentTopology& topo,
                              const std::string& defaultType, const ComponentParser& parseComponent,
                              std::vector<ExperimentComponent>& components,
                              std::vector<int32_t>& componentOfSwitch, OrderedJson& effective,
                              std::vector<std::string>* unmodelled)
{
    components.clear();
    componentOfSwitch = SwitchSelection::ReadEntries(
        r, topo, entries, pointer, "buffer", "{...}",
        "a buffer section: \"type\", \"config_db\" and attributes",
        [&](const Json& section, const std::string& bp)
        {
            const Json resolved = ResolveConfigDb(r, section, bp, defaultType, unmodelled);
            ExperimentComponent component;
            OrderedJson eff;
            parseComponent(&resolved, bp, defaultType, component, eff);
            components.push_back(component);
            return eff;
        },
        effective);
}

} // namespace ns3
