/*
 * The switches an entry of a per-switch section names: by role and by name.
 */
#ifndef SWITCH_SELECTION_H
#define SWITCH_SELECTION_H

#include "ns3/experiment-topology.h"
#include "ns3/json-schema-reader.h"

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Reads the "roles" and "switches" of the entries of a per-switch section
 * ("buffer_switches", "load_balancing"): each entry names switch roles
 * (ExperimentTopology::switchRoles), switches, or both. A role or a switch may be
 * named by one entry only. A switch takes the entry that names it, else the entry
 * that names its role, else none (the section's default).
 */
class SwitchSelection
{
  public:
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
