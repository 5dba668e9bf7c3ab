#include "experiment-config.h"

#include "command-line-attributes.h"
#include "fabric-bisection.h"
#include "flow-size-cdf.h"
#include "flow-trace.h"
#include "hpcc-config-translator.h"
#include "json-attribute-converter.h"
#include "json-schema-reader.h"
#include "node-composition-reader.h"
#include "poisson-flow-generator.h"
#include "switch-buffer-assignment.h"

#include "ns3/double.h"
#include "ns3/ipv4-header.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-bth-header.h"
#include "ns3/roce-icrc-trailer.h"
#include "ns3/roce-imm-dt-header.h"
#include "ns3/roce-reth-header.h"
#include "ns3/roce-srnic-ext-header.h"
#include "ns3/type-id.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>

namespace ns3
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

namespace
{
const std::set<std::string> VERBS = {"write", "send", "read"};
/** The "plots" ./roce-lab run can make (analysis/roce_lab.py PLOTS). */
const std::set<std::string> PLOT_NAMES = {"fct_cdf", "slowdown_by_size", "slowdown_cdf"};
} // namespace

/**
 * Reads a parsed experiment document into an ExperimentConfig, building its
 * effective (fully defaulted) form on the way.
 */
class ExperimentConfigParser
{
  public:
    ExperimentConfigParser(const JsonSchemaReader& reader, ExperimentConfig& config,
                           const CommandLineAttributes& commandLine)
        : m_reader(reader)
        , m_config(config)
        , m_commandLine(commandLine)
    {
    }

    void Parse(const Json& root);

  private:
    void ParseComponent(const Json* section, const std::string& pointer,
                        const std::string& typeName, const std::string& baseType,
                        const std::map<std::string, std::string>& reserved,
                        ExperimentComponent& out);
    uint32_t HostRef(const Json& value, const std::string& pointer) const;
    void ParseFlows(const Json* flows, const std::string& pointer);
    void ParseFlowSets(const Json* sets, const std::string& pointer);
    ExperimentFlow ParseFlowCommon(const Json& object, const std::string& pointer,
                                   OrderedJson& effective) const;
    void AddFlow(ExperimentFlow flow, const std::string& pointer);
    void ParseMonitors(const Json* monitors, const std::string& pointer);
    void ParseCcHosts(const Json* entries, const std::string& pointer);
    void CheckCongestionControl(const Json& topology) const;
    void CheckLinkMtu() const;
    void ParseFlowsFile(const Json* file, const std::string& pointer);
    void ParseWorkload(const Json* workload, const std::string& pointer);
    void ParseBuffers(const Json& root);

    const JsonSchemaReader& m_reader;
    ExperimentConfig& m_config;
    const CommandLineAttributes& m_commandLine; //!< --ns3::Type::Attribute=value: they win
    std::map<std::string, uint32_t> m_hostIndex;
    std::set<std::string> m_switchNames;
};

// ------------------------------------------------------------------ components

void
ExperimentConfigParser::ParseComponent(const Json* section, const std::string& pointer,
                                       const std::string& typeName, const std::string& baseType,
                                       const std::map<std::string, std::string>& reserved,
                                       ExperimentComponent& out)
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
            m_config.m_effective[pointer.substr(1)] = eff;
            return;
        }
        TypeId tid;
        TypeId base;
        if (!TypeId::LookupByNameFailSafe(type, &tid))
        {
            m_reader.Fail(JsonSchemaReader::Child(pointer, "type"),
                          "unknown TypeId \"" + type + "\"");
        }
        TypeId::LookupByNameFailSafe(baseType, &base);
        if (!tid.IsChildOf(base) || !tid.HasConstructor())
        {
            m_reader.Fail(JsonSchemaReader::Child(pointer, "type"),
                          "\"" + type + "\" is not a constructible subclass of " + baseType);
        }
    }
    out.typeName = type;
    out.pointer = pointer;
    TypeId tid;
    TypeId::LookupByNameFailSafe(type, &tid);

    // The settable attributes of the type and its parents, parents first.
    std::vector<TypeId> chain;
    for (TypeId t = tid;; t = t.GetParent())
    {
        chain.insert(chain.begin(), t);
        if (t.GetParent() == t)
        {
            break;
        }
    }
    std::vector<TypeId::AttributeInformation> attributes;
    std::vector<std::string> names;
    std::vector<std::string> owners; //!< the TypeId declaring each attribute
    for (const TypeId& t : chain)
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            const TypeId::AttributeInformation info = t.GetAttribute(i);
            if ((info.flags & TypeId::ATTR_CONSTRUCT) && !reserved.count(info.name) &&
                JsonAttributeConverter::IsSupported(info))
            {
                attributes.push_back(info);
                names.push_back(info.name);
                owners.push_back(t.GetName());
            }
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
            m_config.m_warnings.push_back("the command line's " + argument + " overrides " + p +
                                          " = " + it.value().dump() + " in " + m_config.m_source);
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
    m_config.m_effective[pointer.substr(1)] = eff;
}

/** "cc_hosts": [{"hosts": [host, ...], "cc": {"type": ..., attributes}}, ...]. */
void
ExperimentConfigParser::ParseCcHosts(const Json* entries, const std::string& pointer)
{
    m_config.m_ccOfHost.assign(m_config.m_topology.hosts.size(), -1);
    if (!entries)
    {
        return;
    }
    if (!entries->is_array())
    {
        m_reader.Fail(pointer, "expected an array of {\"hosts\": [...], \"cc\": {...}}");
    }
    OrderedJson eff = OrderedJson::array();
    for (std::size_t i = 0; i < entries->size(); ++i)
    {
        const Json& e = (*entries)[i];
        const std::string p = JsonSchemaReader::Child(pointer, i);
        m_reader.CheckKeys(e, p, {"hosts", "cc"});
        const Json* hosts = JsonSchemaReader::Find(e, "hosts");
        const std::string hp = JsonSchemaReader::Child(p, "hosts");
        if (!hosts || !hosts->is_array() || hosts->empty())
        {
            m_reader.Fail(hp, "expected a non-empty array of host names or indices");
        }
        const auto entry = static_cast<int32_t>(m_config.m_ccHosts.size());
        OrderedJson names = OrderedJson::array();
        for (std::size_t k = 0; k < hosts->size(); ++k)
        {
            const std::string kp = JsonSchemaReader::Child(hp, k);
            const uint32_t h = HostRef((*hosts)[k], kp);
            if (m_config.m_ccOfHost[h] >= 0)
            {
                m_reader.Fail(kp, "host " + m_config.m_topology.hosts[h] +
                                      " already has a congestion control in /cc_hosts");
            }
            m_config.m_ccOfHost[h] = entry;
            names.push_back(m_config.m_topology.hosts[h]);
        }
        ExperimentComponent cc;
        const std::string cp = JsonSchemaReader::Child(p, "cc");
        ParseComponent(JsonSchemaReader::Find(e, "cc"), cp, "ns3::RdmaDcqcn",
                       "ns3::RdmaCongestionOps", {}, cc);
        // ParseComponent files its effective section under the flat key; nest it.
        const std::string flat = cp.substr(1);
        eff.push_back(OrderedJson{{"hosts", names}, {"cc", m_config.m_effective[flat]}});
        m_config.m_effective.erase(flat);
        m_config.m_ccHosts.push_back(cc);
    }
    m_config.m_effective["cc_hosts"] = eff;
}

/**
 * What the congestion-control objects would abort on when a queue pair starts
 * (RdmaCongestionOps::CheckAttributes), found now: each host's algorithm is built
 * with its attributes and checked against the line rate of that host's link. The
 * error names the attribute's pointer and the field that set the line rate.
 */
void
ExperimentConfigParser::CheckCongestionControl(const Json& topology) const
{
    const ExperimentTopology& t = m_config.m_topology;
    const auto nHosts = static_cast<uint32_t>(t.hosts.size());
    std::vector<int64_t> linkOfHost(nHosts, -1);
    for (std::size_t k = 0; k < t.links.size(); ++k)
    {
        for (uint32_t end : {t.links[k].a, t.links[k].b})
        {
            if (end < nHosts && linkOfHost[end] < 0)
            {
                linkOfHost[end] = static_cast<int64_t>(k);
            }
        }
    }
    // Where the line rate of host h's link was set.
    auto rateOrigin = [&](uint32_t h) -> std::string
    {
        if (t.type == "custom")
        {
            const std::string lp = "/topology/links/" + std::to_string(linkOfHost[h]);
            const Json& link = topology.at("links").at(static_cast<std::size_t>(linkOfHost[h]));
            return JsonSchemaReader::Find(link, "rate") ? lp + "/rate"
                                                        : "/topology/link_rate (" + lp + ")";
        }
        if (t.type == "file")
        {
            const auto& eff = m_config.m_effective["topology"];
            return "link " + std::to_string(linkOfHost[h] + 1) + " of " +
                   (eff.contains("path") ? eff["path"].get<std::string>() : "the topology file") +
                   " (/topology/path)";
        }
        return JsonSchemaReader::Find(topology, "host_link_rate")
                   ? std::string("/topology/host_link_rate")
                   : "the default /topology/host_link_rate";
    };
    const std::vector<const ExperimentComponent*> components = [this]()
    {
        std::vector<const ExperimentComponent*> c{&m_config.m_cc};
        for (const ExperimentComponent& e : m_config.m_ccHosts)
        {
            c.push_back(&e);
        }
        return c;
    }();
    for (const ExperimentComponent* cc : components)
    {
        ObjectFactory factory(cc->typeName);
        for (const ExperimentAttribute& a : cc->attributes)
        {
            factory.Set(a.name, *a.value);
        }
        Ptr<RdmaCongestionOps> ops = factory.Create<RdmaCongestionOps>();
        std::set<uint64_t> checked;
        for (uint32_t h = 0; h < nHosts; ++h)
        {
            if (linkOfHost[h] < 0 || &m_config.GetCongestionControl(h) != cc)
            {
                continue;
            }
            const DataRate rate = t.links[linkOfHost[h]].rate;
            if (!checked.insert(rate.GetBitRate()).second)
            {
                continue;
            }
            std::string attribute;
            std::string reason;
            if (!ops->CheckAttributes(rate, attribute, reason))
            {
                const bool given = std::any_of(cc->attributes.begin(), cc->attributes.end(),
                                               [&attribute](const ExperimentAttribute& a)
                                               { return a.name == attribute; });
                m_reader.Fail(JsonSchemaReader::Child(cc->pointer, attribute),
                              reason + " (" +
                                  (given ? std::string("set here")
                                         : "not set in " + cc->pointer + ": the default of " +
                                               cc->typeName + "::" + attribute + ", or its --" +
                                               cc->typeName + "::" + attribute + " flag") +
                                  ")" +
                                  (reason.find("line rate") == std::string::npos
                                       ? std::string()
                                       : "; host " + t.hosts[h] + "'s link runs at " +
                                             JsonAttributeConverter::FormatDataRate(rate) +
                                             ", set by " + rateOrigin(h)));
            }
        }
        ops->Dispose();
    }
}

/**
 * The ports' Mtu (largest frame payload, i.e. IP packet) must carry the largest
 * packet a queue pair sends: IPv4 + UDP + BTH + RETH + ImmDt (+ the SRNIC
 * extension header when enabled) + qp Mtu payload bytes + ICRC. Nothing below
 * that limit would be enforced on the wire, so it is an error here.
 */
void
ExperimentConfigParser::CheckLinkMtu() const
{
    const OrderedJson& eff = m_config.m_effective;
    const uint64_t linkMtu = eff.at("link").at("Mtu").get<uint64_t>();
    const uint64_t qpMtu = eff.at("qp").at("Mtu").get<uint64_t>();
    uint64_t ext = 0;
    if (eff.at("qp").value("SrnicHeaderExtensions", false))
    {
        using Kind = RoceSrnicExtHeader::Kind;
        for (Kind k : {Kind::Send, Kind::Write, Kind::WriteReth, Kind::Echo, Kind::Read})
        {
            ext = std::max<uint64_t>(ext, RoceSrnicExtHeader::SizeOf(k));
        }
    }
    const uint64_t headers =
        Ipv4Header().GetSerializedSize() + UdpHeader().GetSerializedSize() +
        RoceBthHeader().GetSerializedSize() + RoceRethHeader().GetSerializedSize() +
        RoceImmDtHeader().GetSerializedSize() + ext + RoceIcrcTrailer().GetSerializedSize();
    if (linkMtu < qpMtu + headers)
    {
        m_reader.Fail("/link/Mtu",
                      "the ports' Mtu " + std::to_string(linkMtu) +
                          " B cannot carry the queue pairs' packets: /qp/Mtu " +
                          std::to_string(qpMtu) + " B of payload + " + std::to_string(headers) +
                          " B of IPv4, UDP, BTH, RETH, ImmDt" + (ext ? ", SRNIC extension" : "") +
                          " and ICRC need at least " + std::to_string(qpMtu + headers) +
                          " (allowed: [" + std::to_string(qpMtu + headers) +
                          ", 65535]; or lower /qp/Mtu, 256..4096)");
    }
}

// ------------------------------------------------------------------ flows

uint32_t
ExperimentConfigParser::HostRef(const Json& value, const std::string& pointer) const
{
    const auto& hosts = m_config.m_topology.hosts;
    const std::string known = "hosts are " +
                              (hosts.size() <= 8 ? JsonSchemaReader::JoinNames(hosts)
                                                 : hosts.front() + " .. " + hosts.back()) +
                              ", or indices 0.." + std::to_string(hosts.size() - 1);
    if (value.is_number_integer())
    {
        if (!value.is_number_unsigned() || value.get<uint64_t>() >= hosts.size())
        {
            m_reader.Fail(pointer, "host index " + value.dump() + " out of range (" + known + ")");
        }
        return static_cast<uint32_t>(value.get<uint64_t>());
    }
    if (value.is_string())
    {
        const std::string name = value.get<std::string>();
        auto it = m_hostIndex.find(name);
        if (it != m_hostIndex.end())
        {
            return it->second;
        }
        if (m_switchNames.count(name))
        {
            m_reader.Fail(pointer, "\"" + name + "\" is a switch, not a host (" + known + ")");
        }
        m_reader.Fail(pointer, "unknown host \"" + name + "\" (" + known + ")");
    }
    m_reader.Fail(pointer, "expected a host name or index, got " + value.dump());
}

ExperimentFlow
ExperimentConfigParser::ParseFlowCommon(const Json& object, const std::string& pointer,
                                        OrderedJson& effective) const
{
    ExperimentFlow f{};
    const bool stream = JsonSchemaReader::Find(object, "message_bytes") != nullptr;
    f.bytes = m_reader.GetUint(object, pointer, "bytes", std::nullopt, 1,
                               stream ? ExperimentConfig::MAX_STREAM_BYTES
                                      : ExperimentConfig::MAX_FLOW_BYTES);
    f.start = m_reader.GetTime(object, pointer, "start", "0us", Time(0));
    if (f.start >= m_config.m_stopTime)
    {
        m_reader.Fail(JsonSchemaReader::Child(pointer, "start"),
                      "flow starts at " + JsonAttributeConverter::FormatTime(f.start) +
                          ", not before stop_time " +
                          JsonAttributeConverter::FormatTime(m_config.m_stopTime));
    }
    f.priority = static_cast<uint8_t>(m_reader.GetUint(object, pointer, "priority", 3, 0, 7));
    const std::string verb = m_reader.GetString(object, pointer, "verb", "write", VERBS);
    ParseRdmaVerb(verb, f.verb);
    effective["bytes"] = f.bytes;
    effective["start"] = JsonAttributeConverter::FormatTime(f.start);
    effective["priority"] = f.priority;
    effective["verb"] = verb;
    if (stream)
    {
        f.messageBytes = m_reader.GetUint(object, pointer, "message_bytes", std::nullopt, 1,
                                          ExperimentConfig::MAX_FLOW_BYTES);
        f.outstanding = static_cast<uint32_t>(m_reader.GetUint(object, pointer, "outstanding", 1, 1,
                                                               ExperimentConfig::MAX_OUTSTANDING));
        std::string field;
        const std::string why =
            ExperimentConfig::CheckStream(f.bytes, f.messageBytes, f.outstanding, field);
        if (!why.empty())
        {
            m_reader.Fail(JsonSchemaReader::Child(pointer, field), why);
        }
        effective["message_bytes"] = f.messageBytes;
        effective["outstanding"] = f.outstanding;
    }
    else if (JsonSchemaReader::Find(object, "outstanding"))
    {
        m_reader.Fail(JsonSchemaReader::Child(pointer, "outstanding"),
                      "\"outstanding\" needs \"message_bytes\" (it bounds the messages of a "
                      "message stream in flight)");
    }
    f.origin = pointer;
    return f;
}

void
ExperimentConfigParser::AddFlow(ExperimentFlow flow, const std::string& pointer)
{
    if (flow.src == flow.dst)
    {
        m_reader.Fail(pointer, "src and dst are the same host (\"" +
                                   m_config.m_topology.hosts[flow.src] + "\")");
    }
    flow.id = static_cast<uint32_t>(m_config.m_flows.size());
    m_config.m_flows.push_back(flow);
}

void
ExperimentConfigParser::ParseFlows(const Json* flows, const std::string& pointer)
{
    OrderedJson eff = OrderedJson::array();
    if (flows)
    {
        if (!flows->is_array())
        {
            m_reader.Fail(pointer,
                          "expected an array of flows, got " + std::string(flows->type_name()));
        }
        for (std::size_t i = 0; i < flows->size(); ++i)
        {
            const Json& f = (*flows)[i];
            const std::string p = JsonSchemaReader::Child(pointer, i);
            m_reader.CheckKeys(f, p,
                               {"src", "dst", "bytes", "start", "priority", "verb", "message_bytes",
                                "outstanding"});
            OrderedJson e;
            ExperimentFlow flow{};
            for (const char* end : {"src", "dst"})
            {
                const Json* v = JsonSchemaReader::Find(f, end);
                if (!v)
                {
                    m_reader.Fail(JsonSchemaReader::Child(p, end),
                                  std::string("missing required field \"") + end +
                                      "\" (a host name or index)");
                }
                const uint32_t h = HostRef(*v, JsonSchemaReader::Child(p, end));
                (std::string(end) == "src" ? flow.src : flow.dst) = h;
                e[end] = m_config.m_topology.hosts[h];
            }
            const ExperimentFlow common = ParseFlowCommon(f, p, e);
            flow.bytes = common.bytes;
            flow.start = common.start;
            flow.priority = common.priority;
            flow.verb = common.verb;
            flow.messageBytes = common.messageBytes;
            flow.outstanding = common.outstanding;
            flow.origin = p;
            AddFlow(flow, JsonSchemaReader::Child(p, "dst"));
            eff.push_back(e);
        }
    }
    m_config.m_effective["flows"] = eff;
}

void
ExperimentConfigParser::ParseFlowSets(const Json* sets, const std::string& pointer)
{
    OrderedJson eff = OrderedJson::array();
    const auto nHosts = static_cast<uint32_t>(m_config.m_topology.hosts.size());
    if (sets)
    {
        if (!sets->is_array())
        {
            m_reader.Fail(pointer,
                          "expected an array of flow sets, got " + std::string(sets->type_name()));
        }
        for (std::size_t i = 0; i < sets->size(); ++i)
        {
            const Json& s = (*sets)[i];
            const std::string p = JsonSchemaReader::Child(pointer, i);
            m_reader.RequireObject(s, p);
            const std::string type = m_reader.GetString(s, p, "type", std::nullopt,
                                                        {"incast", "permutation_background"});
            OrderedJson e;
            e["type"] = type;
            if (type == "incast")
            {
                m_reader.CheckKeys(s, p,
                                   {"type", "senders", "dst", "bytes", "start", "priority", "verb",
                                    "message_bytes", "outstanding"});
                const Json* dstValue = JsonSchemaReader::Find(s, "dst");
                if (!dstValue)
                {
                    m_reader.Fail(JsonSchemaReader::Child(p, "dst"),
                                  "missing required field \"dst\" (a host name or index)");
                }
                const uint32_t dst = HostRef(*dstValue, JsonSchemaReader::Child(p, "dst"));
                std::vector<uint32_t> senders;
                const Json* sv = JsonSchemaReader::Find(s, "senders");
                if (!sv || (sv->is_string() && sv->get<std::string>() == "all_but_dst"))
                {
                    for (uint32_t h = 0; h < nHosts; ++h)
                    {
                        if (h != dst)
                        {
                            senders.push_back(h);
                        }
                    }
                    e["senders"] = "all_but_dst";
                }
                else if (sv->is_array() && !sv->empty())
                {
                    OrderedJson names = OrderedJson::array();
                    for (std::size_t j = 0; j < sv->size(); ++j)
                    {
                        const uint32_t h = HostRef(
                            (*sv)[j],
                            JsonSchemaReader::Child(JsonSchemaReader::Child(p, "senders"), j));
                        if (h == dst)
                        {
                            m_reader.Fail(
                                JsonSchemaReader::Child(JsonSchemaReader::Child(p, "senders"), j),
                                "sender \"" + m_config.m_topology.hosts[h] +
                                    "\" is the incast's dst");
                        }
                        senders.push_back(h);
                        names.push_back(m_config.m_topology.hosts[h]);
                    }
                    e["senders"] = names;
                }
                else
                {
                    m_reader.Fail(JsonSchemaReader::Child(p, "senders"),
                                  "expected a non-empty array of hosts or \"all_but_dst\", got " +
                                      sv->dump());
                }
                e["dst"] = m_config.m_topology.hosts[dst];
                const ExperimentFlow common = ParseFlowCommon(s, p, e);
                for (uint32_t src : senders)
                {
                    ExperimentFlow f = common;
                    f.src = src;
                    f.dst = dst;
                    AddFlow(f, JsonSchemaReader::Child(p, "dst"));
                }
            }
            else
            {
                m_reader.CheckKeys(
                    s, p,
                    {"type", "bytes", "start", "priority", "verb", "message_bytes", "outstanding"});
                if (nHosts < 2)
                {
                    m_reader.Fail(p, "a permutation needs at least two hosts");
                }
                const ExperimentFlow common = ParseFlowCommon(s, p, e);
                // Sattolo's algorithm gives a single-cycle permutation, hence no
                // host sends to itself. A local mt19937_64 (fully specified by the
                // C++ standard) seeded from the experiment seed and the set's index
                // keeps configuration loading free of ns-3's global RNG state.
                std::vector<uint32_t> perm(nHosts);
                for (uint32_t h = 0; h < nHosts; ++h)
                {
                    perm[h] = h;
                }
                std::mt19937_64 rng(uint64_t{m_config.m_seed} * 1000003ULL + i);
                for (uint32_t k = nHosts - 1; k > 0; --k)
                {
                    const auto j = static_cast<uint32_t>(rng() % k);
                    std::swap(perm[k], perm[j]);
                }
                for (uint32_t h = 0; h < nHosts; ++h)
                {
                    ExperimentFlow f = common;
                    f.src = h;
                    f.dst = perm[h];
                    AddFlow(f, p);
                }
            }
            eff.push_back(e);
        }
    }
    m_config.m_effective["flow_sets"] = eff;
}

void
ExperimentConfigParser::ParseMonitors(const Json* monitors, const std::string& pointer)
{
    static const Json empty = Json::object();
    const Json& m = monitors ? *monitors : empty;
    m_reader.CheckKeys(
        m, pointer,
        {"queue_interval", "rate_interval", "buffer_interval", "watermark_mode", "deadlock"});
    OrderedJson eff;
    for (const char* key : {"queue_interval", "rate_interval", "buffer_interval"})
    {
        Time t(0);
        if (JsonSchemaReader::Find(m, key))
        {
            t = m_reader.GetTime(m, pointer, key, std::nullopt, NanoSeconds(1));
            eff[key] = JsonAttributeConverter::FormatTime(t);
        }
        else
        {
            eff[key] = nullptr;
        }
        const std::string k(key);
        (k == "queue_interval"  ? m_config.m_monitors.queueInterval
         : k == "rate_interval" ? m_config.m_monitors.rateInterval
                                : m_config.m_monitors.bufferInterval) = t;
    }
    // SONiC watermark counters: "periodic" ones are cleared after every read,
    // "persistent" ones only by the user (here: never during the run).
    const std::string mode =
        m_reader.GetString(m, pointer, "watermark_mode", "periodic", {"periodic", "persistent"});
    if (mode == "persistent" && m_config.m_monitors.bufferInterval.IsZero())
    {
        m_reader.Fail(pointer + "/watermark_mode",
                      "needs buffer_interval (watermarks are written by the buffer monitor)");
    }
    m_config.m_monitors.clearWatermarks = mode == "periodic";
    eff["watermark_mode"] = mode;
    m_config.m_effective["monitors"] = eff;
}

// ------------------------------------------------------------------ traces and workloads

void
ExperimentConfigParser::ParseFlowsFile(const Json* file, const std::string& pointer)
{
    if (!file)
    {
        m_config.m_effective["flows_file"] = nullptr;
        return;
    }
    m_reader.CheckKeys(*file, pointer, {"path", "format", "time_origin"});
    const std::string path = ExperimentTopology::ResolvePath(
        m_reader.GetFile(), m_reader.GetString(*file, pointer, "path", std::nullopt, {}));
    const std::string format = m_reader.GetString(*file, pointer, "format", "csv", {"csv", "hpcc"});
    const Time origin = m_reader.GetTime(*file, pointer, "time_origin", "0ns", Time(0));
    std::ifstream probe(path, std::ios::binary);
    if (!probe)
    {
        m_reader.Fail(JsonSchemaReader::Child(pointer, "path"),
                      "cannot open the flows file \"" + path + "\"");
    }
    const std::string text = FlowTrace::ReadWholeFile(path, "flows file");
    const ExperimentTopology& topo = m_config.m_topology;
    const auto nHosts = static_cast<uint32_t>(topo.hosts.size());
    std::vector<ExperimentFlow> flows;
    if (format == "csv")
    {
        flows = FlowTrace::ReadCsv(text, path, nHosts);
        for (auto& f : flows)
        {
            if (f.start < origin)
            {
                throw ExperimentConfigError(f.origin, "",
                                            "the flow starts before /flows_file/time_origin");
            }
            f.start -= origin;
        }
    }
    else
    {
        // Without an HPCC topology, HPCC node id i is host i.
        std::vector<int64_t> hostOfNode = topo.hpccHostOfNode;
        if (hostOfNode.empty())
        {
            for (uint32_t h = 0; h < nHosts; ++h)
            {
                hostOfNode.push_back(h);
            }
        }
        flows = FlowTrace::ReadHpcc(text, path, hostOfNode, origin);
    }
    for (ExperimentFlow& f : flows)
    {
        if (f.start >= m_config.m_stopTime)
        {
            throw ExperimentConfigError(
                f.origin, "",
                "the flow starts at " + JsonAttributeConverter::FormatTime(f.start) +
                    " (after subtracting time_origin), not before stop_time " +
                    JsonAttributeConverter::FormatTime(m_config.m_stopTime) + " of " +
                    m_reader.GetFile());
        }
        AddFlow(f, pointer);
    }
    OrderedJson eff;
    eff["path"] = path;
    eff["format"] = format;
    eff["time_origin"] = JsonAttributeConverter::FormatTime(origin);
    m_config.m_effective["flows_file"] = eff;
}

void
ExperimentConfigParser::ParseWorkload(const Json* workload, const std::string& pointer)
{
    if (!workload)
    {
        m_config.m_effective["workload"] = nullptr;
        return;
    }
    m_reader.CheckKeys(*workload, pointer,
                       {"type", "cdf", "cdf_format", "load", "duration", "start", "priority",
                        "verb", "host_link_rate", "load_reference"});
    m_reader.GetString(*workload, pointer, "type", std::nullopt, {"poisson"});
    const std::string cdfPath = ExperimentTopology::ResolvePath(
        m_reader.GetFile(), m_reader.GetString(*workload, pointer, "cdf", std::nullopt, {}));
    const std::string cdfFormatName =
        m_reader.GetString(*workload, pointer, "cdf_format", "auto", {"auto", "percent", "cdf"});
    FlowSizeCdf::Format cdfFormat;
    FlowSizeCdf::ParseFormat(cdfFormatName, cdfFormat);
    const std::string lp = JsonSchemaReader::Child(pointer, "load");
    const Json* loadValue = JsonSchemaReader::Find(*workload, "load");
    if (!loadValue)
    {
        m_reader.Fail(lp, "missing required field \"load\" (fraction of the host link rate, "
                          "in (0, 10])");
    }
    if (!loadValue->is_number() || loadValue->get<double>() <= 0 || loadValue->get<double>() > 10)
    {
        m_reader.Fail(lp, "expected a number in (0, 10] (fraction of the host link rate), got " +
                              loadValue->dump());
    }
    const double load = loadValue->get<double>();
    const Time duration =
        m_reader.GetTime(*workload, pointer, "duration", std::nullopt, PicoSeconds(1));
    const Time start = m_reader.GetTime(*workload, pointer, "start", "0ns", Time(0));
    if (start + duration > m_config.m_stopTime)
    {
        m_reader.Fail(JsonSchemaReader::Child(pointer, "duration"),
                      "arrivals end at start + duration = " +
                          JsonAttributeConverter::FormatTime(start + duration) +
                          ", after stop_time " +
                          JsonAttributeConverter::FormatTime(m_config.m_stopTime));
    }
    const auto priority =
        static_cast<uint8_t>(m_reader.GetUint(*workload, pointer, "priority", 3, 0, 7));
    const std::string verbName = m_reader.GetString(*workload, pointer, "verb", "write", VERBS);
    RdmaVerb verb;
    ParseRdmaVerb(verbName, verb);
    const ExperimentTopology& topo = m_config.m_topology;
    if (topo.hosts.size() < 2)
    {
        m_reader.Fail(pointer, "a workload needs at least two hosts");
    }
    // Default: the rate of the first host's link.
    DataRate hostRate;
    for (const ExperimentLink& l : topo.links)
    {
        if (l.a == 0 || l.b == 0)
        {
            hostRate = l.rate;
            break;
        }
    }
    hostRate = m_reader.GetRate(*workload, pointer, "host_link_rate",
                                JsonAttributeConverter::FormatDataRate(hostRate));
    std::ifstream probe(cdfPath, std::ios::binary);
    if (!probe)
    {
        m_reader.Fail(JsonSchemaReader::Child(pointer, "cdf"),
                      "cannot open the flow-size distribution \"" + cdfPath + "\"");
    }
    const FlowSizeCdf cdf = FlowSizeCdf::LoadFile(cdfPath, cdfFormat);
    // Sizes above the flow limit would be cut to it while the arrival rate still
    // follows the file's mean: load and size mix would differ from the file.
    for (std::size_t i = 0; i < cdf.GetPoints().size(); ++i)
    {
        if (cdf.GetPoints()[i].bytes > ExperimentConfig::MAX_FLOW_BYTES)
        {
            std::ostringstream size;
            size.precision(17);
            size << cdf.GetPoints()[i].bytes;
            throw ExperimentConfigError(
                cdfPath, cdf.GetLine(i), 1,
                "flow size " + size.str() + " bytes exceeds the largest flow, " +
                    std::to_string(ExperimentConfig::MAX_FLOW_BYTES) +
                    " bytes (1 GiB); the distribution of " + m_reader.GetFile() +
                    " /workload/cdf must stay within it (scale the sizes or cut the tail and "
                    "renormalize)");
        }
    }
    const std::string loadReference = m_reader.GetString(*workload, pointer, "load_reference",
                                                         "host_link", {"host_link", "bisection"});
    const DataRate bisection =
        loadReference == "bisection" ? FabricBisection::Compute(topo) : DataRate(0);

    // ns-3 random streams take the seed from RngSeedManager; set the
    // experiment's seed only while the streams are created, so that loading a
    // configuration leaves the global seed as it found it.
    const uint32_t savedSeed = RngSeedManager::GetSeed();
    RngSeedManager::SetSeed(m_config.m_seed);
    Ptr<PoissonFlowGenerator> generator = CreateObject<PoissonFlowGenerator>();
    generator->SetAttribute("Load", DoubleValue(load));
    generator->SetAttribute("HostRate", DataRateValue(hostRate));
    generator->SetAttribute("BisectionRate", DataRateValue(bisection));
    generator->SetAttribute("Start", TimeValue(start));
    generator->SetAttribute("Duration", TimeValue(duration));
    generator->SetAttribute("Priority", UintegerValue(priority));
    generator->SetSizeDistribution(cdf);
    generator->AssignStreams(ExperimentConfig::WORKLOAD_STREAM);
    RngSeedManager::SetSeed(savedSeed);
    std::vector<ExperimentFlow> flows =
        generator->Generate(static_cast<uint32_t>(topo.hosts.size()));
    generator->Dispose();
    for (ExperimentFlow& f : flows)
    {
        f.verb = verb;
        f.origin = pointer;
        AddFlow(f, pointer);
    }
    OrderedJson eff;
    eff["type"] = "poisson";
    eff["cdf"] = cdfPath;
    eff["cdf_format"] = cdfFormatName;
    eff["load"] = load;
    eff["duration"] = JsonAttributeConverter::FormatTime(duration);
    eff["start"] = JsonAttributeConverter::FormatTime(start);
    eff["priority"] = priority;
    eff["verb"] = verbName;
    eff["host_link_rate"] = JsonAttributeConverter::FormatDataRate(hostRate);
    eff["load_reference"] = loadReference;
    m_config.m_effective["workload"] = eff;
}

// ------------------------------------------------------------------ buffers

/** "buffer" (with "config_db") and "buffer_switches" (SwitchBufferAssignment). */
void
ExperimentConfigParser::ParseBuffers(const Json& root)
{
    const Json* buffer = JsonSchemaReader::Find(root, "buffer");
    std::vector<std::string> unmodelled;
    const Json resolved = buffer ? SwitchBufferAssignment::ResolveConfigDb(
                                       m_reader, *buffer, "/buffer",
                                       "ns3::DynamicThresholdBufferManager", &unmodelled)
                                 : Json();
    ParseComponent(buffer ? &resolved : nullptr, "/buffer", "ns3::DynamicThresholdBufferManager",
                   "ns3::BufferManager", {}, m_config.m_buffer);
    auto parse = [this](const Json* section, const std::string& pointer,
                        const std::string& defaultType, ExperimentComponent& out,
                        OrderedJson& effective)
    {
        ParseComponent(section, pointer, defaultType, "ns3::BufferManager", {}, out);
        // ParseComponent files its effective section under the flat key; hand it over.
        const std::string flat = pointer.substr(1);
        effective = m_config.m_effective[flat];
        m_config.m_effective.erase(flat);
    };
    OrderedJson effective;
    SwitchBufferAssignment::Parse(m_reader, JsonSchemaReader::Find(root, "buffer_switches"),
                                  "/buffer_switches", m_config.m_topology,
                                  m_config.m_buffer.typeName, parse, m_config.m_bufferSwitches,
                                  m_config.m_bufferOfSwitch, effective, &unmodelled);
    if (!m_config.m_bufferSwitches.empty())
    {
        m_config.m_effective["buffer_switches"] = effective;
    }
    // One line for the run, however many sections and files.
    std::string line;
    for (const std::string& part : unmodelled)
    {
        line += (line.empty() ? "" : "; ") + part;
    }
    if (!line.empty())
    {
        m_config.m_warnings.push_back("SONiC config_db tables and fields not modelled (ignored): " +
                                      line);
    }
}

// ------------------------------------------------------------------ root

void
ExperimentConfigParser::Parse(const Json& root)
{
    m_reader.CheckKeys(root, "",
                       {"description",
                        "seed",
                        "stop_time",
                        "progress",
                        "scheduler",
                        "topology",
                        "nic",
                        "switch",
                        "link",
                        "buffer",
                        "buffer_switches",
                        "ecn",
                        "cc",
                        "cc_hosts",
                        "loss_recovery",
                        "qp",
                        "flows",
                        "flow_sets",
                        "flows_file",
                        "workload",
                        "monitors",
                        "pfc_watchdog",
                        "outputs",
                        "faults",
                        "nodes",
                        "pcap",
                        "plots",
                        "non_default_attributes"});
    OrderedJson& eff = m_config.m_effective;
    if (JsonSchemaReader::Find(root, "description"))
    {
        eff["description"] = m_reader.GetString(root, "", "description", std::nullopt, {});
    }
    m_config.m_seed =
        static_cast<uint32_t>(m_reader.GetUint(root, "", "seed", 1, 1, 4294967295ULL));
    m_config.m_stopTime = m_reader.GetTime(root, "", "stop_time", "100ms", NanoSeconds(1));
    m_config.m_progress = m_reader.GetBool(root, "", "progress", true);
    eff["seed"] = m_config.m_seed;
    eff["stop_time"] = JsonAttributeConverter::FormatTime(m_config.m_stopTime);
    eff["progress"] = m_config.m_progress;
    // The event queue changes only the speed: every ns-3 scheduler orders events
    // by (time, insertion order), so outputs are the same with each of them.
    m_config.m_scheduler =
        m_reader.GetString(root, "", "scheduler", "ns3::PriorityQueueScheduler",
                           {"ns3::PriorityQueueScheduler", "ns3::MapScheduler",
                            "ns3::HeapScheduler", "ns3::CalendarScheduler", "ns3::ListScheduler"});
    eff["scheduler"] = m_config.m_scheduler;

    const Json* topo = JsonSchemaReader::Find(root, "topology");
    if (!topo)
    {
        m_reader.Fail("/topology",
                      "missing required field \"topology\" (an object with \"type\": \"dumbbell\", "
                      "\"incast\", \"leaf_spine\", \"custom\" or \"file\")");
    }
    m_config.m_topology =
        ExperimentTopology::Parse(m_reader, *topo, "/topology", m_config.m_effective["topology"]);
    for (uint32_t i = 0; i < m_config.m_topology.hosts.size(); ++i)
    {
        m_hostIndex[m_config.m_topology.hosts[i]] = i;
    }
    m_switchNames.insert(m_config.m_topology.switches.begin(), m_config.m_topology.switches.end());

    ParseComponent(JsonSchemaReader::Find(root, "nic"), "/nic", "ns3::RdmaNic", "",
                   {{"CongestionControl", "choose it with /cc/type"},
                    {"LossRecovery", "choose it with /loss_recovery/type"}},
                   m_config.m_nic);
    ParseComponent(JsonSchemaReader::Find(root, "switch"), "/switch", "ns3::DcbSwitch", "", {},
                   m_config.m_switch);
    ParseComponent(JsonSchemaReader::Find(root, "link"), "/link", "ns3::DcbNetDevice", "",
                   {{"DataRate", "link rates come from /topology"}}, m_config.m_link);
    ParseBuffers(root);
    {
        // "/ecn" less its "by_link_rate" table, which EcnLinkRateTable reads.
        const Json* ecn = JsonSchemaReader::Find(root, "ecn");
        Json attributes = ecn ? *ecn : Json::object();
        Json byRate; // null: absent
        if (attributes.is_object() && attributes.contains(EcnLinkRateTable::KEY))
        {
            byRate = attributes[EcnLinkRateTable::KEY];
            attributes.erase(EcnLinkRateTable::KEY);
        }
        ParseComponent(ecn ? &attributes : nullptr, "/ecn", "ns3::RedEcnMarker", "ns3::EcnMarker",
                       {}, m_config.m_ecn);
        OrderedJson table = OrderedJson::object();
        m_config.m_ecnByLinkRate = EcnLinkRateTable::Parse(
            m_reader, byRate.is_null() ? nullptr : &byRate,
            JsonSchemaReader::Child("/ecn", EcnLinkRateTable::KEY), m_config.m_ecn,
            m_config.m_topology, m_commandLine, table, m_config.m_warnings);
        if (!table.empty())
        {
            m_config.m_effective["ecn"][EcnLinkRateTable::KEY] = table;
        }
    }
    ParseComponent(JsonSchemaReader::Find(root, "cc"), "/cc", "ns3::RdmaDcqcn",
                   "ns3::RdmaCongestionOps", {}, m_config.m_cc);
    ParseCcHosts(JsonSchemaReader::Find(root, "cc_hosts"), "/cc_hosts");
    CheckCongestionControl(*topo);
    ParseComponent(JsonSchemaReader::Find(root, "loss_recovery"), "/loss_recovery",
                   "ns3::RdmaGoBackN", "ns3::RdmaLossRecovery", {}, m_config.m_lossRecovery);
    ParseComponent(JsonSchemaReader::Find(root, "qp"), "/qp", "ns3::RdmaQueuePair", "",
                   {{"Dscp", "each flow's priority p sets DSCP 8p+2"}}, m_config.m_qp);
    CheckLinkMtu();

    ParseFlows(JsonSchemaReader::Find(root, "flows"), "/flows");
    ParseFlowSets(JsonSchemaReader::Find(root, "flow_sets"), "/flow_sets");
    ParseFlowsFile(JsonSchemaReader::Find(root, "flows_file"), "/flows_file");
    ParseWorkload(JsonSchemaReader::Find(root, "workload"), "/workload");
    if (m_config.m_flows.empty())
    {
        m_reader.Fail("/flows", "the experiment has no flows (give \"flows\", \"flow_sets\", "
                                "\"flows_file\" or \"workload\")");
    }
    ParseMonitors(JsonSchemaReader::Find(root, "monitors"), "/monitors");
    PfcSafetyConfigReader::Read(
        m_reader, root,
        [this](const Json* s, const std::string& p, const std::string& t, ExperimentComponent& c)
        { ParseComponent(s, p, t, "", {}, c); },
        m_config.m_effective, m_config.m_pfcSafety, m_config.m_deadlockMonitor,
        m_config.m_pfcWatchdog);
    // "outputs": optional files in other tools' formats (HpccOutputWriter).
    static const Json noOutputs = Json::object();
    const Json* outputs = JsonSchemaReader::Find(root, "outputs");
    m_reader.CheckKeys(outputs ? *outputs : noOutputs, "/outputs", {"hpcc", "pfc_events"});
    m_config.m_outputs.hpcc =
        m_reader.GetBool(outputs ? *outputs : noOutputs, "/outputs", "hpcc", false);
    m_config.m_outputs.pfcEvents =
        m_reader.GetBool(outputs ? *outputs : noOutputs, "/outputs", "pfc_events", false);
    eff["outputs"] = OrderedJson{{"hpcc", m_config.m_outputs.hpcc},
                                 {"pfc_events", m_config.m_outputs.pfcEvents}};
    // "pcap": packet captures of chosen ports (PcapSelection).
    m_config.m_pcap = PcapSelection::Read(m_reader, JsonSchemaReader::Find(root, "pcap"), "/pcap",
                                          m_config.m_topology, eff["pcap"]);
    // "faults": random loss and timed faults (FaultPlan; applied by FaultInjector).
    m_config.m_faults =
        FaultPlan::Parse(m_reader, JsonSchemaReader::Find(root, "faults"), "/faults",
                         m_config.m_topology, m_config.m_stopTime, eff["faults"]);
    // "nodes": per-host NIC profile, host model and NIC cache (NodeCompositionReader).
    OrderedJson nodes;
    m_config.m_nodes = NodeCompositionReader::Read(
        m_reader, JsonSchemaReader::Find(root, "nodes"), "/nodes", m_config.m_topology,
        [this](const Json* s, const std::string& p, const std::string& t, const std::string& b,
               ExperimentComponent& c)
        {
            ParseComponent(s, p, t, b, {}, c);
            const OrderedJson e = m_config.m_effective[p.substr(1)];
            m_config.m_effective.erase(p.substr(1));
            return e;
        },
        nodes);
    if (!nodes.is_null())
    {
        eff["nodes"] = nodes;
    }

    // "plots": figures ./roce-lab run makes after the run (analysis/roce_lab.py
    // PLOTS, whose keys are PLOT_NAMES; analysis/test_roce_lab.py checks that the
    // two lists agree); the simulation ignores them, but a misspelt name is an error
    // here too, so that roce-run alone does not accept it.
    if (const Json* plots = JsonSchemaReader::Find(root, "plots"))
    {
        const std::string allowed = JsonSchemaReader::JoinNames(
            std::vector<std::string>(PLOT_NAMES.begin(), PLOT_NAMES.end()));
        if (!plots->is_array())
        {
            m_reader.Fail("/plots", "must be an array of plot names (" + allowed + ")");
        }
        for (std::size_t i = 0; i < plots->size(); ++i)
        {
            const Json& name = (*plots)[i];
            if (!name.is_string() || !PLOT_NAMES.count(name.get<std::string>()))
            {
                m_reader.Fail(JsonSchemaReader::Child("/plots", i),
                              "unknown plot " + name.dump() + " (allowed: " + allowed + ")");
            }
        }
        eff["plots"] = *plots;
    }
    // "non_default_attributes": what a run's config.json records about its objects
    // (ExperimentRunner); reloading that file ignores it, the sections above
    // configure the same objects.
    if (const Json* recorded = JsonSchemaReader::Find(root, "non_default_attributes"))
    {
        m_reader.RequireObject(*recorded, "/non_default_attributes");
    }
}

// ------------------------------------------------------------------ ExperimentConfig

ExperimentConfig
ExperimentConfig::LoadFile(const std::string& path, const CommandLineAttributes& commandLine)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw ExperimentConfigError(path, "", "cannot open the file");
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (HpccConfigTranslator::IsHpccConfig(text.str()))
    {
        return LoadString(HpccConfigTranslator::Translate(text.str(), path).dump(2), path,
                          commandLine);
    }
    return LoadString(text.str(), path, commandLine);
}

ExperimentConfig
ExperimentConfig::LoadString(const std::string& text, const std::string& name,
                             const CommandLineAttributes& commandLine)
{
    const JsonSchemaReader reader(name);
    const nlohmann::json root = reader.ParseText(text);
    ExperimentConfig config;
    config.m_source = name;
    ExperimentConfigParser parser(reader, config, commandLine);
    parser.Parse(root);
    return config;
}

const std::string&
ExperimentConfig::GetSource() const
{
    return m_source;
}

uint32_t
ExperimentConfig::GetSeed() const
{
    return m_seed;
}

Time
ExperimentConfig::GetStopTime() const
{
    return m_stopTime;
}

bool
ExperimentConfig::GetProgress() const
{
    return m_progress;
}

const std::string&
ExperimentConfig::GetScheduler() const
{
    return m_scheduler;
}

const ExperimentTopology&
ExperimentConfig::GetTopology() const
{
    return m_topology;
}

const ExperimentComponent&
ExperimentConfig::GetNic() const
{
    return m_nic;
}

const ExperimentComponent&
ExperimentConfig::GetSwitch() const
{
    return m_switch;
}

const ExperimentComponent&
ExperimentConfig::GetLink() const
{
    return m_link;
}

const std::vector<std::string>&
ExperimentConfig::GetWarnings() const
{
    return m_warnings;
}

const ExperimentComponent&
ExperimentConfig::GetBuffer() const
{
    return m_buffer;
}

const ExperimentComponent&
ExperimentConfig::GetBuffer(uint32_t sw) const
{
    return sw < m_bufferOfSwitch.size() && m_bufferOfSwitch[sw] >= 0
               ? m_bufferSwitches[m_bufferOfSwitch[sw]]
               : m_buffer;
}

const ExperimentComponent&
ExperimentConfig::GetEcn() const
{
    return m_ecn;
}

const std::vector<EcnLinkRateEntry>&
ExperimentConfig::GetEcnByLinkRate() const
{
    return m_ecnByLinkRate;
}

const ExperimentComponent&
ExperimentConfig::GetCongestionControl() const
{
    return m_cc;
}

const ExperimentComponent&
ExperimentConfig::GetCongestionControl(uint32_t host) const
{
    return host < m_ccOfHost.size() && m_ccOfHost[host] >= 0 ? m_ccHosts[m_ccOfHost[host]] : m_cc;
}

const ExperimentComponent&
ExperimentConfig::GetLossRecovery() const
{
    return m_lossRecovery;
}

const ExperimentComponent&
ExperimentConfig::GetQueuePair() const
{
    return m_qp;
}

std::string
ExperimentConfig::CheckStream(uint64_t bytes, uint64_t messageBytes, uint64_t outstanding,
                              std::string& field)
{
    if (bytes < 1 || bytes > MAX_STREAM_BYTES)
    {
        field = "bytes";
        return "a message stream's total must be in [1, " + std::to_string(MAX_STREAM_BYTES) +
               "] bytes, got " + std::to_string(bytes);
    }
    if (messageBytes < 1 || messageBytes > MAX_FLOW_BYTES)
    {
        field = "message_bytes";
        return "must be in [1, " + std::to_string(MAX_FLOW_BYTES) + "] bytes, got " +
               std::to_string(messageBytes);
    }
    if (messageBytes > bytes)
    {
        field = "message_bytes";
        return "message_bytes " + std::to_string(messageBytes) + " exceeds the flow's bytes " +
               std::to_string(bytes);
    }
    if (outstanding < 1 || outstanding > MAX_OUTSTANDING)
    {
        field = "outstanding";
        return "must be in [1, " + std::to_string(MAX_OUTSTANDING) + "], got " +
               std::to_string(outstanding);
    }
    if (outstanding * messageBytes > MAX_FLOW_BYTES)
    {
        field = "outstanding";
        return "outstanding x message_bytes = " + std::to_string(outstanding * messageBytes) +
               " bytes in flight exceeds " + std::to_string(MAX_FLOW_BYTES) +
               " (keeps the PSNs in flight inside the 24-bit PSN window)";
    }
    field.clear();
    return "";
}

const std::vector<ExperimentFlow>&
ExperimentConfig::GetFlows() const
{
    return m_flows;
}

const ExperimentPfcSafety&
ExperimentConfig::GetPfcSafety() const
{
    return m_pfcSafety;
}

const ExperimentComponent&
ExperimentConfig::GetDeadlockMonitor() const
{
    return m_deadlockMonitor;
}

const ExperimentComponent&
ExperimentConfig::GetPfcWatchdog() const
{
    return m_pfcWatchdog;
}

const ExperimentMonitors&
ExperimentConfig::GetMonitors() const
{
    return m_monitors;
}

const FaultPlan&
ExperimentConfig::GetFaults() const
{
    return m_faults;
}

const NodeComposition&
ExperimentConfig::GetNodes() const
{
    return m_nodes;
}

const ExperimentOutputs&
ExperimentConfig::GetOutputs() const
{
    return m_outputs;
}

const PcapSelection&
ExperimentConfig::GetPcap() const
{
    return m_pcap;
}

const nlohmann::ordered_json&
ExperimentConfig::EffectiveJson() const
{
    return m_effective;
}

} // namespace ns3
