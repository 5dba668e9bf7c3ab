#include "switch-selection.h"

#include <algorithm>

namespace ns3
{

using Json = nlohmann::json;

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

std::vector<int32_t>
SwitchSelection::ReadEntries(const JsonSchemaReader& r, const ExperimentTopology& topo,
                             const Json* entries, const std::string& pointer,
                             const std::string& key, const std::string& keyShape,
                             const std::string& keyHint, const EntryReader& readEntry,
                             nlohmann::ordered_json& effective)
{
    if (!entries)
    {
        return std::vector<int32_t>(topo.switches.size(), -1);
    }
    if (!entries->is_array())
    {
        r.Fail(pointer, "expected an array of {\"roles\": [...], \"switches\": [...], \"" + key +
                            "\": " + keyShape + "}, got " + std::string(entries->type_name()));
    }
    SwitchSelection selection(r, topo);
    nlohmann::ordered_json eff = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < entries->size(); ++i)
    {
        const Json& e = (*entries)[i];
        const std::string p = JsonSchemaReader::Child(pointer, i);
        r.CheckKeys(e, p, {"roles", "switches", key});
        std::vector<std::string> roles;
        std::vector<std::string> switches;
        selection.ReadEntry(e, p, static_cast<int32_t>(i), roles, switches);
        const std::string sp = JsonSchemaReader::Child(p, key);
        const Json* section = JsonSchemaReader::Find(e, key);
        if (!section)
        {
            r.Fail(sp, "missing required field \"" + key + "\" (" + keyHint + ")");
        }
        r.RequireObject(*section, sp);
        nlohmann::ordered_json entry = EffectiveEntry(roles, switches);
        entry[key] = readEntry(*section, sp);
        eff.push_back(entry);
    }
    effective = eff;
    return selection.GetEntryOfSwitch();
}

SwitchSelection::SwitchSelection(const JsonSchemaReader& reader, const ExperimentTopology& topo)
    : m_reader(reader)
    , m_topology(topo)
    , m_roles(topo.GetSwitchRoles())
    , m_byName(topo.switches.size(), -1)
{
    m_roleList = m_roles.empty()
                     ? "this " + topo.type +
                           " topology has no switch roles (fat_tree: tor, agg, core; "
                           "leaf_spine: leaf, spine; regional: T0, T1, T2, RH; "
                           "custom: a switch's \"role\")"
                     : "the topology's switch roles are " + JsonSchemaReader::JoinNames(m_roles);
    m_switchList =
        "not a switch of the topology (" + JsonSchemaReader::JoinNames(topo.switches, 10) + ")";
}

void
SwitchSelection::ReadEntry(const Json& e, const std::string& p, int32_t index,
                           std::vector<std::string>& roles, std::vector<std::string>& switches)
{
    const JsonSchemaReader& r = m_reader;
    roles = ReadNames(r, e, p, "roles", m_roles, "unknown switch role", m_roleList);
    switches = ReadNames(r, e, p, "switches", m_topology.switches, "unknown switch", m_switchList);
    if (roles.empty() && switches.empty())
    {
        r.Fail(p, "an entry needs \"roles\" or \"switches\" (the switches it configures)");
    }
    for (std::size_t k = 0; k < roles.size(); ++k)
    {
        const std::string np = JsonSchemaReader::Child(JsonSchemaReader::Child(p, "roles"), k);
        if (!m_roleEntry.emplace(roles[k], np).second)
        {
            r.Fail(np,
                   "role \"" + roles[k] + "\" is already configured at " + m_roleEntry[roles[k]]);
        }
        m_byRole[roles[k]] = index;
    }
    for (std::size_t k = 0; k < switches.size(); ++k)
    {
        const std::string np = JsonSchemaReader::Child(JsonSchemaReader::Child(p, "switches"), k);
        if (!m_switchEntry.emplace(switches[k], np).second)
        {
            r.Fail(np, "switch \"" + switches[k] + "\" is already configured at " +
                           m_switchEntry[switches[k]]);
        }
        const auto s = static_cast<std::size_t>(
            std::find(m_topology.switches.begin(), m_topology.switches.end(), switches[k]) -
            m_topology.switches.begin());
        m_byName[s] = index;
    }
}

std::vector<int32_t>
SwitchSelection::GetEntryOfSwitch() const
{
    std::vector<int32_t> entryOf(m_topology.switches.size(), -1);
    for (std::size_t s = 0; s < entryOf.size(); ++s)
    {
        auto it = m_byRole.find(m_topology.switchRoles[s]);
        entryOf[s] = m_byName[s] >= 0 ? m_byName[s] : it != m_byRole.end() ? it->second : -1;
    }
    return entryOf;
}

nlohmann::ordered_json
SwitchSelection::EffectiveEntry(const std::vector<std::string>& roles,
                                const std::vector<std::string>& switches)
{
    nlohmann::ordered_json entry = nlohmann::ordered_json::object();
    if (!roles.empty())
    {
        entry["roles"] = roles;
    }
    if (!switches.empty())
    {
        entry["switches"] = switches;
    }
    return entry;
}

} // namespace ns3
