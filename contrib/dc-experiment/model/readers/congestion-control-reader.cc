#include "congestion-control-reader.h"

#include "ns3/json-attribute-converter.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/topology-types.h"

#include <algorithm>
#include <set>

namespace ns3
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

/** "cc_hosts": [{"hosts": [host, ...], "cc": {"type": ..., attributes}}, ...]. */
void
CongestionControlReader::ReadHosts(const JsonSchemaReader& reader, const Json* entries,
                                   const std::string& pointer, const ExperimentTopology& topology,
                                   const HostSelection& hostSelection,
                                   const ExperimentComponentReader& components,
                                   NodeComposition& nodes, OrderedJson& effective)
{
    if (!entries)
    {
        return;
    }
    if (nodes.hosts.empty())
    {
        nodes.hosts.assign(topology.hosts.size(), NodeSpec{});
    }
    std::vector<std::string> givenAt(topology.hosts.size()); // each host's pointer
    if (!entries->is_array())
    {
        reader.Fail(pointer, "expected an array of {\"hosts\": [...], \"cc\": {...}}");
    }
    OrderedJson eff = OrderedJson::array();
    for (std::size_t i = 0; i < entries->size(); ++i)
    {
        const Json& e = (*entries)[i];
        const std::string p = JsonSchemaReader::Child(pointer, i);
        reader.CheckKeys(e, p, {"hosts", "cc"});
        const Json* hosts = JsonSchemaReader::Find(e, "hosts");
        const std::string hp = JsonSchemaReader::Child(p, "hosts");
        if (!hosts || !hosts->is_array() || hosts->empty())
        {
            reader.Fail(hp, "expected a non-empty array of host names or indices");
        }
        const auto entry = static_cast<int32_t>(nodes.congestionControls.size());
        OrderedJson names = OrderedJson::array();
        for (std::size_t k = 0; k < hosts->size(); ++k)
        {
            const std::string kp = JsonSchemaReader::Child(hp, k);
            const uint32_t h = hostSelection.SelectHost((*hosts)[k], kp);
            if (nodes.hosts[h].cc >= 0)
            {
                reader.Fail(kp, "host " + topology.hosts[h] +
                                    " already has a congestion control in /cc_hosts, at " +
                                    givenAt[h]);
            }
            nodes.hosts[h].cc = entry;
            givenAt[h] = kp;
            names.push_back(topology.hosts[h]);
        }
        ExperimentComponent cc;
        const std::string cp = JsonSchemaReader::Child(p, "cc");
        const OrderedJson ccEffective =
            components.Read(JsonSchemaReader::Find(e, "cc"), cp, "ns3::RdmaDcqcn",
                            "ns3::RdmaCongestionOps", {}, cc);
        eff.push_back(OrderedJson{{"hosts", names}, {"cc", ccEffective}});
        nodes.congestionControls.push_back({cc, p});
    }
    effective = eff;
}

/**
 * What the congestion-control objects would abort on when a queue pair starts
 * (RdmaCongestionOps::CheckAttributes), found now: each host's algorithm is built
 * with its attributes and checked against the line rate of that host's link. The
 * error names the attribute's pointer and the field that set the line rate.
 */
void
CongestionControlReader::Check(const JsonSchemaReader& reader, const Json& topologyJson,
                               const OrderedJson& topologyEffective, const ExperimentTopology& t,
                               const ExperimentComponent& cc, const NodeComposition& nodes)
{
    const auto nHosts = static_cast<uint32_t>(t.hosts.size());
    std::vector<int64_t> linkOfHost(nHosts, -1);
    for (std::size_t k = 0; k < t.links.size(); ++k)
    {
        for (uint32_t end : {t.links[k].a, t.links[k].b})
        {
            if (end < nHosts && linkOfHost[end] < 0)
            {
                linkOfHost[end] = static_cast<int64_t>(k);
            }
        }
    }
    // Where the line rate of host h's link was set.
    auto rateOrigin = [&](uint32_t h) -> std::string
    {
        if (t.type == "custom")
        {
            const std::string lp = "/topology/links/" + std::to_string(linkOfHost[h]);
            const Json& link = topologyJson.at("links").at(static_cast<std::size_t>(linkOfHost[h]));
            return JsonSchemaReader::Find(link, "rate") ? lp + "/rate"
                                                        : "/topology/link_rate (" + lp + ")";
        }
        if (t.type == TopologyTypes::FILE_TYPE)
        {
            const auto& eff = topologyEffective;
            return "link " + std::to_string(linkOfHost[h] + 1) + " of " +
                   (eff.contains("path") ? eff["path"].get<std::string>() : "the topology file") +
                   " (/topology/path)";
        }
        return JsonSchemaReader::Find(topologyJson, "host_link_rate")
                   ? std::string("/topology/host_link_rate")
                   : "the default /topology/host_link_rate";
    };
    // The component of host h: its own (a "cc_hosts" entry) or "cc".
    auto ccOf = [&](uint32_t h) -> const ExperimentComponent*
    {
        const ExperimentComponent* own = nodes.GetCongestionControl(h);
        return own ? own : &cc;
    };
    std::vector<const ExperimentComponent*> components{&cc};
    for (const NodeCongestionControl& e : nodes.congestionControls)
    {
        components.push_back(&e.cc);
    }
    for (const ExperimentComponent* component : components)
    {
        ObjectFactory factory(component->typeName);
        for (const ExperimentAttribute& a : component->attributes)
        {
            factory.Set(a.name, *a.value);
        }
        Ptr<RdmaCongestionOps> ops = factory.Create<RdmaCongestionOps>();
        std::set<uint64_t> checked;
        for (uint32_t h = 0; h < nHosts; ++h)
        {
            if (linkOfHost[h] < 0 || ccOf(h) != component)
            {
                continue;
            }
            const DataRate rate = t.links[linkOfHost[h]].rate;
            if (!checked.insert(rate.GetBitRate()).second)
            {
                continue;
            }
            std::string attribute;
            std::string reason;
            if (!ops->CheckAttributes(rate, attribute, reason))
            {
                const bool given = std::any_of(
                    component->attributes.begin(), component->attributes.end(),
                    [&attribute](const ExperimentAttribute& a) { return a.name == attribute; });
                reader.Fail(JsonSchemaReader::Child(component->pointer, attribute),
                            reason + " (" +
                                (given
                                     ? std::string("set here")
                                     : "not set in " + component->pointer + ": the default of " +
                                           component->typeName + "::" + attribute + ", or its --" +
                                           component->typeName + "::" + attribute + " flag") +
                                ")" +
                                (reason.find("line rate") == std::string::npos
                                     ? std::string()
                                     : "; host " + t.hosts[h] + "'s link runs at " +
                                           JsonAttributeConverter::FormatDataRate(rate) +
                                           ", set by " + rateOrigin(h)));
            }
        }
        ops->Dispose();
    }
}

} // namespace ns3
