/*
 * Resolves a host given by name or index in an experiment file.
 */
#ifndef HOST_REFERENCE_H
#define HOST_REFERENCE_H

#include "experiment-topology.h"
#include "json-schema-reader.h"

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * A host named in a flow, a flow set or "cc_hosts": its name ("h3") or its index
 * into the topology's hosts. A switch's name, an unknown name or an index out of
 * range is an error naming the pointer and the hosts that exist.
 */
class HostReference
{
  public:
    HostReference(const JsonSchemaReader& reader, const ExperimentTopology& topology);

    /** \return the index of the host \p value names. \throw ExperimentConfigError at \p pointer */
    uint32_t Resolve(const nlohmann::json& value, const std::string& pointer) const;

  private:
    const JsonSchemaReader& m_reader;
    const ExperimentTopology& m_topology;
    std::map<std::string, uint32_t> m_hostIndex;
    std::set<std::string> m_switchNames;
};

} // namespace ns3

#endif /* HOST_REFERENCE_H */
