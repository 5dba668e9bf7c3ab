#include "load-balancing-reader.h"

#include "ns3/switch-selection.h"

namespace ns3
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

void
LoadBalancingReader::Read(const JsonSchemaReader& r, const Json* entries,
                          const std::string& pointer, const ExperimentTopology& topo,
                          const ExperimentComponentReader& components,
                          std::vector<ExperimentComponent>& balancers,
                          std::vector<int32_t>& balancerOfSwitch, OrderedJson& effective)
{
    balancerOfSwitch.assign(topo.switches.size(), -1);
    balancers.clear();
    if (!entries)
    {
        return;
    }
    if (!entries->is_array())
    {
        r.Fail(pointer, "expected an array of {\"roles\": [...], \"switches\": [...], "
                        "\"balancer\": {\"type\": ...}}, got " +
                            std::string(entries->type_name()));
    }
    SwitchSelection selection(r, topo);
    OrderedJson eff = OrderedJson::array();
    for (std::size_t i = 0; i < entries->size(); ++i)
    {
        const Json& e = (*entries)[i];
        const std::string p = JsonSchemaReader::Child(pointer, i);
        r.CheckKeys(e, p, {"roles", "switches", "balancer"});
        std::vector<std::string> roles;
        std::vector<std::string> switches;
        selection.ReadEntry(e, p, static_cast<int32_t>(i), roles, switches);
        const std::string bp = JsonSchemaReader::Child(p, "balancer");
        const Json* section = JsonSchemaReader::Find(e, "balancer");
        if (!section)
        {
            r.Fail(bp, std::string("missing required field \"balancer\" ({\"type\": a ") +
                           BASE_TYPE + ", attributes}; " +
                           ExperimentComponentReader::ChoicesText("", BASE_TYPE) + ")");
        }
        r.RequireObject(*section, bp);
        if (!JsonSchemaReader::Find(*section, "type"))
        {
            r.Fail(JsonSchemaReader::Child(bp, "type"),
                   "missing required field \"type\"; " +
                       ExperimentComponentReader::ChoicesText("", BASE_TYPE));
        }
        ExperimentComponent balancer;
        OrderedJson effBalancer = components.Read(section, bp, "", BASE_TYPE, {}, balancer);
        balancers.push_back(balancer);
        OrderedJson effEntry = SwitchSelection::EffectiveEntry(roles, switches);
        effEntry["balancer"] = effBalancer;
        eff.push_back(effEntry);
    }
    balancerOfSwitch = selection.GetEntryOfSwitch();
    effective = eff;
}

} // namespace ns3
