#include "pcap-selection.h"

#include <algorithm>
#include <set>

namespace ns3
{

namespace
{

using Json = nlohmann::json;

/** Split "h12" into ("h", 12); false if \p name does not end in digits. */
bool
SplitNumbered(const std::string& name, std::string& prefix, uint64_t& number)
{
    const auto digits = name.find_last_not_of("0123456789");
    if (digits == std::string::npos || digits + 1 == name.size() || name.size() - digits > 10)
    {
        return false;
    }
    prefix = name.substr(0, digits + 1);
    number = std::stoull(name.substr(digits + 1));
    return true;
}

/**
 * Resolve the "hosts" (\p first = 0) or "switches" (\p first = H) entry list \p value at
 * \p pointer into node indices, added to \p nodes; \p names are the nodes' names.
 */
void
ReadNodes(const JsonSchemaReader& reader, const Json* value, const std::string& pointer,
          const std::vector<std::string>& names, const std::vector<std::string>& roles,
          uint32_t first, std::set<uint32_t>& nodes, nlohmann::ordered_json& effective)
{
    effective = nlohmann::ordered_json::array();
    if (!value)
    {
        return;
    }
    const bool hosts = first == 0;
    const std::string what = hosts ? "host" : "switch";
    if (value->is_string() && value->get<std::string>() == "all")
    {
        for (uint32_t i = 0; i < names.size(); ++i)
        {
            nodes.insert(first + i);
        }
        effective = "all";
        return;
    }
    if (!value->is_array())
    {
        reader.Fail(pointer, "expected \"all\" or an array of " + what + " names" +
                                 (hosts ? ", indices" : ", roles") + " or ranges such as \"" +
                                 (hosts ? "h0..h3" : "s0..s3") + "\"");
    }
    const auto index = [&names](const std::string& name) -> int64_t
    {
        const auto it = std::find(names.begin(), names.end(), name);
        return it == names.end() ? -1 : it - names.begin();
    };
    for (std::size_t k = 0; k < value->size(); ++k)
    {
        const Json& e = (*value)[k];
        const std::string p = JsonSchemaReader::Child(pointer, k);
        if (hosts && e.is_number_unsigned())
        {
            const uint64_t h = e.get<uint64_t>();
            if (h >= names.size())
            {
                reader.Fail(p, "host index " + std::to_string(h) + " out of range [0, " +
                                   std::to_string(names.size() - 1) + "]");
            }
            nodes.insert(static_cast<uint32_t>(h));
            effective.push_back(names[h]);
            continue;
        }
        if (!e.is_string())
        {
            reader.Fail(p, "expected a " + what + " name" + (hosts ? " or index" : " or role"));
        }
        reader.CheckNoNul(e, p);
        const std::string text = e.get<std::string>();
        const auto dots = text.find("..");
        if (dots != std::string::npos)
        {
            std::string pa;
            std::string pb;
            uint64_t a = 0;
            uint64_t b = 0;
            if (!SplitNumbered(text.substr(0, dots), pa, a) ||
                !SplitNumbered(text.substr(dots + 2), pb, b) || pa != pb || a > b)
            {
                reader.Fail(p, "range \"" + text +
                                   "\": expected FIRST..LAST with the same prefix and "
                                   "FIRST <= LAST, e.g. \"" +
                                   (hosts ? "h0..h3" : "s0..s3") + "\"");
            }
            for (uint64_t n = a; n <= b; ++n)
            {
                const int64_t i = index(pa + std::to_string(n));
                if (i < 0)
                {
                    reader.Fail(p, "range \"" + text + "\": no " + what + " named " + pa +
                                       std::to_string(n) + " in the topology");
                }
                nodes.insert(first + static_cast<uint32_t>(i));
                effective.push_back(names[i]);
            }
            continue;
        }
        const int64_t i = index(text);
        if (i >= 0)
        {
            nodes.insert(first + static_cast<uint32_t>(i));
            effective.push_back(text);
            continue;
        }
        bool role = false;
        for (uint32_t s = 0; !hosts && s < roles.size(); ++s)
        {
            if (roles[s] == text)
            {
                nodes.insert(first + s);
                effective.push_back(names[s]);
                role = true;
            }
        }
        if (!role)
        {
            reader.Fail(p, "no " + what + " named \"" + text + "\" in the topology" +
                               (hosts ? "" : " (nor a switch role)") + "; its " + what +
                               (hosts ? "s" : "es") +
                               " are: " + JsonSchemaReader::JoinNames(names));
        }
    }
}

} // namespace

PcapSelection
PcapSelection::Read(const JsonSchemaReader& reader, const nlohmann::json* section,
                    const std::string& pointer, const ExperimentTopology& topology,
                    nlohmann::ordered_json& effective)
{
    PcapSelection result;
    static const Json empty = Json::object();
    const Json& s = section ? *section : empty;
    reader.CheckKeys(s, pointer, {"hosts", "switches", "ports"});
    std::set<uint32_t> nodes;
    const auto nHosts = static_cast<uint32_t>(topology.hosts.size());
    effective = nlohmann::ordered_json::object();
    ReadNodes(reader, JsonSchemaReader::Find(s, "hosts"), JsonSchemaReader::Child(pointer, "hosts"),
              topology.hosts, {}, 0, nodes, effective["hosts"]);
    ReadNodes(reader, JsonSchemaReader::Find(s, "switches"),
              JsonSchemaReader::Child(pointer, "switches"), topology.switches, topology.switchRoles,
              nHosts, nodes, effective["switches"]);
    result.m_nodes.assign(nodes.begin(), nodes.end());

    const std::string pp = JsonSchemaReader::Child(pointer, "ports");
    const Json* ports = JsonSchemaReader::Find(s, "ports");
    effective["ports"] = "all";
    if (ports && !(ports->is_string() && ports->get<std::string>() == "all"))
    {
        if (!ports->is_array() || ports->empty())
        {
            reader.Fail(pp, "expected \"all\" or a non-empty array of port numbers (a node's "
                            "ports in the order of its links, from 0, as ports.csv lists them)");
        }
        std::set<uint32_t> chosen;
        for (std::size_t k = 0; k < ports->size(); ++k)
        {
            const Json& e = (*ports)[k];
            if (!e.is_number_unsigned() || e.get<uint64_t>() > 65535)
            {
                reader.Fail(JsonSchemaReader::Child(pp, k),
                            "expected a port number in [0, 65535], got " + e.dump());
            }
            chosen.insert(e.get<uint32_t>());
        }
        result.m_allPorts = false;
        result.m_ports.assign(chosen.begin(), chosen.end());
        effective["ports"] = result.m_ports;
    }
    return result;
}

const std::vector<uint32_t>&
PcapSelection::GetNodes() const
{
    return m_nodes;
}

bool
PcapSelection::IncludesPort(uint32_t port) const
{
    return m_allPorts || std::binary_search(m_ports.begin(), m_ports.end(), port);
}

bool
PcapSelection::IsEmpty() const
{
    return m_nodes.empty();
}

std::string
PcapSelection::FileName(const std::string& name, uint32_t port)
{
    return "pcap/" + name + "-" + std::to_string(port) + ".pcap";
}

} // namespace ns3
