/*
 * Reads the "monitors"/"hostping" section of an experiment file.
 */
#ifndef HOSTPING_MONITOR_READER_H
#define HOSTPING_MONITOR_READER_H

#include "experiment-hostping.h"
#include "node-composition.h"

#include "ns3/experiment-component.h"
#include "ns3/experiment-topology.h"
#include "ns3/json-schema-reader.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * "hostping": {"enabled": bool (default true when the section is given), "hosts": a
 * selection of "nodes"' forms (default: every host that "nodes" gives a host model),
 * and the attributes of ns3::HostpingMonitor (StatusPeriod, MetricsPeriod,
 * IdleThroughput, PauseRatio)}. Read after "nodes", whose host models give the default.
 */
class HostpingMonitorReader
{
  public:
    /** Reads a component section (ExperimentComponentReader::Read); returns its effective JSON. */
    using ComponentParser = std::function<nlohmann::ordered_json(
        const nlohmann::json*, const std::string&, const std::string&, ExperimentComponent&)>;

    /**
     * Read "hostping" of \p monitors (null when "monitors" is absent).
     * \param effective receives the section with every default filled in ("enabled":
     *        false, "hosts": null and the attributes' defaults when absent)
     * \throw ExperimentConfigError
     */
    static ExperimentHostping Read(const JsonSchemaReader& reader, const nlohmann::json* monitors,
                                   const ExperimentTopology& topology, const NodeComposition& nodes,
                                   const ComponentParser& parse, nlohmann::ordered_json& effective);
};

} // namespace ns3

#endif /* HOSTPING_MONITOR_READER_H */
