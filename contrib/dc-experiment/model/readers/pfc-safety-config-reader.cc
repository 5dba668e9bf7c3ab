#include "pfc-safety-config-reader.h"

#include "ns3/experiment-config.h"

namespace ns3
{

namespace
{
/**
 * Read one section: "enabled" (default true when given) and the attributes of \p
 * typeName; the effective section goes to effective[\p key] (under "monitors" for
 * the monitor).
 */
bool
ReadSection(const JsonSchemaReader& reader, const nlohmann::json* section,
            const std::string& pointer, const std::string& typeName,
            const PfcSafetyConfigReader::ComponentParser& parse, nlohmann::ordered_json& effective,
            ExperimentComponent& out)
{
    bool enabled = false;
    nlohmann::json attributes = nlohmann::json::object();
    if (section)
    {
        reader.RequireObject(*section, pointer);
        enabled = reader.GetBool(*section, pointer, "enabled", true);
        attributes = *section;
        attributes.erase("enabled");
    }
    // The component reader files its effective section under the pointer's text.
    parse(&attributes, pointer, typeName, out);
    const std::string flat = pointer.substr(1);
    nlohmann::ordered_json eff{{"enabled", enabled}};
    for (const auto& item : effective[flat].items())
    {
        eff[item.key()] = item.value();
    }
    effective.erase(flat);
    if (pointer == "/monitors/deadlock")
    {
        effective["monitors"]["deadlock"] = eff;
    }
    else
    {
        effective[flat] = eff;
    }
    return enabled;
}
} // namespace

void
PfcSafetyConfigReader::Read(const JsonSchemaReader& reader, const nlohmann::json& root,
                            const ComponentParser& parse, nlohmann::ordered_json& effective,
                            ExperimentPfcSafety& safety, ExperimentComponent& deadlock,
                            ExperimentComponent& watchdog)
{
    const nlohmann::json* monitors = JsonSchemaReader::Find(root, "monitors");
    safety.deadlockMonitor =
        ReadSection(reader, monitors ? JsonSchemaReader::Find(*monitors, "deadlock") : nullptr,
                    "/monitors/deadlock", "ns3::PfcDeadlockMonitor", parse, effective, deadlock);
    safety.watchdog = ReadSection(reader, JsonSchemaReader::Find(root, "pfc_watchdog"),
                                  "/pfc_watchdog", "ns3::PfcWatchdog", parse, effective, watchdog);
}

} // namespace ns3
