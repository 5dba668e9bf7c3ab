/*
 * The experiment file's PFC safety settings: the deadlock monitor
 * ("monitors": {"deadlock": ...}) and the PFC watchdog ("pfc_watchdog").
 */
#ifndef PFC_SAFETY_CONFIG_READER_H
#define PFC_SAFETY_CONFIG_READER_H

#include "ns3/json-schema-reader.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

struct ExperimentComponent;

/**
 * \ingroup dc-experiment
 * What the experiment asks of PFC safety: each part is off unless its section is
 * present (and its "enabled" is not false); the attributes are checked against
 * the TypeId.
 */
struct ExperimentPfcSafety
{
    bool deadlockMonitor{false}; //!< "monitors": {"deadlock": {...}}
    bool watchdog{false};        //!< "pfc_watchdog": {...}
};

/**
 * \ingroup dc-experiment
 * Reads "monitors"/"deadlock" (attributes of ns3::PfcDeadlockMonitor) and
 * "pfc_watchdog" (attributes of ns3::PfcWatchdog), each with an optional
 * "enabled" (default true when the section is given). Records both in the
 * effective configuration ("enabled": false and the defaults when absent).
 */
class PfcSafetyConfigReader
{
  public:
    /**
     * Checks the attributes of \p section (nullptr: none) against \p typeName,
     * appends them to the component and writes the effective section (the
     * parser's component reader).
     */
    using ComponentParser =
        std::function<void(const nlohmann::json* section, const std::string& pointer,
                           const std::string& typeName, ExperimentComponent& out)>;

    /**
     * Read both sections of \p root into \p safety, \p deadlock and \p watchdog.
     * \param effective the effective configuration: gets "pfc_watchdog" and
     *        "monitors"/"deadlock"
     * \throw ExperimentConfigError
     */
    static void Read(const JsonSchemaReader& reader, const nlohmann::json& root,
                     const ComponentParser& parse, nlohmann::ordered_json& effective,
                     ExperimentPfcSafety& safety, ExperimentComponent& deadlock,
                     ExperimentComponent& watchdog);
};

} // namespace ns3

#endif /* PFC_SAFETY_CONFIG_READER_H */
