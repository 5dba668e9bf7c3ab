#include "nic-profile.h"

#include "ns3/experiment-config-error.h"
#include "ns3/json-attribute-converter.h"
#include "ns3/json-schema-reader.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/rdma-nic-profile.h"
#include "ns3/string.h"

#include <fstream>
#include <sstream>

namespace ns3
{

using Json = nlohmann::json;

namespace
{

std::string
ReadText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw ExperimentConfigError(path, "", "cannot open the file");
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/**
 * The ConnectX firmware's DCQCN knobs (mlxconfig / debugfs names, [MLX-DUMP]) that a
 * profile's "cc" may name, and the RdmaDcqcn attribute each sets. The table of
 * contrib/rdma/doc/dcqcn-generations.md is this one.
 */
struct FirmwareKnob
{
    const char* knob;      //!< the name in the profile
    const char* attribute; //!< the RdmaDcqcn attribute it sets
};

constexpr FirmwareKnob FIRMWARE_KNOBS[] = {
    {"RpgTimeReset", "RateIncreaseTimer"},                       // rpg_time_reset
    {"RpgByteReset", "ByteCounter"},                             // rpg_byte_reset
    {"RpgThreshold", "FastRecoveryTimes"},                       // rpg_threshold
    {"RpgAiRate", "RateAI"},                                     // rpg_ai_rate
    {"RpgHaiRate", "RateHAI"},                                   // rpg_hai_rate
    {"RpgMinRate", "MinRate"},                                   // rpg_min_rate
    {"ClampTgtRate", "ClampTargetRate"},                         // clamp_tgt_rate
    {"ClampTgtRateAfterTimeInc", "ClampTargetRateAfterTimeInc"}, // clamp_tgt_rate_ati
    {"DceTcpG", "G"},                                            // dce_tcp_g / 1024
    {"DceTcpRtt", "AlphaUpdatePeriod"},                          // dce_tcp_rtt
    {"RateDecreasePeriod", "RateDecreaseInterval"},              // rate_reduce_monitor_period
    {"InitialAlphaValue", "InitialAlpha"},                       // initial_alpha_value / 1024
    {"MinTimeBetweenCnps", "CnpInterval"},                       // np_min_time_between_cnps
    {"InteropCnpInterval", "CnpInterval"}, // Azure interop CNP limiter [AZURE 7.2]
};

/** \return the firmware knob of \p section that sets \p attribute, or "" */
std::string
KnobSetting(const Json& section, const std::string& attribute)
{
    for (const FirmwareKnob& k : FIRMWARE_KNOBS)
    {
        if (attribute == k.attribute && section.is_object() && section.contains(k.knob))
        {
            return k.knob;
        }
    }
    return "";
}

/**
 * Replace the firmware knob names of a DCQCN "cc" section by the attributes they set,
 * checking each value against its attribute.
 * \throw ExperimentConfigError at /cc/<knob>
 */
void
MapFirmwareKnobs(const JsonSchemaReader& reader, Json& cc)
{
    if (!cc.is_object())
    {
        return;
    }
    const Json* type = JsonSchemaReader::Find(cc, "type");
    const TypeId tid = RdmaDcqcn::GetTypeId();
    const std::string typeName = tid.GetName();
    if (type && *type != typeName)
    {
        return; // not DCQCN: the experiment reader names unknown attributes (and types)
    }
    for (const FirmwareKnob& k : FIRMWARE_KNOBS)
    {
        const Json* value = JsonSchemaReader::Find(cc, k.knob);
        if (!value)
        {
            continue;
        }
        const std::string p = JsonSchemaReader::Child("/cc", k.knob);
        if (cc.contains(k.attribute))
        {
            reader.Fail(p, std::string(k.knob) + " sets " + k.attribute +
                               ", which the profile sets "
                               "too (as " +
                               k.attribute + " or another firmware knob): give one");
        }
        TypeId::AttributeInformation info;
        if (!tid.LookupAttributeByName(k.attribute, &info))
        {
            reader.Fail(p, std::string(k.knob) + " sets " + k.attribute + ", which " + typeName +
                               " does not have");
        }
        std::string error;
        if (!JsonAttributeConverter::FromJson(info, *value, error))
        {
            reader.Fail(p, std::string(k.knob) + " sets " + k.attribute + ": bad value " +
                               value->dump() + ": " + error);
        }
        cc[k.attribute] = *value;
        cc.erase(k.knob);
    }
}

} // namespace

Json
NicProfile::PresetSections(const std::string& name, const JsonSchemaReader& reader,
                           const std::string& pointer)
{
    const RdmaNicProfile preset = RdmaNicProfile::Lookup(name, reader, pointer);
    const TypeId loss = TypeId::LookupByName(preset.lossRecovery);
    Json lossSection = Json{{"type", preset.lossRecovery}};
    for (const auto& [attribute, text] : preset.lossRecoveryAttributes)
    {
        TypeId::AttributeInformation info;
        NS_ABORT_MSG_UNLESS(loss.LookupAttributeByName(attribute, &info),
                            "RdmaNicProfile " << name << ": no attribute " << attribute);
        Ptr<AttributeValue> value = info.checker->CreateValidValue(StringValue(text));
        NS_ABORT_MSG_UNLESS(value, "RdmaNicProfile " << name << ": bad " << attribute);
        lossSection[attribute] = Json::parse(JsonAttributeConverter::ToJson(info, *value).dump());
    }
    Json sections = Json::object();
    sections["loss_recovery"] = lossSection;
    sections["cc"] = Json{{"type", preset.congestionControl}};
    sections["qp"] = Json{{"SrnicHeaderExtensions", preset.srnicHeaderExtensions}};
    return sections;
}

Json
NicProfile::Read(const std::string& profileFile)
{
    const JsonSchemaReader reader(profileFile);
    Json profile = reader.ParseText(ReadText(profileFile));
    reader.CheckKeys(profile, "",
                     {"description", "preset", "nic", "switch", "link", "buffer", "ecn", "cc",
                      "loss_recovery", "qp"});
    if (JsonSchemaReader::Find(profile, "preset"))
    {
        const std::string preset = reader.GetString(profile, "", "preset", std::nullopt, {});
        profile = Expand(profile, PresetSections(preset, reader, "/preset"));
    }
    if (profile.contains("cc"))
    {
        MapFirmwareKnobs(reader, profile["cc"]);
    }
    return profile;
}

Json
NicProfile::Expand(const Json& profile, const Json& preset)
{
    Json expanded = preset;
    for (auto it = profile.begin(); it != profile.end(); ++it)
    {
        if (it.key() == "preset")
        {
            continue;
        }
        if (!expanded.contains(it.key()) || !it.value().is_object())
        {
            expanded[it.key()] = it.value();
            continue;
        }
        // A different type drops the preset's attributes (they belong to its type).
        const Json* t = JsonSchemaReader::Find(it.value(), "type");
        if (t && expanded[it.key()].contains("type") && *t != expanded[it.key()]["type"])
        {
            expanded[it.key()] = Json::object();
        }
        for (auto a = it.value().begin(); a != it.value().end(); ++a)
        {
            expanded[it.key()][a.key()] = a.value();
        }
    }
    return expanded;
}

std::string
NicProfile::Merge(const std::string& baseFile, const std::string& profileFile,
                  const Overrides& overrides)
{
    const JsonSchemaReader baseReader(baseFile);
    Json base = baseReader.ParseText(ReadText(baseFile));
    baseReader.RequireObject(base, "");
    const JsonSchemaReader profileReader(profileFile);
    const Json profile = Read(profileFile);
    const std::vector<std::string> sections = {"nic", "switch", "link",          "buffer",
                                               "ecn", "cc",     "loss_recovery", "qp"};

    for (const std::string& s : sections)
    {
        const Json* p = JsonSchemaReader::Find(profile, s);
        if (!p)
        {
            continue;
        }
        profileReader.RequireObject(*p, "/" + s);
        Json merged = Json::object();
        const Json* b = JsonSchemaReader::Find(base, s);
        if (b && b->is_object())
        {
            const Json* bt = JsonSchemaReader::Find(*b, "type");
            const Json* pt = JsonSchemaReader::Find(*p, "type");
            if (!(pt && bt && *pt != *bt))
            {
                merged = *b;
            }
        }
        for (const auto& [key, value] : p->items())
        {
            merged[key] = value;
        }
        base[s] = merged;
    }
    if (const Json* d = JsonSchemaReader::Find(profile, "description"))
    {
        const Json* bd = JsonSchemaReader::Find(base, "description");
        base["description"] =
            (bd && bd->is_string() ? bd->get<std::string>() + " | profile: " : "") +
            (d->is_string() ? d->get<std::string>() : d->dump());
    }
    if (overrides.srnicServers > 0)
    {
        Json topo = Json::object();
        const Json* bt = JsonSchemaReader::Find(base, "topology");
        if (bt && bt->is_object() && JsonSchemaReader::Find(*bt, "type") &&
            (*bt)["type"] == "fat_tree")
        {
            // Keep rates and delays; replace the shape.
            for (const char* k : {"host_link_rate", "fabric_link_rate", "link_delay"})
            {
                if (const Json* v = JsonSchemaReader::Find(*bt, k))
                {
                    topo[k] = *v;
                }
            }
        }
        topo["type"] = "fat_tree";
        topo["srnic_servers"] = overrides.srnicServers;
        base["topology"] = topo;
    }
    if (!overrides.duration.empty())
    {
        const Json* w = JsonSchemaReader::Find(base, "workload");
        if (!w || !w->is_object())
        {
            baseReader.Fail("/workload", "a duration override needs a \"workload\" object");
        }
        base["workload"]["duration"] = overrides.duration;
    }
    if (overrides.seed > 0)
    {
        base["seed"] = overrides.seed;
    }
    if (!overrides.stopTime.empty())
    {
        base["stop_time"] = overrides.stopTime;
    }
    if (overrides.progress)
    {
        base["progress"] = true;
    }
    return base.dump(2);
}

ExperimentConfig
NicProfile::Load(const std::string& baseFile, const std::string& profileFile,
                 const Overrides& overrides)
{
    // Named after the base file, so that its relative paths (cdf, topology) resolve.
    const std::string merged = Merge(baseFile, profileFile, overrides);
    try
    {
        return ExperimentConfig::LoadString(merged, baseFile, overrides.commandLine);
    }
    catch (const ExperimentConfigError& e)
    {
        // A value the profile set (its pointer, below a section the profile has)
        // is the profile's error, not the base file's.
        const std::string& pointer = e.GetPointer();
        if (pointer.size() > 1 && pointer.find('/', 1) != std::string::npos)
        {
            const Json profile = Read(profileFile);
            Json::json_pointer at(pointer.substr(0, pointer.find('/', pointer.find('/', 1) + 1)));
            if (profile.contains(at))
            {
                // A value the profile set under a firmware knob name: name the knob.
                const std::string attribute = pointer.substr(pointer.rfind('/') + 1);
                const std::string knob =
                    pointer.rfind("/cc/", 0) == 0 && pointer.find('/', 4) == std::string::npos
                        ? KnobSetting(JsonSchemaReader(profileFile)
                                          .ParseText(ReadText(profileFile))
                                          .value("cc", Json::object()),
                                      attribute)
                        : "";
                throw ExperimentConfigError(
                    profileFile, knob.empty() ? pointer : "/cc/" + knob,
                    (knob.empty() ? "" : knob + " sets " + attribute + ": ") + e.GetReason() +
                        " (merged into " + baseFile + ")");
            }
        }
        throw;
    }
}

} // namespace ns3
