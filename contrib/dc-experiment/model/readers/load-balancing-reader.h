/*
 * Reads "load_balancing": the load balancer of each switch, by role or by name.
 */
#ifndef LOAD_BALANCING_READER_H
#define LOAD_BALANCING_READER_H

#include "experiment-component-reader.h"

#include "ns3/experiment-topology.h"
#include "ns3/json-schema-reader.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * "load_balancing" is an array of entries {"roles": [role, ...], "switches": [name, ...],
 * "balancer": {"type": a ns3::DcbLoadBalancer, attributes}} (at least one of roles /
 * switches; SwitchSelection): each switch the entry selects gets its own balancer of that
 * type and attributes (DcbSwitch attribute LoadBalancer). A switch no entry selects, and
 * every switch when the section is absent, routes by ECMP (the 5-tuple hash).
 */
class LoadBalancingReader
{
  public:
    /** The base TypeId of a "balancer" section. */
    static constexpr const char* BASE_TYPE = "ns3::DcbLoadBalancer";

    /**
     * Read "load_balancing" (\p entries, null when absent: every switch ECMP and
     * \p effective untouched).
     * \param[out] balancers one component per entry
     * \param[out] balancerOfSwitch per switch: its entry in \p balancers, or -1 (ECMP)
     * \param[out] effective the section with every default filled in
     * \throw ExperimentConfigError
     */
    static void Read(const JsonSchemaReader& reader, const nlohmann::json* entries,
                     const std::string& pointer, const ExperimentTopology& topology,
                     const ExperimentComponentReader& components,
                     std::vector<ExperimentComponent>& balancers,
                     std::vector<int32_t>& balancerOfSwitch, nlohmann::ordered_json& effective);
};

} // namespace ns3

#endif /* LOAD_BALANCING_READER_H */
