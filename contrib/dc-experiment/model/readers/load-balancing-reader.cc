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
    balancers.clear();
    balancerOfSwitch = SwitchSelection::ReadEntries(
        r, topo, entries, pointer, "balancer", "{\"type\": ...}",
        std::string("{\"type\": a ") + BASE_TYPE + ", attributes}; " +
            ExperimentComponentReader::ChoicesText("", BASE_TYPE),
        [&](const Json& section, const std::string& bp)
        {
            if (!JsonSchemaReader::Find(section, "type"))
            {
                r.Fail(JsonSchemaReader::Child(bp, "type"),
                       "missing required field \"type\"; " +
                           ExperimentComponentReader::ChoicesText("", BASE_TYPE));
            }
            ExperimentComponent balancer;
            OrderedJson eff = components.Read(&section, bp, "", BASE_TYPE, {}, balancer);
            balancers.push_back(balancer);
            return eff;
        },
        effective);
}

} // namespace ns3
