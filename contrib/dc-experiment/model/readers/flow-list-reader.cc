#include "flow-list-reader.h"

#include "ns3/flow-trace.h"
#include "ns3/json-attribute-converter.h"

#include <fstream>
#include <optional>

namespace ns3
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

const std::set<std::string>&
FlowListReader::GetVerbNames()
{
    static const std::set<std::string> verbs = {"write", "send", "read"};
    return verbs;
}

ExperimentFlow
FlowListReader::ReadCommon(const JsonSchemaReader& reader, const Json& object,
                           const std::string& pointer, Time stopTime, OrderedJson& effective)
{
    ExperimentFlow f{};
    const bool stream = JsonSchemaReader::Find(object, "message_bytes") != nullptr;
    f.bytes = reader.GetUint(object, pointer, "bytes", std::nullopt, 1,
                             stream ? ExperimentConfig::MAX_STREAM_BYTES
                                    : ExperimentConfig::MAX_FLOW_BYTES);
    f.start = reader.GetTime(object, pointer, "start", "0us", Time(0));
    if (f.start >= stopTime)
    {
        reader.Fail(JsonSchemaReader::Child(pointer, "start"),
                    "flow starts at " + JsonAttributeConverter::FormatTime(f.start) +
                        ", not before stop_time " + JsonAttributeConverter::FormatTime(stopTime));
    }
    f.priority = static_cast<uint8_t>(reader.GetUint(object, pointer, "priority", 3, 0, 7));
    const std::string verb = reader.GetString(object, pointer, "verb", "write", GetVerbNames());
    ParseRdmaVerb(verb, f.verb);
    effective["bytes"] = f.bytes;
    effective["start"] = JsonAttributeConverter::FormatTime(f.start);
    effective["priority"] = f.priority;
    effective["verb"] = verb;
    if (stream)
    {
        f.messageBytes = reader.GetUint(object, pointer, "message_bytes", std::nullopt, 1,
                                        ExperimentConfig::MAX_FLOW_BYTES);
        f.outstanding = static_cast<uint32_t>(reader.GetUint(object, pointer, "outstanding", 1, 1,
                                                             ExperimentConfig::MAX_OUTSTANDING));
        std::string field;
        const std::string why =
            ExperimentConfig::CheckStream(f.bytes, f.messageBytes, f.outstanding, field);
        if (!why.empty())
        {
            reader.Fail(JsonSchemaReader::Child(pointer, field), why);
        }
        effective["message_bytes"] = f.messageBytes;
        effective["outstanding"] = f.outstanding;
    }
    else if (JsonSchemaReader::Find(object, "outstanding"))
    {
        reader.Fail(JsonSchemaReader::Child(pointer, "outstanding"),
                    "\"outstanding\" needs \"message_bytes\" (it bounds the messages of a "
                    "message stream in flight)");
    }
    f.origin = pointer;
    return f;
}

Ptr<FlowListWorkload>
FlowListReader::ReadFlows(const JsonSchemaReader& reader, const Json* flows,
                          const std::string& pointer, const HostSelection& hosts,
                          const ExperimentTopology& topology, Time stopTime, OrderedJson& effective)
{
    std::vector<ExperimentFlow> list;
    OrderedJson eff = OrderedJson::array();
    if (flows)
    {
        if (!flows->is_array())
        {
            reader.Fail(pointer,
                        "expected an array of flows, got " + std::string(flows->type_name()));
        }
        for (std::size_t i = 0; i < flows->size(); ++i)
        {
            const Json& f = (*flows)[i];
            const std::string p = JsonSchemaReader::Child(pointer, i);
            reader.CheckKeys(f, p,
                             {"src", "dst", "bytes", "start", "priority", "verb", "message_bytes",
                              "outstanding"});
            OrderedJson e;
            ExperimentFlow flow{};
            for (const char* end : {"src", "dst"})
            {
                const Json* v = JsonSchemaReader::Find(f, end);
                if (!v)
                {
                    reader.Fail(JsonSchemaReader::Child(p, end),
                                std::string("missing required field \"") + end +
                                    "\" (a host name or index)");
                }
                const uint32_t h = hosts.SelectHost(*v, JsonSchemaReader::Child(p, end));
                (std::string(end) == "src" ? flow.src : flow.dst) = h;
                e[end] = topology.hosts[h];
            }
            const ExperimentFlow common = ReadCommon(reader, f, p, stopTime, e);
            flow.bytes = common.bytes;
            flow.start = common.start;
            flow.priority = common.priority;
            flow.verb = common.verb;
            flow.messageBytes = common.messageBytes;
            flow.outstanding = common.outstanding;
            flow.origin = p;
            if (flow.src == flow.dst)
            {
                reader.Fail(JsonSchemaReader::Child(p, "dst"),
                            "src and dst are the same host (\"" + topology.hosts[flow.src] + "\")");
            }
            list.push_back(flow);
            eff.push_back(e);
        }
    }
    effective = eff;
    Ptr<FlowListWorkload> workload = CreateObject<FlowListWorkload>();
    workload->SetFlows(std::move(list));
    return workload;
}

Ptr<FlowListWorkload>
FlowListReader::ReadFlowsFile(const JsonSchemaReader& reader, const Json* file,
                              const std::string& pointer, const ExperimentTopology& topology,
                              Time stopTime, OrderedJson& effective,
                              std::vector<std::string>& warnings,
                              std::vector<ExperimentFlow>& notStarted)
{
    Ptr<FlowListWorkload> workload = CreateObject<FlowListWorkload>();
    if (!file)
    {
        effective = nullptr;
        return workload;
    }
    reader.CheckKeys(*file, pointer, {"path", "format", "time_origin", "late_flows"});
    const std::string path =
        reader.ResolvePath(reader.GetString(*file, pointer, "path", std::nullopt, {}));
    const std::string format = reader.GetString(*file, pointer, "format", "csv", {"csv", "hpcc"});
    const Time origin = reader.GetTime(*file, pointer, "time_origin", "0ns", Time(0));
    // A flow starting at or after stop_time: an error, or (as the HPCC simulator runs such a
    // file) a flow that does not start, reported in summary.json and on stderr.
    const std::string late =
        reader.GetString(*file, pointer, "late_flows", "error", {"error", "not_started"});
    std::ifstream probe(path, std::ios::binary);
    if (!probe)
    {
        reader.Fail(JsonSchemaReader::Child(pointer, "path"),
                    "cannot open the flows file \"" + path + "\"");
    }
    const std::string text = FlowTrace::ReadWholeFile(path, "flows file");
    const ExperimentTopology& topo = topology;
    const auto nHosts = static_cast<uint32_t>(topo.hosts.size());
    std::vector<ExperimentFlow> flows;
    if (format == "csv")
    {
        flows = FlowTrace::ReadCsv(text, path, nHosts);
        for (auto& f : flows)
        {
            if (f.start < origin)
            {
                throw ExperimentConfigError(f.origin, "",
                                            "the flow starts before /flows_file/time_origin");
            }
            f.start -= origin;
        }
    }
    else
    {
        // Without an HPCC topology, HPCC node id i is host i.
        std::vector<int64_t> hostOfNode = topo.hpccHostOfNode;
        if (hostOfNode.empty())
        {
            for (uint32_t h = 0; h < nHosts; ++h)
            {
                hostOfNode.push_back(h);
            }
        }
        flows = FlowTrace::ReadHpcc(text, path, hostOfNode, origin, warnings);
    }
    std::vector<ExperimentFlow> started;
    for (ExperimentFlow& f : flows)
    {
        if (f.start < stopTime)
        {
            started.push_back(std::move(f));
        }
        else if (late == "not_started")
        {
            notStarted.push_back(std::move(f));
        }
        else
        {
            throw ExperimentConfigError(
                f.origin, "",
                "the flow starts at " + JsonAttributeConverter::FormatTime(f.start) +
                    " (after subtracting time_origin), not before stop_time " +
                    JsonAttributeConverter::FormatTime(stopTime) + " of " + reader.GetFile() +
                    " (\"late_flows\": \"not_started\" runs the others)");
        }
    }
    flows = std::move(started);
    if (!notStarted.empty())
    {
        warnings.push_back(std::to_string(notStarted.size()) + " of the " +
                           std::to_string(notStarted.size() + flows.size()) + " flows of " + path +
                           " (the first on " + notStarted.front().origin +
                           (notStarted.size() == 1 ? ") starts" : ") start") +
                           " at or after stop_time " +
                           JsonAttributeConverter::FormatTime(stopTime) +
                           " and are not started (summary.json: not_started)");
    }
    OrderedJson eff;
    eff["path"] = path;
    eff["format"] = format;
    eff["time_origin"] = JsonAttributeConverter::FormatTime(origin);
    eff["late_flows"] = late;
    effective = eff;
    workload->SetFlows(std::move(flows));
    return workload;
}

} // namespace ns3
