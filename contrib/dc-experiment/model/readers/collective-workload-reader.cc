#include "collective-workload-reader.h"

#include "collective-driver-reader.h"
#include "experiment-component-reader.h"

#include "ns3/host-selection.h"
#include "ns3/json-attribute-converter.h"

#include <algorithm>

namespace ns3
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

namespace
{

/** The largest model: 1 TiB (far above any model's gradients; keeps byte counts exact). */
constexpr uint64_t MAX_BYTES = uint64_t(1) << 40;
constexpr uint64_t MAX_ITERATIONS = 1000000;

} // namespace

std::vector<ExperimentCollective>
CollectiveWorkloadReader::Read(const JsonSchemaReader& reader, const Json* section,
                               const std::string& pointer, const ExperimentTopology& topology,
                               const NodeCompositionReader::ComponentParser& parse,
                               OrderedJson& effective)
{
    std::vector<ExperimentCollective> out;
    if (!section)
    {
        effective = nullptr;
        return out;
    }
    if (!section->is_array() || section->empty())
    {
        reader.Fail(pointer, "expected a non-empty array of {\"type\", \"hosts\", \"bytes\", "
                             "\"over\", ...} entries");
    }
    effective = OrderedJson::array();
    std::vector<std::string> names;
    for (std::size_t i = 0; i < section->size(); ++i)
    {
        const Json& e = (*section)[i];
        const std::string p = JsonSchemaReader::Child(pointer, i);
        std::vector<std::string> keys = {"name",         "description", "type",  "hosts",
                                         "bytes",        "over",        "start", "iterations",
                                         "compute_time", "maestro"};
        const std::vector<std::string>& driverKeys = CollectiveDriverReader::EntryKeys();
        keys.insert(keys.end(), driverKeys.begin(), driverKeys.end());
        reader.CheckKeys(e, p, keys);
        ExperimentCollective c;
        c.pointer = p;
        c.name = reader.GetString(e, p, "name", "collective" + std::to_string(i), {});
        if (c.name.empty() || c.name.find_first_of(",\"\n\r") != std::string::npos)
        {
            reader.Fail(JsonSchemaReader::Child(p, "name"),
                        "a collective's name is non-empty and holds no comma, quote or line "
                        "break (it is a column of collectives.csv)");
        }
        if (std::find(names.begin(), names.end(), c.name) != names.end())
        {
            reader.Fail(JsonSchemaReader::Child(p, "name"),
                        "another collective is named \"" + c.name + "\" (names are unique)");
        }
        names.push_back(c.name);
        c.type = reader.GetString(e, p, "type", std::nullopt,
                                  {"ring_allreduce", "allgather", "token_ring", "message_stream"});
        const Json* hosts = JsonSchemaReader::Find(e, "hosts");
        if (!hosts)
        {
            reader.Fail(p, "missing required field \"hosts\" (the ring's hosts, in ring "
                           "order: a selection as in \"nodes\")");
        }
        const std::string hp = JsonSchemaReader::Child(p, "hosts");
        c.hosts = HostSelection(reader, topology).Select(*hosts, hp);
        if (c.hosts.size() < 2)
        {
            reader.Fail(hp, "a ring needs at least 2 hosts, got " + std::to_string(c.hosts.size()));
        }
        c.bytes = reader.GetUint(e, p, "bytes", std::nullopt, 1, MAX_BYTES);
        const std::string over =
            reader.GetString(e, p, "over", std::nullopt, {"maestro", "qps", "dfabric"});
        c.overMaestro = over == "maestro";
        // "dfabric": between DFabric racks' NIC pools (DfabricRackReader::Check, "nodes").
        c.overDfabric = over == "dfabric";
        if (c.overDfabric && c.type != "ring_allreduce")
        {
            reader.Fail(
                JsonSchemaReader::Child(p, "type"),
                "over \"dfabric\" runs \"ring_allreduce\" (a RingAllreduce over DfabricRackHops)");
        }
        c.start = reader.GetTime(e, p, "start", "0s", Seconds(0));
        c.iterations =
            static_cast<uint32_t>(reader.GetUint(e, p, "iterations", 1, 1, MAX_ITERATIONS));
        c.computeTime = reader.GetTime(e, p, "compute_time", "0s", Seconds(0));

        OrderedJson eff;
        eff["name"] = c.name;
        if (JsonSchemaReader::Find(e, "description"))
        {
            eff["description"] = reader.GetString(e, p, "description", std::nullopt, {});
        }
        eff["type"] = c.type;
        OrderedJson hostNames = OrderedJson::array();
        for (uint32_t h : c.hosts)
        {
            hostNames.push_back(topology.hosts[h]);
        }
        eff["hosts"] = hostNames;
        eff["bytes"] = c.bytes;
        eff["over"] = over;
        eff["start"] = JsonAttributeConverter::FormatTime(c.start);
        eff["iterations"] = c.iterations;
        eff["compute_time"] = JsonAttributeConverter::FormatTime(c.computeTime);
        CollectiveDriverReader::Read(reader, e, p, c, eff);

        const Json* maestro = JsonSchemaReader::Find(e, "maestro");
        const std::string mp = JsonSchemaReader::Child(p, "maestro");
        if (maestro && !c.overMaestro)
        {
            reader.Fail(mp, "\"maestro\" configures the endpoints of \"over\": \"maestro\"; "
                            "this collective runs over \"" +
                                over + "\"");
        }
        if (c.overMaestro)
        {
            static const Json empty = Json::object();
            const Json& m = maestro ? *maestro : empty;
            reader.RequireObject(m, mp);
            reader.CheckKeys(m, mp, {"endpoint", "qp_manager", "probe"});
            OrderedJson meff;
            c.probe = CollectiveDriverReader::ReadProbe(reader, m, mp);
            meff["endpoint"] = parse(JsonSchemaReader::Find(m, "endpoint"),
                                     JsonSchemaReader::Child(mp, "endpoint"),
                                     "ns3::MaestroEndpoint", "", c.endpoint);
            meff["qp_manager"] = parse(JsonSchemaReader::Find(m, "qp_manager"),
                                       JsonSchemaReader::Child(mp, "qp_manager"),
                                       "ns3::MaestroQpManager", "", c.qpManager);
            meff["probe"] = c.probe;
            for (const ExperimentAttribute& a : c.endpoint.attributes)
            {
                if (a.name == "LoadBalancerType")
                {
                    const std::string type = a.value->SerializeToString(nullptr);
                    TypeId tid;
                    if (!TypeId::LookupByNameFailSafe(type, &tid) ||
                        !tid.IsChildOf(TypeId::LookupByName("ns3::MaestroLoadBalancer")) ||
                        !tid.HasConstructor())
                    {
                        reader.Fail(JsonSchemaReader::Child(JsonSchemaReader::Child(mp, "endpoint"),
                                                            "LoadBalancerType"),
                                    "\"" + type + "\" is not a MaestroLoadBalancer; " +
                                        ExperimentComponentReader::ChoicesText(
                                            type, "ns3::MaestroLoadBalancer"));
                    }
                }
            }
            eff["maestro"] = meff;
        }
        effective.push_back(eff);
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace ns3
