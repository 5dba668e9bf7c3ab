/*
 * The tables of SONiC config_db files in either layout, merged over the files.
 */
#ifndef SONIC_CONFIG_TABLES_H
#define SONIC_CONFIG_TABLES_H

#include "ns3/json-schema-reader.h"

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcb
 * One config_db entry (TABLE|key): its fields and where they were read.
 */
struct SonicConfigEntry
{
    std::string key;
    nlohmann::json value;    //!< object of fields (merged over the files, later files win)
    JsonSchemaReader reader; //!< the file the entry was last given in
    std::string pointer;     //!< the JSON pointer of the entry in that file
};

/**
 * \ingroup dcb
 * The tables of one or more config_db files, in either layout: nested
 * ({"BUFFER_POOL": {"name": {...}}}, config_db.json) or flat Redis keys
 * ({"BUFFER_POOL|name": {...}}, sonic-db-dump). A later file's fields override an earlier
 * one's for the same entry (`sonic-cfggen -j a.json -j b.json`). Records the tables and
 * fields SonicConfigLoader does not model. Knows nothing of buffers.
 */
class SonicConfigTables
{
  public:
    /**
     * Add the tables of \p root, read by \p reader (whose file names the errors).
     * \return true if the file uses the flat Redis-key layout (in some entry)
     */
    bool Add(const nlohmann::json& root, const JsonSchemaReader& reader);
    /** \return the entries of \p table (empty if absent), ordered by key. */
    const std::vector<SonicConfigEntry>& Get(const std::string& table) const;
    /** \return the entry \p key of \p table or nullptr. */
    const SonicConfigEntry* Find(const std::string& table, const std::string& key) const;
    /** \return one line naming the tables and fields not modelled, per file; "" if none. */
    std::string Unmodelled() const;

  private:
    void AddEntry(const std::string& table, const std::string& key, const nlohmann::json& value,
                  const JsonSchemaReader& reader, const std::string& pointer);

    std::map<std::string, std::vector<SonicConfigEntry>> m_tables;
    std::vector<std::string> m_files;                                //!< in order of loading
    std::map<std::string, std::set<std::string>> m_unmodelledTables; //!< file -> tables
    std::map<std::string, std::set<std::string>> m_unmodelledFields; //!< file -> TABLE.field
};

} // namespace ns3

#endif /* SONIC_CONFIG_TABLES_H */
