/*
 * Which buffer configuration each switch of an experiment gets: the "buffer"
 * section for all, overridden per switch role and per switch by
 * "buffer_switches"; SONiC config_db files named by "config_db".
 */
#ifndef SWITCH_BUFFER_ASSIGNMENT_H
#define SWITCH_BUFFER_ASSIGNMENT_H

#include "ns3/experiment-topology.h"
#include "ns3/json-schema-reader.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

struct ExperimentComponent;

/**
 * \ingroup dc-experiment
 * Reads the buffer assignment of an experiment file.
 *
 * "buffer_switches" is an array of entries
 * {"roles": [role, ...], "switches": [name, ...], "buffer": {buffer section}}
 * (at least one of roles / switches). A switch takes the entry that names it,
 * else the entry that names its role (ExperimentTopology::switchRoles), else
 * "/buffer". An entry's buffer section stands on its own (nothing is inherited
 * from "/buffer" but the default of its "type").
 *
 * In any buffer section, "config_db" names a SONiC config_db JSON file relative
 * to the experiment file, or an array of them merged in order (a buffer file and
 * a QoS-map file, say); it sets the ConfigFile attribute of the type
 * (SonicBufferManager and its subclasses) to the absolute path(s), after the files
 * have been read and checked by SonicConfigLoader, so that their errors come at
 * load time and name both files. "config_db_ports" (optional) lists config_db port
 * names in switch port order (switch port k is the k-th name; sets PortNames);
 * without it the file's ports in the order of EthernetN are switch ports 0, 1, ...,
 * i.e. the switch's neighbours in the order the topology lists its links.
 */
class SwitchBufferAssignment
{
  public:
    /**
     * Parses one buffer section found at a pointer into a component and its
     * effective (fully defaulted) JSON.
     */
    using ComponentParser = std::function<void(
        const nlohmann::json* section, const std::string& pointer, const std::string& defaultType,
        ExperimentComponent& out, nlohmann::ordered_json& effective)>;

    /**
     * \return \p section with "config_db" replaced by the ConfigFile attribute
     * (absolute path); unchanged when it has no "config_db".
     * \param defaultType the TypeId used when the section gives no "type"
     * \param unmodelled if given, gets the loader's line naming the tables and fields
     *        of the files that are not modelled (once per distinct line)
     * \throw ExperimentConfigError
     */
    static nlohmann::json ResolveConfigDb(const JsonSchemaReader& reader,
                                          const nlohmann::json& section, const std::string& pointer,
                                          const std::string& defaultType,
                                          std::vector<std::string>* unmodelled = nullptr);

    /**
     * Read "buffer_switches" (\p entries may be nullptr: none).
     * \param defaultType the type of "/buffer", the default of each entry's "type"
     * \param[out] components one per entry
     * \param[out] componentOfSwitch per switch: its entry, or -1 for "/buffer"
     * \param[out] effective the section with every default filled in
     * \param unmodelled as for ResolveConfigDb
     * \throw ExperimentConfigError
     */
    static void Parse(const JsonSchemaReader& reader, const nlohmann::json* entries,
                      const std::string& pointer, const ExperimentTopology& topology,
                      const std::string& defaultType, const ComponentParser& parseComponent,
                      std::vector<ExperimentComponent>& components,
                      std::vector<int32_t>& componentOfSwitch, nlohmann::ordered_json& effective,
                      std::vector<std::string>* unmodelled = nullptr);
};

} // namespace ns3

#endif /* SWITCH_BUFFER_ASSIGNMENT_H */
