/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "host-config-loader.h"

#include "ns3/object-factory.h"
#include "ns3/string.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace ns3
{

namespace
{

const std::set<std::string> DEVICE_TYPES = {"RnicPort",    "PcieSwitch",     "RootPort",
                                            "RootComplex", "MemoryChannel",  "GpuDevice",
                                            "CxlSwitch",   "CxlMemoryDevice"};
const std::set<std::string> LINK_TYPES = {"PcieLink", "SocketLink", "CxlLink"};

std::string
Allowed(const std::set<std::string>& types)
{
    std::string out;
    for (const auto& t : types)
    {
        out += (out.empty() ? "" : ", ") + t;
    }
    return out;
}

} // namespace

const std::string&
HostConfigLoader::GetError() const
{
    return m_error;
}

bool
HostConfigLoader::LoadFile(const std::string& path, Ptr<HostModel>& host)
{
    std::ifstream in(path);
    if (!in)
    {
        m_error = path + ": cannot open";
        return false;
    }
    std::stringstream text;
    text << in.rdbuf();
    return LoadString(text.str(), path, host);
}

bool
HostConfigLoader::LoadString(const std::string& text, const std::string& source,
                             Ptr<HostModel>& host)
{
    using nlohmann::json;
    json doc;
    try
    {
        doc = json::parse(text);
    }
    catch (const json::parse_error& e)
    {
        m_error = source + ": invalid JSON at byte " + std::to_string(e.byte);
        return false;
    }
    catch (const json::exception& e) // e.g. out_of_range: a number too large (1E9999)
    {
        m_error = source + ": invalid JSON: " + e.what();
        return false;
    }
    auto fail = [&](const std::string& pointer, const std::string& what)
    {
        m_error = source + ": " + pointer + ": " + what;
        return false;
    };
    if (!doc.is_object() || !doc.contains("devices") || !doc["devices"].is_array())
    {
        return fail("/devices", "required array of devices");
    }
    auto model = CreateObject<HostModel>();
    // Builds one resource of an allowed type and applies its attributes.
    auto build = [&](const json& entry, const std::string& pointer,
                     const std::set<std::string>& types, Ptr<HostResource>& out)
    {
        if (!entry.contains("type") || !entry["type"].is_string() ||
            !types.count(entry["type"].get<std::string>()))
        {
            return fail(pointer + "/type", "required, one of " + Allowed(types));
        }
        ObjectFactory factory("ns3::" + entry["type"].get<std::string>());
        if (entry.contains("attributes"))
        {
            if (!entry["attributes"].is_object())
            {
                return fail(pointer + "/attributes", "must be an object");
            }
            for (const auto& [key, value] : entry["attributes"].items())
            {
                std::string v = value.is_string() ? value.get<std::string>() : value.dump();
                std::string at = pointer + "/attributes/" + key;
                TypeId::AttributeInformation info;
                if (!factory.GetTypeId().LookupAttributeByName(key, &info))
                {
                    return fail(at, "no attribute '" + key + "' in " + entry["type"].dump());
                }
                if (!info.checker->Create()->DeserializeFromString(v, info.checker))
                {
                    return fail(at, "invalid value '" + v + "'");
                }
            }
        }
        out = factory.Create<HostResource>();
        if (entry.contains("attributes"))
        {
            for (const auto& [key, value] : entry["attributes"].items())
            {
                std::string v = value.is_string() ? value.get<std::string>() : value.dump();
                if (!out->SetAttributeFailSafe(key, StringValue(v)))
                {
                    return fail(pointer + "/attributes/" + key, "value '" + v + "' out of range");
                }
            }
        }
        return true;
    };
    const json& devices = doc["devices"];
    for (size_t i = 0; i < devices.size(); ++i)
    {
        std::string pointer = "/devices/" + std::to_string(i);
        const json& d = devices[i];
        if (!d.is_object() || !d.contains("name") || !d["name"].is_string())
        {
            return fail(pointer + "/name", "required string");
        }
        std::string name = d["name"].get<std::string>();
        if (model->GetResourceId(name) != HostModel::NONE)
        {
            return fail(pointer + "/name", "duplicate name '" + name + "'");
        }
        Ptr<HostResource> r;
        if (!build(d, pointer, DEVICE_TYPES, r))
        {
            return false;
        }
        model->AddDevice(name, r);
    }
    const json links = doc.value("links", json::array());
    if (!links.is_array())
    {
        return fail("/links", "must be an array");
    }
    for (size_t i = 0; i < links.size(); ++i)
    {
        std::string pointer = "/links/" + std::to_string(i);
        const json& l = links[i];
        if (!l.is_object() || !l.contains("ends") || !l["ends"].is_array() ||
            l["ends"].size() != 2 || !l["ends"][0].is_string() || !l["ends"][1].is_string())
        {
            return fail(pointer + "/ends", "required array of two device names");
        }
        std::string a = l["ends"][0].get<std::string>();
        std::string b = l["ends"][1].get<std::string>();
        for (uint32_t e = 0; e < 2; ++e)
        {
            std::string end = e == 0 ? a : b;
            uint32_t id = model->GetResourceId(end);
            if (id == HostModel::NONE || model->IsLink(id))
            {
                return fail(pointer + "/ends/" + std::to_string(e),
                            "'" + end + "' is not a device");
            }
        }
        if (!l.contains("type"))
        {
            model->Connect(a, b);
            continue;
        }
        if (!l.contains("name") || !l["name"].is_string())
        {
            return fail(pointer + "/name", "required string for a typed link");
        }
        std::string name = l["name"].get<std::string>();
        if (model->GetResourceId(name) != HostModel::NONE)
        {
            return fail(pointer + "/name", "duplicate name '" + name + "'");
        }
        Ptr<HostResource> r;
        if (!build(l, pointer, LINK_TYPES, r))
        {
            return false;
        }
        model->AddLink(name, r, a, b);
    }
    host = model;
    m_error.clear();
    return true;
}

} // namespace ns3
