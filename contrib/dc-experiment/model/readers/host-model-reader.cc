#include "host-model-reader.h"

#include "ns3/experiment-config-error.h"
#include "ns3/json-attribute-converter.h"
#include "ns3/object-factory.h"
#include "ns3/type-id-chain.h"

#include <fstream>
#include <sstream>
#include <vector>

namespace ns3
{

using Json = nlohmann::json;

namespace
{

const std::vector<std::string> DEVICE_TYPES = {"RnicPort",    "PcieSwitch",     "RootPort",
                                               "RootComplex", "MemoryChannel",  "GpuDevice",
                                               "CxlSwitch",   "CxlMemoryDevice"};
const std::vector<std::string> LINK_TYPES = {"PcieLink", "SocketLink", "CxlLink"};

/** Build the resource \p entry describes ("type" of \p types, then its "attributes"). */
Ptr<HostResource>
BuildResource(const JsonSchemaReader& reader, const Json& entry, const std::string& pointer,
              const std::vector<std::string>& types)
{
    const std::string type = reader.GetString(entry, pointer, "type", std::nullopt,
                                              std::set<std::string>(types.begin(), types.end()));
    ObjectFactory factory("ns3::" + type);
    Ptr<HostResource> r = factory.Create<HostResource>();
    if (const Json* attributes = JsonSchemaReader::Find(entry, "attributes"))
    {
        const std::string ap = JsonSchemaReader::Child(pointer, "attributes");
        reader.RequireObject(*attributes, ap);
        for (auto a = attributes->begin(); a != attributes->end(); ++a)
        {
            HostModelReader::SetAttribute(reader, r, a.key(), a.value(),
                                          JsonSchemaReader::Child(ap, a.key()));
        }
    }
    return r;
}

/** A unique resource name at \p pointer's "name". */
std::string
ReadName(const JsonSchemaReader& reader, const Json& entry, const std::string& pointer,
         Ptr<HostModel> model)
{
    const std::string name = reader.GetString(entry, pointer, "name", std::nullopt, {});
    if (name.empty())
    {
        reader.Fail(JsonSchemaReader::Child(pointer, "name"), "expected a non-empty name");
    }
    if (model->GetResourceId(name) != HostModel::NONE)
    {
        reader.Fail(JsonSchemaReader::Child(pointer, "name"), "duplicate name \"" + name + "\"");
    }
    return name;
}

} // namespace

Ptr<HostModel>
HostModelReader::ReadFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw ExperimentConfigError(path, "", "cannot open the host graph file");
    }
    std::ostringstream text;
    text << in.rdbuf();
    return ReadText(text.str(), path);
}

Ptr<HostModel>
HostModelReader::ReadText(const std::string& text, const std::string& file)
{
    const JsonSchemaReader reader(file);
    const Json doc = reader.ParseText(text);
    reader.CheckKeys(doc, "", {"devices", "links", "description", "_comment"});
    const Json* devices = JsonSchemaReader::Find(doc, "devices");
    if (!devices || !devices->is_array())
    {
        reader.Fail("/devices", "required array of devices ({\"name\", \"type\", \"attributes\"})");
    }
    auto model = CreateObject<HostModel>();
    for (std::size_t i = 0; i < devices->size(); ++i)
    {
        const std::string p = JsonSchemaReader::Child("/devices", i);
        const Json& d = (*devices)[i];
        reader.CheckKeys(d, p, {"name", "type", "attributes", "description", "_comment"});
        const std::string name = ReadName(reader, d, p, model);
        model->AddDevice(name, BuildResource(reader, d, p, DEVICE_TYPES));
    }
    const Json* links = JsonSchemaReader::Find(doc, "links");
    if (links && !links->is_array())
    {
        reader.Fail("/links", "expected an array of links, got " + std::string(links->type_name()));
    }
    for (std::size_t i = 0; links && i < links->size(); ++i)
    {
        const std::string p = JsonSchemaReader::Child("/links", i);
        const Json& l = (*links)[i];
        reader.CheckKeys(l, p, {"name", "type", "ends", "attributes", "description", "_comment"});
        const std::string ep = JsonSchemaReader::Child(p, "ends");
        const Json* ends = JsonSchemaReader::Find(l, "ends");
        if (!ends || !ends->is_array() || ends->size() != 2 || !(*ends)[0].is_string() ||
            !(*ends)[1].is_string())
        {
            reader.Fail(ep, "required array of two device names");
        }
        std::string names[2];
        for (std::size_t e = 0; e < 2; ++e)
        {
            names[e] = (*ends)[e].get<std::string>();
            const uint32_t id = model->GetResourceId(names[e]);
            if (id == HostModel::NONE || model->IsLink(id))
            {
                reader.Fail(JsonSchemaReader::Child(ep, e), "\"" + names[e] + "\" is not a device");
            }
        }
        if (!JsonSchemaReader::Find(l, "type"))
        {
            if (JsonSchemaReader::Find(l, "attributes"))
            {
                reader.Fail(JsonSchemaReader::Child(p, "attributes"),
                            "an ideal connection (no \"type\") has no attributes");
            }
            model->Connect(names[0], names[1]);
            continue;
        }
        const std::string name = ReadName(reader, l, p, model);
        model->AddLink(name, BuildResource(reader, l, p, LINK_TYPES), names[0], names[1]);
    }
    return model;
}

void
HostModelReader::SetAttribute(const JsonSchemaReader& reader, Ptr<HostResource> resource,
                              const std::string& name, const Json& value,
                              const std::string& pointer)
{
    const TypeId tid = resource->GetInstanceTypeId();
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(name, &info))
    {
        const std::vector<std::string> names = AttributeNames(tid);
        reader.Fail(pointer, "no attribute \"" + name + "\" in " + tid.GetName() +
                                 " (attributes: " + JsonSchemaReader::JoinNames(names) + ")");
    }
    std::string error;
    Ptr<AttributeValue> v = JsonAttributeConverter::FromJson(info, value, error);
    if (!v)
    {
        reader.Fail(pointer, error);
    }
    if (!resource->SetAttributeFailSafe(name, *v))
    {
        std::string help = JsonAttributeConverter::HelpSummary(info.help);
        if (!help.empty() && help.back() == '.')
        {
            help.pop_back();
        }
        reader.Fail(pointer, "value " + value.dump() + " is not accepted by " + tid.GetName() +
                                 "::" + name + " (" + help + ")");
    }
}

} // namespace ns3
