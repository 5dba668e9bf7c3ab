#include "node-composition-reader.h"

#include "dfabric-rack-reader.h"
#include "host-model-reader.h"

#include "ns3/experiment-config-error.h"
#include "ns3/host-preset-helper.h"
#include "ns3/host-selection.h"
#include "ns3/json-attribute-converter.h"
#include "ns3/nic-profile.h"
#include "ns3/rdma-fabric-builder.h"
#include "ns3/rdma-nic-profile.h"
#include "ns3/string.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace ns3
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

namespace
{

/** Attribute text of a JSON value: strings as they are, the rest as JSON. */
std::string
AttributeText(const Json& v)
{
    return v.is_string() ? v.get<std::string>() : v.dump();
}

NodeHostModel
ReadHostModel(const JsonSchemaReader& reader, const Json& v, const std::string& pointer)
{
    NodeHostModel m;
    m.pointer = pointer;
    const std::string presets = JsonSchemaReader::JoinNames(HostPresetHelper::Names());
    Json object = v;
    if (v.is_string())
    {
        object = Json::object();
        const std::string s = v.get<std::string>();
        const std::vector<std::string> names = HostPresetHelper::Names();
        if (std::find(names.begin(), names.end(), s) != names.end())
        {
            object["preset"] = s;
        }
        else
        {
            object["file"] = s;
        }
    }
    reader.CheckKeys(object, pointer, {"preset", "file", "rnic", "memory", "resources"});
    const bool hasPreset = JsonSchemaReader::Find(object, "preset") != nullptr;
    const bool hasFile = JsonSchemaReader::Find(object, "file") != nullptr;
    if (hasPreset == hasFile)
    {
        reader.Fail(pointer, "give exactly one of \"preset\" (" + presets +
                                 ") or \"file\" (a host graph file)");
    }
    const std::string fieldPointer =
        v.is_string() ? pointer : JsonSchemaReader::Child(pointer, hasPreset ? "preset" : "file");
    if (hasPreset)
    {
        std::vector<std::string> names = HostPresetHelper::Names();
        m.preset = reader.GetString(object, pointer, "preset", std::nullopt,
                                    std::set<std::string>(names.begin(), names.end()));
        m.label = m.preset;
    }
    else
    {
        const std::string given = reader.GetString(object, pointer, "file", std::nullopt, {});
        reader.CheckNoNul(object["file"], fieldPointer);
        m.file = reader.ResolvePath(given);
        m.label = std::filesystem::path(given).filename().string();
        if (!std::ifstream(m.file))
        {
            reader.Fail(fieldPointer, m.file + ": cannot open the host graph file");
        }
    }
    m.rnic = reader.GetString(object, pointer, "rnic", "rnic0", {});
    m.memory = reader.GetString(object, pointer, "memory", "mem0", {});
    Ptr<HostModel> host = NodeCompositionReader::BuildHostModel(m, reader);
    if (const Json* resources = JsonSchemaReader::Find(object, "resources"))
    {
        const std::string rp = JsonSchemaReader::Child(pointer, "resources");
        reader.RequireObject(*resources, rp);
        for (auto r = resources->begin(); r != resources->end(); ++r)
        {
            const std::string p = JsonSchemaReader::Child(rp, r.key());
            reader.RequireObject(r.value(), p);
            if (!host->GetResource(r.key()))
            {
                reader.Fail(p, "no resource \"" + r.key() + "\" in the host model " + m.label);
            }
            for (auto a = r.value().begin(); a != r.value().end(); ++a)
            {
                // Typed and checked as in host graph files; stored as attribute text.
                HostModelReader::SetAttribute(reader, host->GetResource(r.key()), a.key(),
                                              a.value(), JsonSchemaReader::Child(p, a.key()));
                m.overrides.push_back({r.key(), {a.key(), AttributeText(a.value())}});
            }
        }
        if (!m.overrides.empty())
        {
            m.label += "+" + std::to_string(m.overrides.size()) + " overrides";
        }
    }
    const uint32_t rnic = host->GetResourceId(m.rnic);
    const uint32_t mem = host->GetResourceId(m.memory);
    if (rnic == HostModel::NONE || mem == HostModel::NONE || host->GetPath(rnic, mem).empty())
    {
        reader.Fail(pointer, "no DMA path from \"" + m.rnic + "\" to \"" + m.memory +
                                 "\" in the host model " + m.label);
    }
    return m;
}

OrderedJson
HostModelEffective(const JsonSchemaReader& reader, const NodeHostModel& m)
{
    OrderedJson e;
    if (!m.preset.empty())
    {
        e["preset"] = m.preset;
    }
    else
    {
        e["file"] = m.file;
    }
    e["rnic"] = m.rnic;
    e["memory"] = m.memory;
    if (!m.overrides.empty())
    {
        // Each value as the resource holds it, typed as the reader takes it back.
        Ptr<HostModel> host = NodeCompositionReader::BuildHostModel(m, reader);
        OrderedJson r = OrderedJson::object();
        for (const auto& [resource, av] : m.overrides)
        {
            Ptr<HostResource> res = host->GetResource(resource);
            TypeId::AttributeInformation info;
            if (res && res->GetInstanceTypeId().LookupAttributeByName(av.first, &info))
            {
                Ptr<AttributeValue> value = info.checker->Create();
                res->GetAttribute(av.first, *value);
                r[resource][av.first] = JsonAttributeConverter::ToJson(info, *value);
            }
            else
            {
                r[resource][av.first] = av.second;
            }
        }
        e["resources"] = r;
    }
    return e;
}

/** The cache presets: lower-case names of RdmaNicProfile presets with an on-chip memory model. */
const std::vector<std::pair<std::string, std::string>> CACHE_PRESETS = {
    {"srnic", "Srnic"},
    {"cx6", "Cx6"},
    {"cx5", "Cx5"},
};

/** \return \p attributes (strings) of \p type as typed JSON, under "type" when \p withType. */
Json
TypedSection(const std::string& type, const RdmaNicProfile::Attributes& attributes, bool withType)
{
    Json s = Json::object();
    if (withType)
    {
        s["type"] = type;
    }
    const TypeId tid = TypeId::LookupByName(type);
    for (const auto& [name, text] : attributes)
    {
        TypeId::AttributeInformation info;
        NS_ABORT_MSG_UNLESS(tid.LookupAttributeByName(name, &info),
                            "RdmaNicProfile names no attribute " << name << " of " << type);
        Ptr<AttributeValue> value = info.checker->CreateValidValue(StringValue(text));
        NS_ABORT_MSG_UNLESS(value, "RdmaNicProfile: bad value " << text << " of " << name);
        s[name] = Json::parse(JsonAttributeConverter::ToJson(info, *value).dump());
    }
    return s;
}

NodeNicCache
ReadNicCache(const JsonSchemaReader& reader, const Json& v, const std::string& pointer,
             const NodeCompositionReader::ComponentParser& parse, OrderedJson& eff)
{
    std::vector<std::string> names;
    for (const auto& [lower, preset] : CACHE_PRESETS)
    {
        names.push_back(lower);
    }
    names.push_back("none");
    if (v.is_string() && std::find(names.begin(), names.end(), v.get<std::string>()) == names.end())
    {
        reader.Fail(pointer, "unknown NIC cache preset " + v.dump() +
                                 " (allowed: " + JsonSchemaReader::JoinNames(names) +
                                 ", or an object with \"preset\", \"scheduler\", \"cache\")");
    }
    const Json object = v.is_string() ? Json{{"preset", v}} : v;
    reader.CheckKeys(object, pointer, {"preset", "scheduler", "cache"});
    NodeNicCache c;
    c.pointer = pointer;
    const std::string preset =
        JsonSchemaReader::Find(object, "preset")
            ? reader.GetString(object, pointer, "preset", std::nullopt,
                               std::set<std::string>(names.begin(), names.end()))
            : "";
    eff = OrderedJson::object();
    if (preset == "none")
    {
        reader.CheckKeys(object, pointer, {"preset"});
        c.label = "none";
        eff["preset"] = "none";
        return c;
    }
    Json scheduler = Json::object();
    Json cache = Json::object();
    if (!preset.empty())
    {
        RdmaNicProfile p;
        for (const auto& [lower, name] : CACHE_PRESETS)
        {
            if (lower == preset)
            {
                p = RdmaNicProfile::Lookup(name, reader,
                                           JsonSchemaReader::Child(pointer, "preset"));
            }
        }
        scheduler = TypedSection(p.qpScheduler, p.qpSchedulerAttributes, true);
        cache = TypedSection(p.cacheModel, p.cacheModelAttributes, false);
        c.label = preset;
        eff["preset"] = preset;
    }
    else
    {
        c.label = "custom";
        if (!JsonSchemaReader::Find(object, "scheduler"))
        {
            reader.Fail(pointer, "give a \"preset\" (" + JsonSchemaReader::JoinNames(names) +
                                     ") or a \"scheduler\" with its \"type\"");
        }
    }
    if (const Json* s = JsonSchemaReader::Find(object, "scheduler"))
    {
        reader.RequireObject(*s, JsonSchemaReader::Child(pointer, "scheduler"));
        // Another scheduler type drops the preset's attributes (they belong to its type).
        const Json* t = JsonSchemaReader::Find(*s, "type");
        if (t && scheduler.contains("type") && *t != scheduler["type"])
        {
            scheduler = Json::object();
        }
        for (auto it = s->begin(); it != s->end(); ++it)
        {
            scheduler[it.key()] = it.value();
        }
    }
    if (const Json* s = JsonSchemaReader::Find(object, "cache"))
    {
        reader.RequireObject(*s, JsonSchemaReader::Child(pointer, "cache"));
        for (auto it = s->begin(); it != s->end(); ++it)
        {
            cache[it.key()] = it.value();
        }
    }
    eff["scheduler"] = parse(&scheduler, JsonSchemaReader::Child(pointer, "scheduler"),
                             "ns3::RoundRobinQpScheduler", "ns3::QpScheduler", c.scheduler);
    eff["cache"] = parse(&cache, JsonSchemaReader::Child(pointer, "cache"), "ns3::RnicCacheModel",
                         "", c.cache);
    return c;
}

NodeNicProfile
ReadNicProfile(const JsonSchemaReader& reader, const Json& v, const std::string& pointer,
               const NodeCompositionReader::ComponentParser& parse)
{
    if (!v.is_string())
    {
        reader.Fail(pointer, "expected a NIC profile name (nic-profiles/<name>.json next to "
                             "the experiment file) or a path");
    }
    reader.CheckNoNul(v, pointer);
    NodeNicProfile p;
    p.pointer = pointer;
    p.name = v.get<std::string>();
    p.path = NodeCompositionReader::ResolveProfile(reader, p.name);
    if (!std::filesystem::is_regular_file(p.path))
    {
        reader.Fail(pointer, "no NIC profile file " + p.path);
    }
    const Json profile = NicProfile::Read(p.path);
    for (const char* s : {"switch", "link", "buffer", "ecn"})
    {
        if (JsonSchemaReader::Find(profile, s))
        {
            p.fabricSections.push_back(s);
        }
    }
    // The profile's sections are checked as the experiment's own; errors name the profile.
    const auto section = [&](const char* key, const std::string& type, const std::string& base,
                             ExperimentComponent& out)
    {
        const std::string sp = JsonSchemaReader::Child(pointer, key);
        try
        {
            parse(JsonSchemaReader::Find(profile, key), sp, type, base, out);
        }
        catch (const ExperimentConfigError& e)
        {
            if (e.GetPointer().rfind(sp, 0) != 0)
            {
                throw;
            }
            throw ExperimentConfigError(
                p.path, "/" + std::string(key) + e.GetPointer().substr(sp.size()),
                e.GetReason() + " (NIC profile of " + reader.GetFile() + " " + pointer + ")");
        }
    };
    p.hasCc = JsonSchemaReader::Find(profile, "cc") != nullptr;
    if (p.hasCc)
    {
        section("cc", "ns3::RdmaDcqcn", "ns3::RdmaCongestionOps", p.cc);
    }
    p.hasLossRecovery = JsonSchemaReader::Find(profile, "loss_recovery") != nullptr;
    if (p.hasLossRecovery)
    {
        section("loss_recovery", "ns3::RdmaGoBackN", "ns3::RdmaLossRecovery", p.lossRecovery);
    }
    section("qp", "ns3::RdmaQueuePair", "", p.qp);
    if (const Json* nic = JsonSchemaReader::Find(profile, "nic"))
    {
        if (!nic->is_object() || !nic->empty())
        {
            // RdmaNic attributes are read as the NIC is set up, before a host's composition.
            throw ExperimentConfigError(p.path, "/nic",
                                        "a NIC profile given per node sets the transport "
                                        "(\"cc\", \"loss_recovery\", \"qp\"), not \"nic\" "
                                        "attributes: give those to every host in the "
                                        "experiment's \"nic\" section (NIC profile of " +
                                            reader.GetFile() + " " + pointer + ")");
        }
    }
    for (const ExperimentAttribute& a : p.qp.attributes)
    {
        if (a.name == "Dscp")
        {
            throw ExperimentConfigError(p.path, "/qp/Dscp",
                                        "each flow's priority p sets DSCP 8p+2");
        }
    }
    return p;
}

/**
 * Each host whose NIC profile (after every entry) has a "cc" section: that congestion
 * control, one table entry per profile. "cc_hosts" may not have given the host one too.
 */
void
SetProfileCongestionControls(const JsonSchemaReader& reader, const ExperimentTopology& topology,
                             NodeComposition& c)
{
    std::vector<int32_t> ccOfProfile(c.nicProfiles.size(), -1);
    for (uint32_t h = 0; h < c.hosts.size(); ++h)
    {
        NodeSpec& s = c.hosts[h];
        if (s.nicProfile < 0 || !c.nicProfiles[s.nicProfile].hasCc)
        {
            continue;
        }
        const NodeNicProfile& p = c.nicProfiles[s.nicProfile];
        if (s.cc >= 0)
        {
            reader.Fail(p.pointer, "host " + topology.hosts[h] +
                                       " gets a congestion control from this NIC profile's "
                                       "\"cc\" (" +
                                       p.path + ") and from " + c.congestionControls[s.cc].pointer +
                                       ": give each host's congestion control in one place");
        }
        int32_t& entry = ccOfProfile[s.nicProfile];
        if (entry < 0)
        {
            c.congestionControls.push_back({p.cc, p.pointer});
            entry = static_cast<int32_t>(c.congestionControls.size() - 1);
        }
        s.cc = entry;
    }
}

} // namespace

std::string
NodeCompositionReader::ResolveProfile(const JsonSchemaReader& reader, const std::string& name)
{
    const bool isPath = name.find('/') != std::string::npos ||
                        (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0);
    return reader.ResolvePath(isPath ? name : "nic-profiles/" + name + ".json");
}

Ptr<HostModel>
NodeCompositionReader::BuildHostModel(const NodeHostModel& m, const JsonSchemaReader& reader)
{
    Ptr<HostModel> host =
        !m.preset.empty() ? HostPresetHelper().Create(m.preset, reader, m.pointer)
                          : HostModelReader::ReadFile(m.file); // errors name the host graph file
    const std::string resources = JsonSchemaReader::Child(m.pointer, "resources");
    for (const auto& [resource, av] : m.overrides)
    {
        HostPresetHelper::SetResourceAttribute(
            host, resource, av.first, av.second, reader,
            JsonSchemaReader::Child(JsonSchemaReader::Child(resources, resource), av.first));
    }
    return host;
}

void
NodeCompositionReader::Read(const JsonSchemaReader& reader, const Json* section,
                            const std::string& pointer, const ExperimentTopology& topology,
                            const ComponentParser& parse, NodeComposition& c,
                            OrderedJson& effective)
{
    if (!section)
    {
        effective = nullptr;
        return;
    }
    if (!section->is_array())
    {
        reader.Fail(pointer, "expected an array of {\"hosts\": ..., \"nic_profile\", "
                             "\"host_model\", \"nic_cache\", \"virtual_nics\"} entries");
    }
    c.nodesSection = true;
    if (c.hosts.empty())
    {
        c.hosts.assign(topology.hosts.size(), NodeSpec{});
    }
    const HostSelection selection(reader, topology);
    effective = OrderedJson::array();
    for (std::size_t i = 0; i < section->size(); ++i)
    {
        const Json& e = (*section)[i];
        const std::string p = JsonSchemaReader::Child(pointer, i);
        reader.CheckKeys(e, p,
                         {"hosts", "nic_profile", "host_model", "nic_cache", "nic_pus",
                          "virtual_nics", "dfabric_rack", "description"});
        const Json* hosts = JsonSchemaReader::Find(e, "hosts");
        if (!hosts)
        {
            reader.Fail(p, "missing required field \"hosts\"");
        }
        const std::vector<uint32_t> selected =
            selection.Select(*hosts, JsonSchemaReader::Child(p, "hosts"));
        OrderedJson eff;
        OrderedJson names = OrderedJson::array();
        for (uint32_t h : selected)
        {
            names.push_back(topology.hosts[h]);
        }
        eff["hosts"] = names;
        if (JsonSchemaReader::Find(e, "description"))
        {
            eff["description"] = reader.GetString(e, p, "description", std::nullopt, {});
        }
        int32_t profile = -1;
        int32_t host = -1;
        int32_t cache = -1;
        if (const Json* v = JsonSchemaReader::Find(e, "nic_profile"))
        {
            c.nicProfiles.push_back(
                ReadNicProfile(reader, *v, JsonSchemaReader::Child(p, "nic_profile"), parse));
            profile = static_cast<int32_t>(c.nicProfiles.size() - 1);
            eff["nic_profile"] = c.nicProfiles.back().path;
        }
        if (const Json* v = JsonSchemaReader::Find(e, "host_model"))
        {
            c.hostModels.push_back(
                ReadHostModel(reader, *v, JsonSchemaReader::Child(p, "host_model")));
            host = static_cast<int32_t>(c.hostModels.size() - 1);
            eff["host_model"] = HostModelEffective(reader, c.hostModels.back());
        }
        if (const Json* v = JsonSchemaReader::Find(e, "nic_cache"))
        {
            OrderedJson cacheEff;
            c.nicCaches.push_back(
                ReadNicCache(reader, *v, JsonSchemaReader::Child(p, "nic_cache"), parse, cacheEff));
            cache = static_cast<int32_t>(c.nicCaches.size() - 1);
            eff["nic_cache"] = cacheEff;
        }
        // "nic_pus": Husky's processing units in the NIC's request path (RdmaProcessingUnits).
        int32_t pus = -1;
        if (const Json* v = JsonSchemaReader::Find(e, "nic_pus"))
        {
            c.nicPus.emplace_back();
            eff["nic_pus"] = parse(v, JsonSchemaReader::Child(p, "nic_pus"),
                                   "ns3::NicProcessingUnits", "", c.nicPus.back());
            pus = static_cast<int32_t>(c.nicPus.size() - 1);
        }
        // "dfabric_rack": DFabric rack composition (DfabricRackReader).
        const Json* rack = JsonSchemaReader::Find(e, "dfabric_rack");
        if (rack)
        {
            eff["dfabric_rack"] = DfabricRackReader::ReadEntry(
                reader, *rack, JsonSchemaReader::Child(p, "dfabric_rack"), i, selected, c);
        }
        uint32_t vnics = 0;
        if (JsonSchemaReader::Find(e, "virtual_nics"))
        {
            vnics = static_cast<uint32_t>(reader.GetUint(e, p, "virtual_nics", std::nullopt, 1,
                                                         RdmaFabricBuilder::MAX_VIRTUAL_NICS));
            // Alias v of host h is 10.0.0.1 + v * hosts + h (RdmaFabricBuilder): inside 10/8.
            if (uint64_t{vnics} * topology.hosts.size() >= (uint64_t{1} << 24) - 1)
            {
                reader.Fail(JsonSchemaReader::Child(p, "virtual_nics"),
                            std::to_string(vnics) + " addresses for each of " +
                                std::to_string(topology.hosts.size()) +
                                " hosts do not fit in 10.0.0.0/8");
            }
            eff["virtual_nics"] = vnics;
        }
        if (profile < 0 && host < 0 && cache < 0 && pus < 0 && vnics == 0 && !rack)
        {
            reader.Fail(p, "the entry gives nothing: add \"nic_profile\", \"host_model\", "
                           "\"nic_cache\", \"nic_pus\", \"virtual_nics\" or \"dfabric_rack\"");
        }
        for (uint32_t h : selected)
        {
            NodeSpec& s = c.hosts[h];
            s.nicProfile = profile >= 0 ? profile : s.nicProfile;
            s.hostModel = host >= 0 ? host : s.hostModel;
            s.nicCache = cache >= 0 ? cache : s.nicCache;
            s.nicPus = pus >= 0 ? pus : s.nicPus;
            s.virtualNics = vnics > 0 ? vnics : s.virtualNics;
        }
        effective.push_back(eff);
    }
    SetProfileCongestionControls(reader, topology, c);
}

} // namespace ns3
