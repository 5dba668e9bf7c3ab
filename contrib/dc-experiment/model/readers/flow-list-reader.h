/*
 * Reads the flows an experiment file lists: "flows", "flows_file".
 */
#ifndef FLOW_LIST_READER_H
#define FLOW_LIST_READER_H

#include "ns3/experiment-config.h"
#include "ns3/flow-list-workload.h"
#include "ns3/host-selection.h"
#include "ns3/json-schema-reader.h"
#include "ns3/nstime.h"

#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The flows an experiment file gives in full: the "flows" array ({"src", "dst",
 * "bytes", "start", "priority", "verb", "message_bytes", "outstanding"}) and a
 * "flows_file" trace ({"path", "format": "csv" or "hpcc", "time_origin"}, FlowTrace),
 * each replayed by a FlowListWorkload. Also the fields every flow and flow set shares
 * (ReadCommon).
 */
class FlowListReader
{
  public:
    /** \return the verbs a flow may name: "write", "send", "read". */
    static const std::set<std::string>& GetVerbNames();

    /**
     * Read a flow's or a flow set's common fields: bytes, start (before \p stopTime),
     * priority, verb and the message-stream fields; the effective values go to
     * \p effective. \return the flow (src and dst unset, origin \p pointer)
     */
    static ExperimentFlow ReadCommon(const JsonSchemaReader& reader, const nlohmann::json& object,
                                     const std::string& pointer, Time stopTime,
                                     nlohmann::ordered_json& effective);

    /** Read "flows" (null when absent: no flows); \p effective receives the array. */
    static Ptr<FlowListWorkload> ReadFlows(const JsonSchemaReader& reader,
                                           const nlohmann::json* flows, const std::string& pointer,
                                           const HostSelection& hosts,
                                           const ExperimentTopology& topology, Time stopTime,
                                           nlohmann::ordered_json& effective);

    /**
     * Read "flows_file" (null when absent: no flows, \p effective null).
     * \param[out] warnings gets one line for what the file's reader ignored and one for
     * the flows that do not start
     * \param[out] notStarted gets, with "late_flows": "not_started", the flows that start
     * at or after \p stopTime (left out of the workload)
     */
    static Ptr<FlowListWorkload> ReadFlowsFile(
        const JsonSchemaReader& reader, const nlohmann::json* file, const std::string& pointer,
        const ExperimentTopology& topology, Time stopTime, nlohmann::ordered_json& effective,
        std::vector<std::string>& warnings, std::vector<ExperimentFlow>& notStarted);
};

} // namespace ns3

#endif /* FLOW_LIST_READER_H */
