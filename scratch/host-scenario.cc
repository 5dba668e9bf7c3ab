#include "host-scenario.h"

#include "ns3/host-preset-helper.h"
#include "ns3/string.h"

namespace ns3
{

Ptr<HostModel>
HostScenario::Build(const nlohmann::json& j, const std::string& key, const std::string& file,
                    std::string& error)
{
    const std::string preset = j.value("preset", std::string("plain"));
    Ptr<HostModel> host;
    if (preset == "plain")
    {
        host = HostPresetHelper().CreatePlainServer();
    }
    else if (preset == "dgx-like")
    {
        host = HostPresetHelper().CreateDgxLike();
    }
    else
    {
        error = file + ": /preset: '" + preset + "' is not one of plain, dgx-like";
        return nullptr;
    }
    if (!j.contains(key))
    {
        return host;
    }
    for (const auto& [resource, attributes] : j.at(key).items())
    {
        Ptr<HostResource> r = host->GetResource(resource);
        if (!r)
        {
            error = file + ": /" + key + "/" + resource + ": no such resource in the " + preset +
                    " preset";
            return nullptr;
        }
        for (const auto& [name, value] : attributes.items())
        {
            const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
            if (!r->SetAttributeFailSafe(name, StringValue(text)))
            {
                error = file + ": /" + key + "/" + resource + "/" + name + ": value '" + text +
                        "' is not accepted by " + r->GetInstanceTypeId().GetName();
                return nullptr;
            }
        }
    }
    return host;
}

} // namespace ns3
