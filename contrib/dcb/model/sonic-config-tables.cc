#include "sonic-config-tables.h"

#include <algorithm>

namespace ns3
{

namespace
{

/** Fields of each modelled table ("*": every field is data, e.g. a map's entries). */
const std::map<std::string, std::set<std::string>>&
KnownFields()
{
    static const std::map<std::string, std::set<std::string>> known = {
        {"BUFFER_POOL", {"type", "mode", "size", "xoff"}},
        {"BUFFER_PROFILE",
         {"pool", "size", "dynamic_th", "static_th", "xoff", "xon", "xon_offset"}},
        {"BUFFER_PG", {"profile"}},
        {"BUFFER_QUEUE", {"profile"}},
        {"PORT_QOS_MAP",
         {"pfc_enable", "tc_to_pg_map", "dscp_to_tc_map", "tc_to_queue_map", "pfc_to_queue_map"}},
        {"TC_TO_PRIORITY_GROUP_MAP", {"*"}},
        {"DSCP_TO_TC_MAP", {"*"}},
        {"TC_TO_QUEUE_MAP", {"*"}},
        {"MAP_PFC_PRIORITY_TO_QUEUE", {"*"}},
        {"QUEUE", {"wred_profile", "scheduler"}},
        {"WRED_PROFILE",
         {"wred_green_enable", "green_min_threshold", "green_max_threshold",
          "green_drop_probability", "ecn"}},
        {"SCHEDULER", {"type", "weight"}},
        {"PFC_WD", {"action", "detection_time", "restoration_time", "POLL_INTERVAL"}},
        {"CABLE_LENGTH", {"*"}},
        {"PORT", {"speed", "mtu"}},
        {"DEVICE_METADATA", {"switch_type", "buffer_model"}},
        {"DEFAULT_LOSSLESS_BUFFER_PARAMETER", {"default_dynamic_th"}},
    };
    return known;
}

} // namespace

bool
SonicConfigTables::Add(const nlohmann::json& root, const JsonSchemaReader& reader)
{
    if (!root.is_object())
    {
        reader.Fail("", "the top level must be a JSON object of config_db tables");
    }
    const std::string& file = reader.GetFile();
    m_files.push_back(file);
    bool flat = false;
    for (const auto& [name, value] : root.items())
    {
        const size_t bar = name.find('|');
        if (bar != std::string::npos)
        {
            // sonic-db-dump / Redis layout: "TABLE|key": {fields}.
            flat = true;
            AddEntry(name.substr(0, bar), name.substr(bar + 1), value, reader,
                     JsonSchemaReader::Child("", name));
            continue;
        }
        if (!value.is_object())
        {
            reader.Fail(JsonSchemaReader::Child("", name),
                        "a table must be a JSON object of entries (or write \"" + name +
                            "|<key>\": {...} keys, as sonic-db-dump does)");
        }
        for (const auto& [key, fields] : value.items())
        {
            AddEntry(name, key, fields, reader,
                     JsonSchemaReader::Child(JsonSchemaReader::Child("", name), key));
        }
    }
    return flat;
}

void
SonicConfigTables::AddEntry(const std::string& table, const std::string& key,
                            const nlohmann::json& value, const JsonSchemaReader& reader,
                            const std::string& pointer)
{
    const std::string& file = reader.GetFile();
    if (!value.is_object())
    {
        reader.Fail(pointer, "an entry must be a JSON object of fields, got " +
                                 std::string(value.type_name()));
    }
    auto known = KnownFields().find(table);
    if (known == KnownFields().end())
    {
        m_unmodelledTables[file].insert(table);
        return;
    }
    if (known->second.count("*") == 0)
    {
        const bool global = table == "PORT_QOS_MAP" && key == "global";
        const bool otherDevice = table == "DEVICE_METADATA" && key != "localhost";
        for (const auto& [field, v] : value.items())
        {
            const bool modelled =
                global ? field == "dscp_to_tc_map" : !otherDevice && known->second.count(field) > 0;
            if (!modelled)
            {
                m_unmodelledFields[file].insert(table + "." + field);
            }
        }
    }
    std::vector<SonicConfigEntry>& entries = m_tables[table];
    for (SonicConfigEntry& e : entries)
    {
        if (e.key == key)
        {
            // A later file overrides fields of the same entry (`sonic-cfggen -j a -j b`).
            for (const auto& [field, v] : value.items())
            {
                e.value[field] = v;
            }
            e.reader = reader;
            e.pointer = pointer;
            return;
        }
    }
    entries.push_back(SonicConfigEntry{key, value, reader, pointer});
    std::sort(entries.begin(), entries.end(),
              [](const SonicConfigEntry& a, const SonicConfigEntry& b) { return a.key < b.key; });
}

const std::vector<SonicConfigEntry>&
SonicConfigTables::Get(const std::string& table) const
{
    static const std::vector<SonicConfigEntry> none;
    auto it = m_tables.find(table);
    return it == m_tables.end() ? none : it->second;
}

const SonicConfigEntry*
SonicConfigTables::Find(const std::string& table, const std::string& key) const
{
    for (const SonicConfigEntry& e : Get(table))
    {
        if (e.key == key)
        {
            return &e;
        }
    }
    return nullptr;
}

std::string
SonicConfigTables::Unmodelled() const
{
    std::string line;
    for (const std::string& file : m_files)
    {
        auto t = m_unmodelledTables.find(file);
        auto f = m_unmodelledFields.find(file);
        if (t == m_unmodelledTables.end() && f == m_unmodelledFields.end())
        {
            continue;
        }
        std::string part = file + ":";
        if (t != m_unmodelledTables.end())
        {
            part += " tables";
            for (const std::string& name : t->second)
            {
                part += (part.back() == 's' ? " " : ", ") + name;
            }
        }
        if (f != m_unmodelledFields.end())
        {
            part += t != m_unmodelledTables.end() ? "; fields" : " fields";
            bool first = true;
            for (const std::string& name : f->second)
            {
                part += (first ? " " : ", ") + name;
                first = false;
            }
        }
        line += (line.empty() ? "" : "; ") + part;
    }
    return line;
}

} // namespace ns3
