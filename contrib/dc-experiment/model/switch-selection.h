/*
 * The switches an entry of a per-switch section names: by role and by name.
 */
#ifndef SWITCH_SELECTION_H
#define SWITCH_SELECTION_H

#include "ns3/experiment-topology.h"
#include "ns3/json-schema-reader.h"

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Reads the entries of a per-switch section ("buffer_switches", "load_balancing"), the
 * one walk over them (ReadEntries): each entry names switch roles
 * (ExperimentTopology::switchRoles), switches, or both. A role or a switch may be
 * named by one entry only. A switch takes the entry that names it, else the entry
 * that names its role, else none (the section's default).
 */
class SwitchSelection
{
  public:
    /**
     * Reads the object an entry holds under the section's key (\p section, found at
     * \p pointer) and keeps it; \return its effective (fully defaulted) form.
     */
    using EntryReader = std::function<nlohmann::ordered_json(const nlohmann::json& section,
                                                             const std::string& pointer)>;

    /**
     * Walk the entries of a per-switch section (\p entries at \p pointer, null when
     * absent: no entry, \p effective untouched): an array of {"roles": [...],
     * "switches": [...], \p key: {...}}. Each entry's selection is read (ReadEntry) and
     * its \p key object handed to \p readEntry, entry by entry in order.
     * \param keyShape how the array's error shows the \p key object ("{...}")
     * \param keyHint what the error for a missing \p key says it holds
     * \param[out] effective the section's effective form: per entry its selection
     *             (EffectiveEntry), then \p key with what \p readEntry returned
     * \return per switch: the entry that selects it, or -1
     * \throw ExperimentConfigError
     */
    static std::vector<int32_t> ReadEntries(const JsonSchemaReader& reader,
                                            const ExperimentTopology& topology,
                                            const nlohmann::json* entries,
                                            const std::string& pointer, const std::string& key,
                                            const std::string& keyShape, const std::string& keyHint,
                                            const EntryReader& readEntry,
                                            nlohmann::ordered_json& effective);

    SwitchSelection(const JsonSchemaReader& reader, const ExperimentTopology& topology);

    /**
     * Read the "roles" and "switches" of entry \p entry, found at \p pointer.
     * \param[out] roles the roles it names, in order
     * \param[out] switches the switches it names, in order
     * \throw ExperimentConfigError at the list or name at fault
     */
    void ReadEntry(const nlohmann::json& entry, const std::string& pointer, int32_t index,
                   std::vector<std::string>& roles, std::vector<std::string>& switches);

    /** \return per switch: the entry naming it, else its role's, else -1. */
    std::vector<int32_t> GetEntryOfSwitch() const;

    /**
     * \return the effective form of an entry's selection: "roles" and "switches", each
     * only when non-empty (the caller adds the entry's own object after them).
     */
    static nlohmann::ordered_json EffectiveEntry(const std::vector<std::string>& roles,
                                                 const std::vector<std::string>& switches);

  private:
    const JsonSchemaReader& m_reader;
    const ExperimentTopology& m_topology;
    std::vector<std::string> m_roles;                 //!< the topology's roles
    std::string m_roleList;                           //!< what an unknown role's error lists
    std::string m_switchList;                         //!< what an unknown switch's error lists
    std::map<std::string, std::string> m_roleEntry;   //!< role -> pointer that named it
    std::map<std::string, std::string> m_switchEntry; //!< switch -> pointer that named it
    std::vector<int32_t> m_byName;                    //!< per switch: entry naming it, or -1
    std::map<std::string, int32_t> m_byRole;          //!< role -> entry naming it
};

} // namespace ns3

#endif /* SWITCH_SELECTION_H */
