#include "experiment-component-reader.h"

#include "ns3/json-attribute-converter.h"
#include "ns3/type-id-chain.h"
#include "ns3/type-id.h"

#include <algorithm>

namespace ns3
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

namespace
{

/** A TypeId that files once named and that is now configuration, and what replaces it. */
struct RetiredType
{
    const char* name;        //!< the TypeId name files used
    const char* replacement; //!< what to write instead
};

/** The DCQCN generations, TypeIds once, NIC profiles over ns3::RdmaDcqcn now. */
constexpr RetiredType RETIRED_TYPES[] = {
    {"ns3::RdmaDcqcnGen1", "the Gen1 NIC is the NIC profile gen1 (configs/nic-profiles/gen1.json)"},
    {"ns3::RdmaDcqcnFirmware",
     "the Gen2/Gen3 firmware NIC is the NIC profile gen2-gen3 "
     "(configs/nic-profiles/gen2-gen3.json; with Azure's interop fix, gen2-gen3-interop)"},
};

} // namespace

ExperimentComponentReader::ExperimentComponentReader(const JsonSchemaReader& reader,
                                                     const CommandLineAttributes& commandLine,
                                                     std::vector<std::string>& warnings)
    : m_reader(reader)
    , m_commandLine(commandLine)
    , m_warnings(warnings)
{
}

std::vector<std::string>
ExperimentComponentReader::ConstructibleSubclasses(const std::string& baseType)
{
    std::vector<std::string> names;
    TypeId base;
    if (!TypeId::LookupByNameFailSafe(baseType, &base))
    {
        return names;
    }
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        if (tid != base && tid.IsChildOf(base) && tid.HasConstructor())
        {
            names.push_back(tid.GetName());
        }
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::string
ExperimentComponentReader::ChoicesText(const std::string& type, const std::string& baseType)
{
    const std::vector<std::string> choices = ConstructibleSubclasses(baseType);
    std::string text;
    const std::vector<std::string> near = JsonSchemaReader::ClosestNames(type, choices);
    if (!near.empty())
    {
        text = "did you mean " + JsonSchemaReader::JoinNames(near) + "? ";
    }
    return text + "the " + baseType + " types are: " + JsonSchemaReader::JoinNames(choices);
}

OrderedJson
ExperimentComponentReader::Read(const Json* section, const std::string& pointer,
                                const std::string& typeName, const std::string& baseType,
                                const std::map<std::string, std::string>& reserved,
                                ExperimentComponent& out) const
{
    static const Json empty = Json::object();
    const Json& s = section ? *section : empty;
    m_reader.RequireObject(s, pointer);
    OrderedJson eff;
    std::string type = typeName;
    if (!baseType.empty())
    {
        type = m_reader.GetString(s, pointer, "type", typeName, {});
        eff["type"] = type;
        if (type == "none" && baseType == "ns3::EcnMarker")
        {
            m_reader.CheckKeys(s, pointer, {"type"});
            out.typeName = type;
            return eff;
        }
        TypeId tid;
        TypeId base;
        for (const RetiredType& r : RETIRED_TYPES)
        {
            if (type == r.name)
            {
                m_reader.Fail(JsonSchemaReader::Child(pointer, "type"),
                              "\"" + type + "\" is no longer a TypeId: " + r.replacement +
                                  " over ns3::RdmaDcqcn: name it per host (\"nodes\": "
                                  "[{\"hosts\": ..., \"nic_profile\": ...}]), or write its "
                                  "\"cc\" section here");
            }
        }
        if (!TypeId::LookupByNameFailSafe(type, &tid))
        {
            m_reader.Fail(JsonSchemaReader::Child(pointer, "type"),
                          "unknown TypeId \"" + type + "\"; " + ChoicesText(type, baseType));
        }
        TypeId::LookupByNameFailSafe(baseType, &base);
        if (!tid.IsChildOf(base) || !tid.HasConstructor())
        {
            m_reader.Fail(JsonSchemaReader::Child(pointer, "type"),
                          "\"" + type + "\" is not a constructible subclass of " + baseType + "; " +
                              ChoicesText("", baseType)); // a real type: no "did you mean"
        }
    }
    out.typeName = type;
    out.pointer = pointer;
    TypeId tid;
    TypeId::LookupByNameFailSafe(type, &tid);

    // The settable attributes of the type and its parents, parents first.
    std::vector<TypeId> chain = TypeIdChain(tid);
    std::reverse(chain.begin(), chain.end());
    std::vector<TypeId::AttributeInformation> attributes;
    std::vector<std::string> names;
    std::vector<std::string> owners; //!< the TypeId declaring each attribute
    for (const DeclaredAttribute& a : ChainAttributes(chain))
    {
        const TypeId::AttributeInformation& info = a.info;
        if ((info.flags & TypeId::ATTR_CONSTRUCT) && !reserved.count(info.name) &&
            JsonAttributeConverter::IsSupported(info))
        {
            attributes.push_back(info);
            names.push_back(info.name);
            owners.push_back(a.owner.GetName());
        }
    }

    for (auto it = s.begin(); it != s.end(); ++it)
    {
        const std::string& key = it.key();
        if (key == "type" && !baseType.empty())
        {
            continue;
        }
        const std::string p = JsonSchemaReader::Child(pointer, key);
        auto r = reserved.find(key);
        if (r != reserved.end())
        {
            m_reader.Fail(p,
                          "attribute " + key + " of " + type + " cannot be set here: " + r->second);
        }
        TypeId::AttributeInformation info;
        if (!tid.LookupAttributeByName(key, &info))
        {
            m_reader.Fail(p, "unknown attribute \"" + key + "\" of " + type +
                                 "; its attributes are: " + JsonSchemaReader::JoinNames(names));
        }
        const auto named = std::find(names.begin(), names.end(), key);
        if (named == names.end())
        {
            m_reader.Fail(p, "attribute " + key + " of " + type + " cannot be set from JSON");
        }
        std::string error;
        Ptr<AttributeValue> value = JsonAttributeConverter::FromJson(info, it.value(), error);
        if (!value)
        {
            m_reader.Fail(p, "attribute " + key + " of " + type + " (" +
                                 JsonAttributeConverter::HelpSummary(info.help) + "): bad value " +
                                 it.value().dump() + ": " + error);
        }
        // The command line's default (Config::SetDefault) wins over the file: leave the
        // attribute at it, and the effective section below records it.
        const std::string argument = m_commandLine.Find(owners[named - names.begin()], key);
        if (!argument.empty())
        {
            m_warnings.push_back("the command line's " + argument + " overrides " + p + " = " +
                                 it.value().dump() + " in " + m_reader.GetFile());
            continue;
        }
        out.attributes.push_back(ExperimentAttribute{key, value});
    }

    for (const auto& info : attributes)
    {
        auto given =
            std::find_if(out.attributes.begin(), out.attributes.end(),
                         [&info](const ExperimentAttribute& a) { return a.name == info.name; });
        const AttributeValue& v =
            given != out.attributes.end() ? *given->value : *info.initialValue;
        eff[info.name] = JsonAttributeConverter::ToJson(info, v);
    }
    return eff;
}

} // namespace ns3
