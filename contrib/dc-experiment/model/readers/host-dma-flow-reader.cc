#include "host-dma-flow-reader.h"

#include "ns3/host-dma-flow.h"
#include "ns3/host-model.h"
#include "ns3/host-selection.h"
#include "ns3/json-attribute-converter.h"

namespace ns3
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

std::vector<ExperimentHostDmaFlow>
HostDmaFlowReader::Read(const JsonSchemaReader& reader, const Json* section,
                        const std::string& pointer, const ExperimentTopology& topology,
                        const NodeComposition& nodes,
                        const NodeCompositionReader::ComponentParser& parse, Time stopTime,
                        OrderedJson& effective)
{
    std::vector<ExperimentHostDmaFlow> out;
    if (!section)
    {
        effective = nullptr;
        return out;
    }
    if (!section->is_array() || section->empty())
    {
        reader.Fail(pointer, "expected a non-empty array of {\"hosts\", \"rnic\", \"target\", "
                             "\"start\", \"stop\", \"attributes\"} entries");
    }
    effective = OrderedJson::array();
    for (std::size_t i = 0; i < section->size(); ++i)
    {
        const Json& e = (*section)[i];
        const std::string p = JsonSchemaReader::Child(pointer, i);
        reader.CheckKeys(e, p,
                         {"hosts", "rnic", "target", "start", "stop", "attributes", "description"});
        const Json* hosts = JsonSchemaReader::Find(e, "hosts");
        if (!hosts)
        {
            reader.Fail(p, "missing required field \"hosts\" (a selection as in \"nodes\")");
        }
        const std::string hp = JsonSchemaReader::Child(p, "hosts");
        const std::vector<uint32_t> selected = HostSelection(reader, topology).Select(*hosts, hp);
        ExperimentHostDmaFlow f;
        f.pointer = p;
        f.rnic = reader.GetString(e, p, "rnic", "rnic0", {});
        f.target = reader.GetString(e, p, "target", "mem0", {});
        f.start = reader.GetTime(e, p, "start", "0s", Seconds(0));
        if (f.start >= stopTime)
        {
            reader.Fail(JsonSchemaReader::Child(p, "start"),
                        "the stream starts at or after stop_time (" +
                            JsonAttributeConverter::FormatTime(stopTime) + ")");
        }
        if (JsonSchemaReader::Find(e, "stop"))
        {
            f.stop = reader.GetTime(e, p, "stop", std::nullopt, NanoSeconds(1));
            if (f.stop <= f.start || f.stop > stopTime)
            {
                reader.Fail(JsonSchemaReader::Child(p, "stop"),
                            "expected a time after \"start\" (" +
                                JsonAttributeConverter::FormatTime(f.start) +
                                ") and at most stop_time (" +
                                JsonAttributeConverter::FormatTime(stopTime) + ")");
            }
        }
        OrderedJson eff;
        if (JsonSchemaReader::Find(e, "description"))
        {
            eff["description"] = reader.GetString(e, p, "description", std::nullopt, {});
        }
        OrderedJson names = OrderedJson::array();
        for (uint32_t h : selected)
        {
            names.push_back(topology.hosts[h]);
        }
        eff["hosts"] = names;
        eff["rnic"] = f.rnic;
        eff["target"] = f.target;
        eff["start"] = JsonAttributeConverter::FormatTime(f.start);
        if (!f.stop.IsZero())
        {
            eff["stop"] = JsonAttributeConverter::FormatTime(f.stop);
        }
        eff["attributes"] =
            parse(JsonSchemaReader::Find(e, "attributes"), JsonSchemaReader::Child(p, "attributes"),
                  "ns3::HostDmaFlow", "", f.flow);
        // Each host's model must have the stream's path (the model as "nodes" built it).
        for (uint32_t h : selected)
        {
            const int32_t m = h < nodes.hosts.size() ? nodes.hosts[h].hostModel : -1;
            if (m < 0)
            {
                reader.Fail(hp,
                            "host " + topology.hosts[h] +
                                " has no host model: give it one in \"nodes\" (\"host_model\")");
            }
            const NodeHostModel& model = nodes.hostModels[m];
            Ptr<HostModel> host = NodeCompositionReader::BuildHostModel(model, reader);
            const std::string error = CreateObject<HostDmaFlow>()->Setup(host, f.rnic, f.target);
            host->Dispose();
            if (!error.empty())
            {
                reader.Fail(p, "host " + topology.hosts[h] + " (host model " + model.label +
                                   "): " + error);
            }
            ExperimentHostDmaFlow one = f;
            one.host = h;
            out.push_back(std::move(one));
        }
        effective.push_back(eff);
    }
    return out;
}

} // namespace ns3
