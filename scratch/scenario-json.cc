#include "scenario-json.h"

#include "ns3/config.h"
#include "ns3/json-attribute-converter.h"
#include "ns3/string.h"

#include <fstream>
#include <sstream>

namespace ns3
{

bool
ScenarioJson::Load(const std::string& file, nlohmann::json& json, std::string& error)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
    {
        error = file + ": cannot open";
        return false;
    }
    std::ostringstream text;
    text << in.rdbuf();
    const std::string content = text.str();
    try
    {
        json = nlohmann::json::parse(content);
    }
    catch (const nlohmann::json::parse_error& e)
    {
        uint64_t line = 1;
        uint64_t column = 1;
        for (std::size_t i = 0; i + 1 < e.byte && i < content.size(); ++i)
        {
            if (content[i] == '\n')
            {
                line++;
                column = 1;
            }
            else
            {
                column++;
            }
        }
        error = file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + e.what();
        return false;
    }
    if (!json.is_object())
    {
        error = file + ": /: the file must hold a JSON object";
        return false;
    }
    return true;
}

bool
ScenarioJson::ApplyAttributes(const nlohmann::json& json, const std::string& file,
                              std::string& error)
{
    if (!json.contains("attributes"))
    {
        return true;
    }
    const nlohmann::json& attributes = json["attributes"];
    if (!attributes.is_object())
    {
        error = file + ": /attributes: must be an object of \"ns3::Type::Attribute\": value";
        return false;
    }
    for (const auto& [name, value] : attributes.items())
    {
        const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
        std::string why;
        if (!JsonAttributeConverter::CheckCommandLineDefault("--" + name + "=" + text, why) ||
            !Config::SetDefaultFailSafe(name, StringValue(text)))
        {
            error = file + ": /attributes/" + name + ": " +
                    (why.empty() ? "unknown attribute or bad value " + text : why);
            return false;
        }
    }
    return true;
}

bool
ScenarioJson::ReadDataRate(const nlohmann::json& json, const std::string& key,
                           const std::string& fallback, const std::string& file, DataRate& rate,
                           std::string& error)
{
    std::string text = fallback;
    if (json.contains(key))
    {
        if (!json[key].is_string())
        {
            error = file + ": /" + key + ": must be a string such as \"" + fallback + "\"";
            return false;
        }
        text = json[key].get<std::string>();
    }
    if (!JsonAttributeConverter::ParseDataRate(text, rate))
    {
        error = file + ": /" + key + ": not a data rate (e.g. \"" + fallback + "\")";
        return false;
    }
    return true;
}

} // namespace ns3
