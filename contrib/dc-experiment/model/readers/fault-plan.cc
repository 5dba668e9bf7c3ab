#include "fault-plan.h"

#include "ns3/json-attribute-converter.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace ns3
{

namespace
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

const std::vector<std::pair<FaultKind, std::string>> KINDS = {
    {FaultKind::LinkDown, "link_down"}, {FaultKind::LinkUp, "link_up"},
    {FaultKind::LinkRate, "link_rate"}, {FaultKind::HostRate, "host_rate"},
    {FaultKind::PcieRate, "pcie_rate"}, {FaultKind::NicDown, "nic_down"},
    {FaultKind::NicUp, "nic_up"},
};

/** Resolves node names and link pairs of one topology, with located errors. */
class LinkResolver
{
  public:
    LinkResolver(const JsonSchemaReader& reader, const ExperimentTopology& topology)
        : m_reader(reader)
        , m_topology(topology)
    {
        for (uint32_t i = 0; i < topology.GetNNodes(); ++i)
        {
            m_nodes[topology.GetNodeName(i)] = i;
        }
    }

    bool IsHost(uint32_t node) const { return node < m_topology.hosts.size(); }

    uint32_t Node(const Json& value, const std::string& pointer) const
    {
        if (!value.is_string())
        {
            m_reader.Fail(pointer, "expected a node name, got " + value.dump());
        }
        m_reader.CheckNoNul(value, pointer);
        auto it = m_nodes.find(value.get<std::string>());
        if (it == m_nodes.end())
        {
            m_reader.Fail(pointer, "no host or switch named " + value.dump() + " in the topology");
        }
        return it->second;
    }

    uint32_t Host(const Json& value, const std::string& pointer) const
    {
        const uint32_t n = Node(value, pointer);
        if (!IsHost(n))
        {
            m_reader.Fail(pointer, value.dump() + " is a switch; expected a host name");
        }
        return n;
    }

    /** The links between the two nodes of the pair \p value (at least one). */
    std::vector<uint32_t> Pair(const Json& value, const std::string& pointer) const
    {
        if (!value.is_array() || value.size() != 2)
        {
            m_reader.Fail(pointer, "expected a link as the pair of its end nodes, e.g. "
                                   "[\"s0\", \"s4\"], got " +
                                       value.dump());
        }
        const uint32_t a = Node(value[0], JsonSchemaReader::Child(pointer, 0));
        const uint32_t b = Node(value[1], JsonSchemaReader::Child(pointer, 1));
        std::vector<uint32_t> links;
        for (uint32_t i = 0; i < m_topology.links.size(); ++i)
        {
            const ExperimentLink& l = m_topology.links[i];
            if ((l.a == a && l.b == b) || (l.a == b && l.b == a))
            {
                links.push_back(i);
            }
        }
        if (links.empty())
        {
            m_reader.Fail(pointer, "no link between " + value[0].dump() + " and " +
                                       value[1].dump() + " in the topology");
        }
        return links;
    }

    const std::string& Role(uint32_t node) const
    {
        static const std::string none;
        const uint32_t s = node - static_cast<uint32_t>(m_topology.hosts.size());
        return s < m_topology.switchRoles.size() ? m_topology.switchRoles[s] : none;
    }

  private:
    const JsonSchemaReader& m_reader;
    const ExperimentTopology& m_topology;
    std::map<std::string, uint32_t> m_nodes;
};

double
GetProbability(const JsonSchemaReader& reader, const Json& object, const std::string& pointer,
               const std::string& key, std::optional<double> fallback)
{
    const Json* v = JsonSchemaReader::Find(object, key);
    if (!v)
    {
        if (!fallback)
        {
            reader.Fail(JsonSchemaReader::Child(pointer, key),
                        "missing required field \"" + key + "\" (a probability in [0, 1])");
        }
        return *fallback;
    }
    if (!v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() < 0 ||
        v->get<double>() > 1)
    {
        reader.Fail(JsonSchemaReader::Child(pointer, key),
                    "expected a probability in [0, 1], got " + v->dump());
    }
    return v->get<double>();
}

std::vector<uint32_t>
SelectLinks(const JsonSchemaReader& reader, const LinkResolver& resolver,
            const ExperimentTopology& topology, const Json* value, const std::string& pointer,
            OrderedJson& effective)
{
    const std::string expected =
        "\"fabric\", \"hosts\", \"all\", an array of links such as [[\"s0\", \"s4\"]], or "
        "{\"roles\": [\"leaf\", \"spine\"]}";
    if (!value)
    {
        reader.Fail(pointer, "missing required field \"links\" (" + expected + ")");
    }
    std::vector<uint32_t> links;
    if (value->is_string())
    {
        const std::string s = value->get<std::string>();
        if (s != "fabric" && s != "hosts" && s != "all")
        {
            reader.Fail(pointer,
                        "unknown link set " + value->dump() + " (expected " + expected + ")");
        }
        for (uint32_t i = 0; i < topology.links.size(); ++i)
        {
            const bool hostLink =
                resolver.IsHost(topology.links[i].a) || resolver.IsHost(topology.links[i].b);
            if (s == "all" || (s == "hosts") == hostLink)
            {
                links.push_back(i);
            }
        }
        effective = s;
    }
    else if (value->is_array())
    {
        if (value->empty())
        {
            reader.Fail(pointer, "an empty list of links (expected " + expected + ")");
        }
        for (std::size_t k = 0; k < value->size(); ++k)
        {
            for (uint32_t l : resolver.Pair((*value)[k], JsonSchemaReader::Child(pointer, k)))
            {
                if (std::find(links.begin(), links.end(), l) == links.end())
                {
                    links.push_back(l);
                }
            }
        }
        effective = *value;
    }
    else if (value->is_object())
    {
        reader.CheckKeys(*value, pointer, {"roles"});
        const std::string rp = JsonSchemaReader::Child(pointer, "roles");
        const Json* roles = JsonSchemaReader::Find(*value, "roles");
        if (!roles || !roles->is_array() || roles->size() != 2 || !(*roles)[0].is_string() ||
            !(*roles)[1].is_string())
        {
            reader.Fail(rp, "expected the two switch roles of a link, e.g. [\"leaf\", \"spine\"]");
        }
        const std::vector<std::string> known = topology.GetSwitchRoles();
        for (std::size_t k = 0; k < 2; ++k)
        {
            const std::string role = (*roles)[k].get<std::string>();
            if (std::find(known.begin(), known.end(), role) == known.end())
            {
                reader.Fail(JsonSchemaReader::Child(rp, k),
                            "no switch has role \"" + role + "\" (roles of this topology: " +
                                (known.empty() ? "none" : JsonSchemaReader::JoinNames(known)) +
                                ")");
            }
        }
        const std::string ra = (*roles)[0].get<std::string>();
        const std::string rb = (*roles)[1].get<std::string>();
        for (uint32_t i = 0; i < topology.links.size(); ++i)
        {
            const ExperimentLink& l = topology.links[i];
            if (resolver.IsHost(l.a) || resolver.IsHost(l.b))
            {
                continue;
            }
            const std::string& a = resolver.Role(l.a);
            const std::string& b = resolver.Role(l.b);
            if ((a == ra && b == rb) || (a == rb && b == ra))
            {
                links.push_back(i);
            }
        }
        if (links.empty())
        {
            reader.Fail(rp, "no link between a \"" + ra + "\" and a \"" + rb + "\" switch");
        }
        effective = OrderedJson{{"roles", *roles}};
    }
    else
    {
        reader.Fail(pointer, "expected " + expected + ", got " + value->dump());
    }
    if (links.empty())
    {
        reader.Fail(pointer, "selects no link of this topology");
    }
    return links;
}

FaultLoss
ParseLoss(const JsonSchemaReader& reader, const LinkResolver& resolver,
          const ExperimentTopology& topology, const Json& e, const std::string& p, OrderedJson& eff)
{
    reader.CheckKeys(e, p, {"links", "classes", "rate", "gilbert_elliott"});
    FaultLoss loss;
    loss.pointer = p;
    OrderedJson linksEff;
    loss.links = SelectLinks(reader, resolver, topology, JsonSchemaReader::Find(e, "links"),
                             JsonSchemaReader::Child(p, "links"), linksEff);
    eff["links"] = linksEff;
    OrderedJson classes = OrderedJson::array();
    if (const Json* c = JsonSchemaReader::Find(e, "classes"))
    {
        const std::string cp = JsonSchemaReader::Child(p, "classes");
        if (!c->is_array() || c->empty())
        {
            reader.Fail(cp, "expected a non-empty array of traffic classes in [0, 7]");
        }
        loss.classMask = 0;
        for (std::size_t k = 0; k < c->size(); ++k)
        {
            const Json& cls = (*c)[k];
            if (!cls.is_number_unsigned() || cls.get<uint64_t>() > 7)
            {
                reader.Fail(JsonSchemaReader::Child(cp, k),
                            "expected a traffic class in [0, 7], got " + cls.dump());
            }
            loss.classMask |= static_cast<uint8_t>(1u << (*c)[k].get<uint64_t>());
        }
    }
    for (uint32_t c = 0; c < 8; ++c)
    {
        if (loss.classMask & (1u << c))
        {
            classes.push_back(c);
        }
    }
    eff["classes"] = classes;
    const Json* rate = JsonSchemaReader::Find(e, "rate");
    const Json* ge = JsonSchemaReader::Find(e, "gilbert_elliott");
    if ((rate != nullptr) == (ge != nullptr))
    {
        reader.Fail(p, "give exactly one of \"rate\" (Bernoulli loss) and \"gilbert_elliott\" "
                       "(burst loss)");
    }
    if (rate)
    {
        loss.rate = GetProbability(reader, e, p, "rate", std::nullopt);
        eff["rate"] = loss.rate;
        return loss;
    }
    const std::string gp = JsonSchemaReader::Child(p, "gilbert_elliott");
    reader.CheckKeys(*ge, gp, {"p", "r", "loss_good", "loss_bad"});
    loss.gilbertElliott = true;
    loss.p = GetProbability(reader, *ge, gp, "p", std::nullopt);
    loss.r = GetProbability(reader, *ge, gp, "r", std::nullopt);
    loss.lossGood = GetProbability(reader, *ge, gp, "loss_good", 0.0);
    loss.lossBad = GetProbability(reader, *ge, gp, "loss_bad", 1.0);
    if (loss.r == 0 && loss.p > 0)
    {
        reader.Fail(JsonSchemaReader::Child(gp, "r"),
                    "value 0 with p > 0: the bad state is never left (expected r in (0, 1])");
    }
    eff["gilbert_elliott"] = OrderedJson{
        {"p", loss.p},
        {"r", loss.r},
        {"loss_good", loss.lossGood},
        {"loss_bad", loss.lossBad},
    };
    return loss;
}

FaultEvent
ParseEvent(const JsonSchemaReader& reader, const LinkResolver& resolver, const Json& e,
           const std::string& p, Time stopTime, OrderedJson& eff)
{
    reader.RequireObject(e, p);
    std::set<std::string> names;
    for (const auto& k : KINDS)
    {
        names.insert(k.second);
    }
    const std::string kind = reader.GetString(e, p, "kind", std::nullopt, names);
    FaultEvent ev;
    ev.pointer = p;
    for (const auto& k : KINDS)
    {
        if (k.second == kind)
        {
            ev.kind = k.first;
        }
    }
    const bool onLink = ev.kind == FaultKind::LinkDown || ev.kind == FaultKind::LinkUp ||
                        ev.kind == FaultKind::LinkRate;
    const bool withRate = ev.kind == FaultKind::LinkRate || ev.kind == FaultKind::HostRate ||
                          ev.kind == FaultKind::PcieRate;
    std::vector<std::string> keys = {"time", "kind", onLink ? "link" : "host"};
    if (withRate)
    {
        keys.push_back("rate");
    }
    if (ev.kind == FaultKind::LinkDown)
    {
        keys.push_back("reroute");
    }
    if (ev.kind == FaultKind::LinkDown || ev.kind == FaultKind::LinkUp)
    {
        keys.push_back("convergence");
    }
    reader.CheckKeys(e, p, keys);
    ev.time = reader.GetTime(e, p, "time", std::nullopt, Time(0));
    if (ev.time >= stopTime)
    {
        reader.Fail(JsonSchemaReader::Child(p, "time"),
                    "value \"" + JsonAttributeConverter::FormatTime(ev.time) +
                        "\" out of range: a fault must happen before stop_time (" +
                        JsonAttributeConverter::FormatTime(stopTime) + ")");
    }
    eff["time"] = JsonAttributeConverter::FormatTime(ev.time);
    eff["kind"] = kind;
    const std::string target = onLink ? "link" : "host";
    const Json* t = JsonSchemaReader::Find(e, target);
    const std::string tp = JsonSchemaReader::Child(p, target);
    if (!t)
    {
        reader.Fail(tp, "missing required field \"" + target + "\" (" +
                            (onLink ? "a link as the pair of its end nodes, e.g. [\"s0\", \"s4\"]"
                                    : "a host name") +
                            ")");
    }
    if (onLink)
    {
        const std::vector<uint32_t> links = resolver.Pair(*t, tp);
        if (links.size() > 1)
        {
            reader.Fail(tp, "names " + std::to_string(links.size()) +
                                " parallel links; a timed fault acts on one link");
        }
        ev.link = links[0];
        if (ev.kind == FaultKind::LinkDown)
        {
            // false: no switch reacts (a cut the routing does not see), see FaultInjector
            ev.reroute = reader.GetBool(e, p, "reroute", true);
        }
        if (ev.kind == FaultKind::LinkDown || ev.kind == FaultKind::LinkUp)
        {
            ev.convergence = reader.GetTime(e, p, "convergence",
                                            std::string(FaultPlan::DEFAULT_CONVERGENCE), Time(0));
            if (!ev.reroute && JsonSchemaReader::Find(e, "convergence"))
            {
                reader.Fail(JsonSchemaReader::Child(p, "convergence"),
                            "has no effect with \"reroute\": false (no switch reacts to the "
                            "link_down, so no routes are withdrawn)");
            }
        }
    }
    else
    {
        ev.host = resolver.Host(*t, tp);
    }
    eff[target] = *t;
    if (ev.kind == FaultKind::LinkDown)
    {
        eff["reroute"] = ev.reroute;
    }
    if ((ev.kind == FaultKind::LinkDown && ev.reroute) || ev.kind == FaultKind::LinkUp)
    {
        eff["convergence"] = JsonAttributeConverter::FormatTime(ev.convergence);
    }
    if (withRate)
    {
        const std::string rp = JsonSchemaReader::Child(p, "rate");
        if (!JsonSchemaReader::Find(e, "rate"))
        {
            reader.Fail(rp, "missing required field \"rate\" (a data rate such as \"25Gbps\")");
        }
        ev.rate = reader.GetRate(e, p, "rate", "");
        // Below 1 Mb/s a 9 KB frame takes over 70 ms on the wire: no degradation a
        // data-centre link shows (and far below any NIC's minimum rate).
        if (ev.rate < DataRate("1Mbps"))
        {
            reader.Fail(rp, "value \"" + JsonAttributeConverter::FormatDataRate(ev.rate) +
                                "\" out of range: expected at least 1Mbps");
        }
        eff["rate"] = JsonAttributeConverter::FormatDataRate(ev.rate);
    }
    return ev;
}

} // namespace

std::string
FaultPlan::LinkName(const ExperimentTopology& topology, uint32_t link)
{
    const ExperimentLink& l = topology.links.at(link);
    return topology.GetNodeName(l.a) + "<->" + topology.GetNodeName(l.b);
}

std::string
FaultPlan::KindName(FaultKind kind)
{
    for (const auto& k : KINDS)
    {
        if (k.first == kind)
        {
            return k.second;
        }
    }
    return "unknown";
}

FaultPlan
FaultPlan::Parse(const JsonSchemaReader& reader, const nlohmann::json* section,
                 const std::string& pointer, const ExperimentTopology& topology, Time stopTime,
                 nlohmann::ordered_json& effective)
{
    FaultPlan plan;
    effective = OrderedJson{{"loss", OrderedJson::array()}, {"events", OrderedJson::array()}};
    if (!section)
    {
        return plan;
    }
    reader.CheckKeys(*section, pointer, {"loss", "events"});
    const LinkResolver resolver(reader, topology);
    if (const Json* loss = JsonSchemaReader::Find(*section, "loss"))
    {
        const std::string lp = JsonSchemaReader::Child(pointer, "loss");
        if (!loss->is_array())
        {
            reader.Fail(lp, "expected an array of loss entries, got " + loss->dump());
        }
        for (std::size_t i = 0; i < loss->size(); ++i)
        {
            OrderedJson eff;
            const std::string ip = JsonSchemaReader::Child(lp, i);
            FaultLoss entry = ParseLoss(reader, resolver, topology, (*loss)[i], ip, eff);
            // A link direction has one receive error model: one entry per link.
            for (const FaultLoss& earlier : plan.losses)
            {
                for (uint32_t l : entry.links)
                {
                    if (std::find(earlier.links.begin(), earlier.links.end(), l) !=
                        earlier.links.end())
                    {
                        reader.Fail(JsonSchemaReader::Child(ip, "links"),
                                    "link " + FaultPlan::LinkName(topology, l) +
                                        " is already lossy by " + earlier.pointer +
                                        " (one loss entry per link)");
                    }
                }
            }
            plan.losses.push_back(std::move(entry));
            effective["loss"].push_back(eff);
        }
    }
    if (const Json* events = JsonSchemaReader::Find(*section, "events"))
    {
        const std::string ep = JsonSchemaReader::Child(pointer, "events");
        if (!events->is_array())
        {
            reader.Fail(ep, "expected an array of timed faults, got " + events->dump());
        }
        for (std::size_t i = 0; i < events->size(); ++i)
        {
            OrderedJson eff;
            plan.events.push_back(ParseEvent(reader, resolver, (*events)[i],
                                             JsonSchemaReader::Child(ep, i), stopTime, eff));
            effective["events"].push_back(eff);
        }
        CheckEventSequence(reader, topology, plan.events);
    }
    return plan;
}

void
FaultPlan::CheckEventSequence(const JsonSchemaReader& reader, const ExperimentTopology& topology,
                              const std::vector<FaultEvent>& events)
{
    // Events run in time order, those at one time in file order (FaultInjector schedules
    // them so); a link or NIC brought up must be down then, and one taken down up: an
    // event that would change nothing is refused rather than recorded in faults.csv.
    std::vector<std::size_t> order(events.size());
    for (std::size_t i = 0; i < order.size(); ++i)
    {
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(),
                     [&events](std::size_t a, std::size_t b)
                     { return events[a].time < events[b].time; });
    std::vector<bool> linkDown(topology.links.size(), false);
    std::vector<bool> nicDown(topology.hosts.size(), false);
    // Per link: down with "reroute" (its link_up's convergence recomputes the routes too),
    // and when the routing converges on its last change: a later change must not converge
    // before an earlier one, or the routing would end with the earlier one's view.
    std::vector<bool> rerouted(topology.links.size(), false);
    std::vector<Time> converged(topology.links.size(), Time(0));
    for (std::size_t i : order)
    {
        const FaultEvent& ev = events[i];
        const bool link = ev.kind == FaultKind::LinkDown || ev.kind == FaultKind::LinkUp;
        const bool nic = ev.kind == FaultKind::NicDown || ev.kind == FaultKind::NicUp;
        if (!link && !nic)
        {
            continue;
        }
        const bool down = ev.kind == FaultKind::LinkDown || ev.kind == FaultKind::NicDown;
        std::vector<bool>& state = link ? linkDown : nicDown;
        const uint32_t target = link ? ev.link : ev.host;
        if (state[target] == down)
        {
            const std::string what = link ? "link " + LinkName(topology, target)
                                          : "the NIC of " + topology.hosts[target];
            reader.Fail(JsonSchemaReader::Child(ev.pointer, "kind"),
                        KindName(ev.kind) + " at " + JsonAttributeConverter::FormatTime(ev.time) +
                            " would do nothing: " + what + " is already " + (down ? "down" : "up") +
                            " then (" +
                            (down
                                 ? "an earlier " + KindName(ev.kind) + " without an up between"
                                 : std::string("no earlier ") + (link ? "link_down" : "nic_down")) +
                            "); every fault listed in faults.csv must act");
        }
        state[target] = down;
        if (link && (down ? ev.reroute : rerouted[target]))
        {
            const Time at = ev.time + ev.convergence;
            if (at < converged[target])
            {
                reader.Fail(JsonSchemaReader::Child(ev.pointer, "convergence"),
                            KindName(ev.kind) + " of " + LinkName(topology, target) +
                                " would converge at " + JsonAttributeConverter::FormatTime(at) +
                                ", before the link's previous change does (" +
                                JsonAttributeConverter::FormatTime(converged[target]) +
                                "): the routing must see the link's changes in order");
            }
            converged[target] = at;
        }
        if (link)
        {
            rerouted[target] = down && ev.reroute;
        }
    }
}

void
FaultPlan::CheckNodes(const JsonSchemaReader& reader, const ExperimentTopology& topology,
                      const NodeComposition& nodes) const
{
    for (const FaultEvent& ev : events)
    {
        if (ev.kind != FaultKind::PcieRate || ev.host >= nodes.hosts.size() ||
            nodes.hosts[ev.host].hostModel < 0)
        {
            continue;
        }
        const NodeHostModel& model = nodes.hostModels[nodes.hosts[ev.host].hostModel];
        reader.Fail(JsonSchemaReader::Child(ev.pointer, "host"),
                    "host " + topology.hosts[ev.host] + " has a host model (" + model.pointer +
                        "): its NIC's DMA goes through that model, where pcie_rate cannot act; "
                        "degrade its PCIe link there instead (\"host_model\": {\"resources\": "
                        "{\"pcie-" +
                        model.rnic + "\": {\"Lanes\": 4}}})");
    }
}

} // namespace ns3
