/*
 * Reads "load_balancing": the load balancer of each switch, by role or by name, and the
 * entropy of each host's NIC.
 */
#ifndef LOAD_BALANCING_READER_H
#define LOAD_BALANCING_READER_H

#include "experiment-component-reader.h"

#include "ns3/experiment-topology.h"
#include "ns3/host-selection.h"
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
 *
 * An entry {"hosts": a HostSelection, "entropy": {"type": a ns3::RdmaPathEntropy,
 * attributes}} gives each NIC of the hosts it selects its own object of that type (RdmaNic
 * attribute PathEntropy): the NIC then chooses each data packet's UDP source port, and
 * echoes the ports of the packets it receives in its ACKs. A host no such entry selects
 * keeps each QP's fixed port. A host selected by two entries is an error.
 */
class LoadBalancingReader
{
  public:
    /** The base TypeId of a "balancer" section. */
    static constexpr const char* BASE_TYPE = "ns3::DcbLoadBalancer";
    /** The base TypeId of an "entropy" section. */
    static constexpr const char* ENTROPY_TYPE = "ns3::RdmaPathEntropy";

    /**
     * Read "load_balancing" (\p entries, null when absent: every switch ECMP and
     * \p effective untouched).
     * \param[out] balancers one component per entry
     * \param[out] balancerOfSwitch per switch: its entry in \p balancers, or -1 (ECMP)
     * \param[out] entropies one component per "entropy" entry
     * \param[out] entropyOfHost per host: its entry in \p entropies, or -1 (fixed port)
     * \param[out] effective the section with every default filled in
     * \throw ExperimentConfigError
     */
    static void Read(const JsonSchemaReader& reader, const nlohmann::json* entries,
                     const std::string& pointer, const ExperimentTopology& topology,
                     const HostSelection& hosts, const ExperimentComponentReader& components,
                     std::vector<ExperimentComponent>& balancers,
                     std::vector<int32_t>& balancerOfSwitch,
                     std::vector<ExperimentComponent>& entropies,
                     std::vector<int32_t>& entropyOfHost, nlohmann::ordered_json& effective);

  private:
    /** \return the component of the required section \p key of type \p base at \p p. */
    static ExperimentComponent ReadSection(const JsonSchemaReader& reader,
                                           const nlohmann::json& entry, const std::string& p,
                                           const char* key, const char* base,
                                           const ExperimentComponentReader& components,
                                           nlohmann::ordered_json& effective);
};

} // namespace ns3

#endif /* LOAD_BALANCING_READER_H */
