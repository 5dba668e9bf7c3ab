#include "experiment-topology.h"

#include "fat-tree-topology.h"
#include "hpcc-topology-reader.h"
#include "regional-topology.h"
#include "topology-types.h"

#include "ns3/json-attribute-converter.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

namespace ns3
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

namespace
{

void
ParseBuiltIn(const JsonSchemaReader& r, const Json& topo, const std::string& pointer,
             const std::string& type, ExperimentTopology& t, OrderedJson& effective)
{
    std::vector<std::string> keys = {"type", "host_link_rate", "fabric_link_rate", "link_delay"};
    if (type == "dumbbell")
    {
        keys.push_back("hosts_per_side");
    }
    else if (type == "incast")
    {
        keys.push_back("senders");
    }
    else
    {
        keys.insert(keys.end(), {"leaves", "spines", "hosts_per_leaf"});
    }
    r.CheckKeys(topo, pointer, keys);
    const DataRate hostRate = r.GetRate(topo, pointer, "host_link_rate", "100Gbps");
    const DataRate fabricRate = r.GetRate(topo, pointer, "fabric_link_rate", "100Gbps");
    const Time delay = r.GetTime(topo, pointer, "link_delay", "1us", Time(0));

    OrderedJson eff;
    eff["type"] = type;
    uint32_t nHosts = 0;
    uint32_t nSwitches = 0;
    auto addLink = [&t](uint32_t a, uint32_t b, DataRate r, Time d) {
        t.links.push_back(ExperimentLink{a, b, r, d});
    };
    if (type == "dumbbell")
    {
        const auto n = static_cast<uint32_t>(
            r.GetUint(topo, pointer, "hosts_per_side", std::nullopt, 1, 32768));
        eff["hosts_per_side"] = n;
        nHosts = 2 * n;
        nSwitches = 2;
        for (uint32_t h = 0; h < nHosts; ++h)
        {
            addLink(h, nHosts + (h < n ? 0 : 1), hostRate, delay);
        }
        addLink(nHosts, nHosts + 1, fabricRate, delay);
    }
    else if (type == "incast")
    {
        const auto n =
            static_cast<uint32_t>(r.GetUint(topo, pointer, "senders", std::nullopt, 1, 65535));
        eff["senders"] = n;
        nHosts = n + 1;
        nSwitches = 1;
        for (uint32_t h = 0; h < nHosts; ++h)
        {
            addLink(h, nHosts, hostRate, delay);
        }
    }
    else
    {
        const auto leaves =
            static_cast<uint32_t>(r.GetUint(topo, pointer, "leaves", std::nullopt, 1, 4096));
        const auto spines =
            static_cast<uint32_t>(r.GetUint(topo, pointer, "spines", std::nullopt, 1, 4096));
        const auto perLeaf = static_cast<uint32_t>(
            r.GetUint(topo, pointer, "hosts_per_leaf", std::nullopt, 1, 4096));
        if (static_cast<uint64_t>(leaves) * perLeaf > 65536)
        {
            r.Fail(JsonSchemaReader::Child(pointer, "hosts_per_leaf"),
                   "leaves x hosts_per_leaf = " + std::to_string(uint64_t{leaves} * perLeaf) +
                       " hosts; at most 65536 are supported");
        }
        eff["leaves"] = leaves;
        eff["spines"] = spines;
        eff["hosts_per_leaf"] = perLeaf;
        nHosts = leaves * perLeaf;
        nSwitches = leaves + spines;
        for (uint32_t h = 0; h < nHosts; ++h)
        {
            addLink(h, nHosts + h / perLeaf, hostRate, delay);
        }
        for (uint32_t l = 0; l < leaves; ++l)
        {
            for (uint32_t s = 0; s < spines; ++s)
            {
                addLink(nHosts + l, nHosts + leaves + s, fabricRate, delay);
            }
        }
    }
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        t.hosts.push_back("h" + std::to_string(h));
    }
    for (uint32_t s = 0; s < nSwitches; ++s)
    {
        t.switches.push_back("s" + std::to_string(s));
    }
    if (type == "leaf_spine")
    {
        const uint32_t leaves = nHosts / eff["hosts_per_leaf"].get<uint32_t>();
        for (uint32_t s = 0; s < nSwitches; ++s)
        {
            t.switchRoles.push_back(s < leaves ? "leaf" : "spine");
        }
    }
    eff["host_link_rate"] = JsonAttributeConverter::FormatDataRate(hostRate);
    eff["fabric_link_rate"] = JsonAttributeConverter::FormatDataRate(fabricRate);
    eff["link_delay"] = JsonAttributeConverter::FormatTime(delay);
    effective = eff;
}

/**
 * Read the array \p key of node names. With \p roles (switches), an entry may
 * also be {"name": name, "role": role}; \p roles gets one role per name ("" none).
 */
std::vector<std::string>
ParseNames(const JsonSchemaReader& r, const Json& object, const std::string& pointer,
           const std::string& key, const std::set<std::string>& declared,
           std::vector<std::string>* roles = nullptr)
{
    static const std::regex nameForm("^[A-Za-z0-9_.-]+$");
    const Json* v = JsonSchemaReader::Find(object, key);
    const std::string p = JsonSchemaReader::Child(pointer, key);
    if (!v)
    {
        r.Fail(p, "missing required field \"" + key + "\" (a non-empty array of node names)");
    }
    if (!v->is_array() || v->empty())
    {
        r.Fail(p, "expected a non-empty array of node names, got " + std::string(v->type_name()));
    }
    std::vector<std::string> names;
    std::set<std::string> seen = declared;
    for (std::size_t i = 0; i < v->size(); ++i)
    {
        const Json* entry = &(*v)[i];
        std::string ep = JsonSchemaReader::Child(p, i);
        if (roles && entry->is_object())
        {
            r.CheckKeys(*entry, ep, {"name", "role"});
            const std::string role = r.GetString(*entry, ep, "role", "", {});
            if (!role.empty() && !std::regex_match(role, nameForm))
            {
                r.Fail(JsonSchemaReader::Child(ep, "role"),
                       "expected a role name (letters, digits, '_', '.', '-'), got \"" + role +
                           "\"");
            }
            roles->push_back(role);
            ep = JsonSchemaReader::Child(ep, "name");
            entry = JsonSchemaReader::Find(*entry, "name");
            if (!entry)
            {
                r.Fail(ep, "missing required field \"name\"");
            }
        }
        else if (roles)
        {
            roles->push_back("");
        }
        const Json& n = *entry;
        if (!n.is_string() || !std::regex_match(n.get<std::string>(), nameForm))
        {
            r.Fail(ep, std::string("expected a node name (letters, digits, '_', '.', '-')") +
                           (roles ? " or {\"name\", \"role\"}" : "") + ", got " + n.dump());
        }
        const std::string name = n.get<std::string>();
        if (!seen.insert(name).second)
        {
            r.Fail(ep, "node name \"" + name + "\" is declared twice");
        }
        names.push_back(name);
    }
    return names;
}

void
CheckHostLinks(const JsonSchemaReader& r, const std::string& pointer, const ExperimentTopology& t)
{
    const uint32_t nHosts = static_cast<uint32_t>(t.hosts.size());
    std::vector<std::vector<uint32_t>> adjacency(t.GetNNodes());
    for (const auto& l : t.links)
    {
        adjacency[l.a].push_back(l.b);
        adjacency[l.b].push_back(l.a);
    }
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        if (adjacency[h].size() != 1)
        {
            r.Fail(JsonSchemaReader::Child(JsonSchemaReader::Child(pointer, "hosts"), h),
                   "host \"" + t.hosts[h] + "\" has " + std::to_string(adjacency[h].size()) +
                       " links; a host has exactly one link (one NIC port) to a switch");
        }
    }
    // Every node must be reachable from host 0 (routes only span one component).
    std::vector<bool> seen(t.GetNNodes(), false);
    std::deque<uint32_t> frontier{0};
    seen[0] = true;
    while (!frontier.empty())
    {
        const uint32_t u = frontier.front();
        frontier.pop_front();
        for (uint32_t v : adjacency[u])
        {
            if (!seen[v])
            {
                seen[v] = true;
                frontier.push_back(v);
            }
        }
    }
    for (uint32_t i = 0; i < t.GetNNodes(); ++i)
    {
        if (!seen[i])
        {
            const bool host = i < nHosts;
            r.Fail(JsonSchemaReader::Child(
                       JsonSchemaReader::Child(pointer, host ? "hosts" : "switches"),
                       host ? i : i - nHosts),
                   "node \"" + t.GetNodeName(i) + "\" is not connected to host \"" + t.hosts[0] +
                       "\"");
        }
    }
}

void
ParseCustom(const JsonSchemaReader& r, const Json& topo, const std::string& pointer,
            ExperimentTopology& t, OrderedJson& effective)
{
    r.CheckKeys(topo, pointer, {"type", "switches", "hosts", "links", "link_rate", "link_delay"});
    t.switches = ParseNames(r, topo, pointer, "switches", {}, &t.switchRoles);
    t.hosts = ParseNames(r, topo, pointer, "hosts",
                         std::set<std::string>(t.switches.begin(), t.switches.end()));
    const DataRate defaultRate = r.GetRate(topo, pointer, "link_rate", "100Gbps");
    const Time defaultDelay = r.GetTime(topo, pointer, "link_delay", "1us", Time(0));
    const auto nHosts = static_cast<uint32_t>(t.hosts.size());
    std::map<std::string, uint32_t> index;
    for (uint32_t i = 0; i < t.GetNNodes(); ++i)
    {
        index[t.GetNodeName(i)] = i;
    }

    const std::string lp = JsonSchemaReader::Child(pointer, "links");
    const Json* links = JsonSchemaReader::Find(topo, "links");
    if (!links || !links->is_array() || links->empty())
    {
        r.Fail(lp, "expected a non-empty array of links {\"a\", \"b\", \"rate\", \"delay\"}");
    }
    OrderedJson effLinks = OrderedJson::array();
    for (std::size_t k = 0; k < links->size(); ++k)
    {
        const Json& link = (*links)[k];
        const std::string p = JsonSchemaReader::Child(lp, k);
        r.CheckKeys(link, p, {"a", "b", "rate", "delay"});
        uint32_t ends[2];
        const char* endKeys[2] = {"a", "b"};
        for (int e = 0; e < 2; ++e)
        {
            const std::string name = r.GetString(link, p, endKeys[e], std::nullopt, {});
            auto it = index.find(name);
            if (it == index.end())
            {
                r.Fail(JsonSchemaReader::Child(p, endKeys[e]),
                       "link names node \"" + name +
                           "\", which is not declared in /topology/hosts or /topology/switches");
            }
            ends[e] = it->second;
        }
        if (ends[0] == ends[1])
        {
            r.Fail(JsonSchemaReader::Child(p, "b"),
                   "a link cannot join node \"" + t.GetNodeName(ends[0]) + "\" to itself");
        }
        if (ends[0] < nHosts && ends[1] < nHosts)
        {
            r.Fail(p,
                   "hosts \"" + t.GetNodeName(ends[0]) + "\" and \"" + t.GetNodeName(ends[1]) +
                       "\" are linked directly; a link joins a host to a switch or two switches");
        }
        const DataRate rate =
            r.GetRate(link, p, "rate", JsonAttributeConverter::FormatDataRate(defaultRate));
        const Time delay =
            r.GetTime(link, p, "delay", JsonAttributeConverter::FormatTime(defaultDelay), Time(0));
        t.links.push_back(ExperimentLink{ends[0], ends[1], rate, delay});
        OrderedJson e;
        e["a"] = t.GetNodeName(ends[0]);
        e["b"] = t.GetNodeName(ends[1]);
        e["rate"] = JsonAttributeConverter::FormatDataRate(rate);
        e["delay"] = JsonAttributeConverter::FormatTime(delay);
        effLinks.push_back(e);
    }
    CheckHostLinks(r, pointer, t);

    OrderedJson eff;
    eff["type"] = "custom";
    OrderedJson effSwitches = OrderedJson::array();
    for (std::size_t i = 0; i < t.switches.size(); ++i)
    {
        if (t.switchRoles[i].empty())
        {
            effSwitches.push_back(t.switches[i]);
        }
        else
        {
            effSwitches.push_back(OrderedJson{{"name", t.switches[i]}, {"role", t.switchRoles[i]}});
        }
    }
    eff["switches"] = effSwitches;
    eff["hosts"] = t.hosts;
    eff["link_rate"] = JsonAttributeConverter::FormatDataRate(defaultRate);
    eff["link_delay"] = JsonAttributeConverter::FormatTime(defaultDelay);
    eff["links"] = effLinks;
    effective = eff;
}

} // namespace

void
ExperimentTopology::ParseFile(const JsonSchemaReader& r, const Json& topo,
                              const std::string& pointer, ExperimentTopology& t,
                              OrderedJson& effective)
{
    r.CheckKeys(topo, pointer, {"type", "path", "format"});
    const std::string path = r.ResolvePath(r.GetString(topo, pointer, "path", std::nullopt, {}));
    const std::string format =
        r.GetString(topo, pointer, "format", "roce-lab", {"roce-lab", "hpcc"});
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        r.Fail(JsonSchemaReader::Child(pointer, "path"),
               "cannot open the topology file \"" + path + "\"");
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (format == "hpcc")
    {
        t = HpccTopologyReader::Read(text.str(), path); // with its hpccHostOfNode
        t.type = TopologyTypes::FILE_TYPE;
    }
    else
    {
        // Our own format: a JSON file holding one "topology" object of a
        // built-in or custom type; its errors name that file and its pointers.
        const JsonSchemaReader sub(path);
        const Json doc = sub.ParseText(text.str());
        sub.RequireObject(doc, "");
        if (sub.GetString(doc, "", "type", std::nullopt, TopologyTypes::GetAll()) ==
            TopologyTypes::FILE_TYPE)
        {
            sub.Fail("/type", "a topology file cannot refer to another file");
        }
        OrderedJson inner;
        t = Parse(sub, doc, "", inner);
        t.type = TopologyTypes::FILE_TYPE;
    }
    OrderedJson eff;
    eff["type"] = TopologyTypes::FILE_TYPE;
    eff["path"] = path;
    eff["format"] = format;
    effective = eff;
}

uint32_t
ExperimentTopology::GetNNodes() const
{
    return static_cast<uint32_t>(hosts.size() + switches.size());
}

const std::string&
ExperimentTopology::GetNodeName(uint32_t index) const
{
    return index < hosts.size() ? hosts[index] : switches[index - hosts.size()];
}

std::vector<std::string>
ExperimentTopology::GetSwitchRoles() const
{
    std::vector<std::string> roles;
    for (const std::string& role : switchRoles)
    {
        if (!role.empty() && std::find(roles.begin(), roles.end(), role) == roles.end())
        {
            roles.push_back(role);
        }
    }
    return roles;
}

ExperimentTopology
ExperimentTopology::Parse(const JsonSchemaReader& reader, const nlohmann::json& topo,
                          const std::string& pointer, nlohmann::ordered_json& effective)
{
    reader.RequireObject(topo, pointer);
    ExperimentTopology t;
    t.type = reader.GetString(topo, pointer, "type", std::nullopt, TopologyTypes::GetAll());
    if (t.type == TopologyTypes::FILE_TYPE)
    {
        ParseFile(reader, topo, pointer, t, effective);
    }
    else if (t.type == "custom")
    {
        ParseCustom(reader, topo, pointer, t, effective);
    }
    else if (t.type == "fat_tree")
    {
        FatTreeTopology::Parse(reader, topo, pointer, t, effective);
    }
    else if (t.type == "regional")
    {
        RegionalTopology::Parse(reader, topo, pointer, t, effective);
    }
    else
    {
        ParseBuiltIn(reader, topo, pointer, t.type, t, effective);
    }
    t.switchRoles.resize(t.switches.size()); // types without roles: all ""
    return t;
}

} // namespace ns3
