/*
 * ECN thresholds per link rate: the "by_link_rate" table of an experiment's "ecn" section.
 */
#ifndef ECN_LINK_RATE_TABLE_H
#define ECN_LINK_RATE_TABLE_H

#include "ns3/command-line-attributes.h"
#include "ns3/data-rate.h"
#include "ns3/experiment-component.h"
#include "ns3/experiment-topology.h"
#include "ns3/json-schema-reader.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The marker attributes of the switch egress ports whose link runs at one rate.
 */
struct EcnLinkRateEntry
{
    DataRate rate;
    std::vector<ExperimentAttribute> attributes; //!< Kmin, Kmax, Pmax as set for this rate
    std::string pointer;                         //!< JSON pointer of the entry
};

/**
 * \ingroup dc-experiment
 * Reads "/ecn/by_link_rate": an object whose keys are link rates ("400Gbps") and whose
 * values give the RED thresholds ("Kmin", "Kmax", "Pmax", each optional) of every switch
 * egress port whose link runs at that rate. A port whose rate is not in the table keeps the
 * section's own thresholds; an attribute an entry leaves out is the section's. This is how
 * the HPCC simulator configures ECN (KMIN_MAP / KMAX_MAP / PMAX_MAP are keyed by link rate),
 * so that a 400G fabric port is not marked at the queue depth that suits a 100G host port.
 *
 * Errors (ExperimentConfigError, located by JSON pointer): a key that is not a data rate, or
 * names the same rate as another key; a rate no switch port of the topology runs at (the
 * error lists the rates there are); an unknown attribute; a value the attribute's checker
 * refuses; a Kmin or Kmax not in bytes; Kmax below Kmin once the section's values are filled
 * in; a table when marking is off or the marker type has no such attributes.
 *
 * An attribute the command line sets (--ns3::RedEcnMarker::Kmin=...) wins over the table as
 * over the section, with a warning.
 */
class EcnLinkRateTable
{
  public:
    /** The key of the table in the "ecn" section. */
    static constexpr const char* KEY = "by_link_rate";

    /**
     * \param table the "by_link_rate" value (nullptr: absent)
     * \param pointer its JSON pointer ("/ecn/by_link_rate")
     * \param ecn the parsed "ecn" section (its type and the attributes it sets)
     * \param[out] effective gets, per rate given, the thresholds in force at that rate
     * \param[out] warnings gets one line per table value the command line overrides
     * \return one entry per key, in rate order
     * \throw ExperimentConfigError
     */
    static std::vector<EcnLinkRateEntry> Parse(
        const JsonSchemaReader& reader, const nlohmann::json* table, const std::string& pointer,
        const ExperimentComponent& ecn, const ExperimentTopology& topology,
        const CommandLineAttributes& commandLine, nlohmann::ordered_json& effective,
        std::vector<std::string>& warnings);
};

} // namespace ns3

#endif /* ECN_LINK_RATE_TABLE_H */
