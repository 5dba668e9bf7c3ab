/*
 * Refuses flows and collective hops between hosts whose NIC transports cannot
 * talk to each other ("nodes" gives hosts NIC profiles of their own).
 */
#ifndef TRANSPORT_COMPATIBILITY_H
#define TRANSPORT_COMPATIBILITY_H

#include "ns3/json-schema-reader.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class ExperimentConfig;

/**
 * \ingroup dc-experiment
 * Both QPs of a flow (and of each hop of a collective) take their own host's transport:
 * its NIC profile ("nodes"/"nic_profile"), or the experiment's sections. Two transports
 * interoperate only with the same wire format: the SRNIC header extensions
 * (`qp/SrnicHeaderExtensions`, SRNIC NSDI'23 4.4.2) add headers that a NIC without them
 * reads as payload, so data lands at wrong addresses. Check refuses, at load, the first
 * flow or collective hop between hosts that differ, naming both hosts and their profiles.
 */
class TransportCompatibility
{
  public:
    /**
     * Check every flow and collective hop of \p config.
     * \throw ExperimentConfigError (through \p reader) at the flow's origin or the
     *        collective's pointer
     */
    static void Check(const JsonSchemaReader& reader, const ExperimentConfig& config);

  private:
    /** One host's wire format and where it came from. */
    struct HostTransport
    {
        bool srnicExtensions{false};
        std::string source; //!< "nic_profile \"srnic\"" or "the experiment's /qp"
    };

    static std::vector<HostTransport> PerHost(const ExperimentConfig& config);
    /** Fail at \p pointer (\p what: "flow 3", ...) if hosts \p a and \p b differ. */
    static void CheckPair(const JsonSchemaReader& reader, const ExperimentConfig& config,
                          const std::vector<HostTransport>& hosts, uint32_t a, uint32_t b,
                          const std::string& pointer, const std::string& what);
};

} // namespace ns3

#endif /* TRANSPORT_COMPATIBILITY_H */
