// Shared by the small scenario programs in scratch/ that read a free-form JSON file
// (maestro-*): load it with line/column errors, apply its "attributes" object as
// validated ns-3 attribute defaults, and read data rates — every error names the file
// and the JSON pointer, and nothing aborts.
#ifndef SCENARIO_JSON_H
#define SCENARIO_JSON_H

#include "ns3/data-rate.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

class ScenarioJson
{
  public:
    /** Load \p file; false with "file:line:col: why" in \p error. */
    static bool Load(const std::string& file, nlohmann::json& json, std::string& error);
    /**
     * Apply {"attributes": {"ns3::Type::Attr": value, ...}} as attribute defaults,
     * checking each value against the attribute first.
     */
    static bool ApplyAttributes(const nlohmann::json& json, const std::string& file,
                                std::string& error);
    /** Read the data-rate string at \p key (or \p fallback when absent). */
    static bool ReadDataRate(const nlohmann::json& json, const std::string& key,
                             const std::string& fallback, const std::string& file, DataRate& rate,
                             std::string& error);
};

} // namespace ns3

#endif /* SCENARIO_JSON_H */
