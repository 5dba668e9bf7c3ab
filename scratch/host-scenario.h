// Shared by the host-* reproductions in scratch/: build a node's intra-host graph from a
// preset named in the JSON file and apply per-resource attribute overrides, with errors that
// name the file and the JSON pointer.
#ifndef HOST_SCENARIO_H
#define HOST_SCENARIO_H

#include "ns3/host-model.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

class HostScenario
{
  public:
    /**
     * Build the preset j["preset"] ("plain" or "dgx-like") and apply the overrides object
     * at \p key ({"resource": {"Attribute": value}}). \return null with \p error set on failure.
     */
    static Ptr<HostModel> Build(const nlohmann::json& j, const std::string& key,
                                const std::string& file, std::string& error);
};

} // namespace ns3

#endif /* HOST_SCENARIO_H */
