/*
 * Reads the "flow_sets" section of an experiment file.
 */
#ifndef FLOW_SET_READER_H
#define FLOW_SET_READER_H

#include "ns3/flow-set-workload.h"
#include "ns3/host-selection.h"
#include "ns3/json-schema-reader.h"
#include "ns3/nstime.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * "flow_sets": an array of {"type": "incast", "senders": [hosts] or "all_but_dst",
 * "dst", flow fields} and {"type": "permutation_background", flow fields}, made by a
 * FlowSetWorkload.
 */
class FlowSetReader
{
  public:
    /**
     * Read \p sets (null when absent: no sets); \p effective receives the array.
     * \throw ExperimentConfigError
     */
    static Ptr<FlowSetWorkload> Read(const JsonSchemaReader& reader, const nlohmann::json* sets,
                                     const std::string& pointer, const HostSelection& hosts,
                                     const ExperimentTopology& topology, Time stopTime,
                                     nlohmann::ordered_json& effective);
};

} // namespace ns3

#endif /* FLOW_SET_READER_H */
