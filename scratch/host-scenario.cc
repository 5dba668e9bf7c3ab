#include "host-scenario.h"

#include "ns3/host-preset-helper.h"

namespace ns3
{

Ptr<HostModel>
HostScenario::Build(const nlohmann::json& j, const std::string& key, const std::string& file,
                    std::string& error)
{
    const std::string preset = j.value("preset", std::string("plain"));
    Ptr<HostModel> host = HostPresetHelper().Create(preset, &error);
    if (!host)
    {
        error = file + ": /preset: " + error;
        return nullptr;
    }
    if (!j.contains(key))
    {
        return host;
    }
    for (const auto& [resource, attributes] : j.at(key).items())
    {
        for (const auto& [name, value] : attributes.items())
        {
            const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
            const std::string e =
                HostPresetHelper::SetResourceAttribute(host, resource, name, text);
            if (!e.empty())
            {
                error = file + ": /" + key + "/" + resource + "/" + name + ": " + e;
                return nullptr;
            }
        }
    }
    return host;
}

} // namespace ns3
