#include "flow-set-reader.h"

#include "flow-list-reader.h"

namespace ns3
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

Ptr<FlowSetWorkload>
FlowSetReader::Read(const JsonSchemaReader& reader, const Json* sets, const std::string& pointer,
                    const HostSelection& hosts, const ExperimentTopology& topology, Time stopTime,
                    OrderedJson& effective)
{
    Ptr<FlowSetWorkload> workload = CreateObject<FlowSetWorkload>();
    OrderedJson eff = OrderedJson::array();
    const auto nHosts = static_cast<uint32_t>(topology.hosts.size());
    if (sets)
    {
        if (!sets->is_array())
        {
            reader.Fail(pointer,
                        "expected an array of flow sets, got " + std::string(sets->type_name()));
        }
        for (std::size_t i = 0; i < sets->size(); ++i)
        {
            const Json& s = (*sets)[i];
            const std::string p = JsonSchemaReader::Child(pointer, i);
            reader.RequireObject(s, p);
            const std::string type =
                reader.GetString(s, p, "type", std::nullopt, {"incast", "permutation_background"});
            OrderedJson e;
            e["type"] = type;
            if (type == "incast")
            {
                reader.CheckKeys(s, p,
                                 {"type", "senders", "dst", "bytes", "start", "priority", "verb",
                                  "message_bytes", "outstanding"});
                const Json* dstValue = JsonSchemaReader::Find(s, "dst");
                if (!dstValue)
                {
                    reader.Fail(JsonSchemaReader::Child(p, "dst"),
                                "missing required field \"dst\" (a host name or index)");
                }
                const uint32_t dst = hosts.SelectHost(*dstValue, JsonSchemaReader::Child(p, "dst"));
                std::vector<uint32_t> senders;
                const Json* sv = JsonSchemaReader::Find(s, "senders");
                if (!sv || (sv->is_string() && sv->get<std::string>() == "all_but_dst"))
                {
                    for (uint32_t h = 0; h < nHosts; ++h)
                    {
                        if (h != dst)
                        {
                            senders.push_back(h);
                        }
                    }
                    e["senders"] = "all_but_dst";
                }
                else if (sv->is_array() && !sv->empty())
                {
                    OrderedJson names = OrderedJson::array();
                    for (std::size_t j = 0; j < sv->size(); ++j)
                    {
                        const uint32_t h = hosts.SelectHost(
                            (*sv)[j],
                            JsonSchemaReader::Child(JsonSchemaReader::Child(p, "senders"), j));
                        if (h == dst)
                        {
                            reader.Fail(
                                JsonSchemaReader::Child(JsonSchemaReader::Child(p, "senders"), j),
                                "sender \"" + topology.hosts[h] + "\" is the incast's dst");
                        }
                        senders.push_back(h);
                        names.push_back(topology.hosts[h]);
                    }
                    e["senders"] = names;
                }
                else
                {
                    reader.Fail(JsonSchemaReader::Child(p, "senders"),
                                "expected a non-empty array of hosts or \"all_but_dst\", got " +
                                    sv->dump());
                }
                e["dst"] = topology.hosts[dst];
                const ExperimentFlow common = FlowListReader::ReadCommon(reader, s, p, stopTime, e);
                workload->AddIncast(common, std::move(senders), dst);
            }
            else
            {
                reader.CheckKeys(
                    s, p,
                    {"type", "bytes", "start", "priority", "verb", "message_bytes", "outstanding"});
                if (nHosts < 2)
                {
                    reader.Fail(p, "a permutation needs at least two hosts");
                }
                const ExperimentFlow common = FlowListReader::ReadCommon(reader, s, p, stopTime, e);
                workload->AddPermutation(common, i);
            }
            eff.push_back(e);
        }
    }
    effective = eff;
    return workload;
}

} // namespace ns3
