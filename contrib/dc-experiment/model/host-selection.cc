#include "host-selection.h"

#include <algorithm>
#include <cctype>

namespace ns3
{

using Json = nlohmann::json;

namespace
{

const char* const FORMS =
    "\"all\", a host name, a name range \"h0-h7\", a host index, {\"range\": [first, "
    "end]}, {\"under\": switch or [switches]}, or an array of these";

/** Split "h12" into ("h", 12); false when it does not end in digits. */
bool
SplitNumber(const std::string& name, std::string& prefix, uint64_t& number)
{
    std::size_t i = name.size();
    while (i > 0 && std::isdigit(static_cast<unsigned char>(name[i - 1])))
    {
        --i;
    }
    if (i == name.size() || name.size() - i > 9)
    {
        return false;
    }
    prefix = name.substr(0, i);
    number = std::stoull(name.substr(i));
    return true;
}

} // namespace

HostSelection::HostSelection(const JsonSchemaReader& reader, const ExperimentTopology& topology)
    : m_reader(reader)
    , m_topology(topology)
{
    for (uint32_t i = 0; i < topology.hosts.size(); ++i)
    {
        m_hostIndex.emplace(topology.hosts[i], i);
    }
}

uint32_t
HostSelection::SelectHost(const Json& value, const std::string& pointer) const
{
    const auto& hosts = m_topology.hosts;
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
        const auto it = m_hostIndex.find(name);
        if (it != m_hostIndex.end())
        {
            return it->second;
        }
        const auto& switches = m_topology.switches;
        if (std::find(switches.begin(), switches.end(), name) != switches.end())
        {
            m_reader.Fail(pointer, "\"" + name + "\" is a switch, not a host (" + known + ")");
        }
        m_reader.Fail(pointer, "unknown host \"" + name + "\" (" + known + ")");
    }
    m_reader.Fail(pointer, "expected a host name or index, got " + value.dump());
}

std::vector<uint32_t>
HostSelection::Select(const Json& value, const std::string& pointer) const
{
    std::vector<uint32_t> out;
    if (value.is_array())
    {
        if (value.empty())
        {
            m_reader.Fail(pointer, "expected a non-empty selection");
        }
        for (std::size_t i = 0; i < value.size(); ++i)
        {
            AddForm(value[i], JsonSchemaReader::Child(pointer, i), out);
        }
    }
    else
    {
        AddForm(value, pointer, out);
    }
    std::vector<uint8_t> seen(m_topology.hosts.size(), 0);
    for (uint32_t h : out)
    {
        if (seen[h]++)
        {
            m_reader.Fail(pointer, "host " + m_topology.hosts[h] +
                                       " is selected twice by this entry (give each host "
                                       "once; to override an earlier entry, add a later one)");
        }
    }
    return out;
}

uint32_t
HostSelection::ByName(const std::string& name, const std::string& pointer) const
{
    const auto it = m_hostIndex.find(name);
    if (it == m_hostIndex.end())
    {
        m_reader.Fail(pointer, "unknown host \"" + name + "\" (hosts: " +
                                   JsonSchemaReader::JoinNames(m_topology.hosts, 8) + ")");
    }
    return it->second;
}

void
HostSelection::AddForm(const Json& v, const std::string& pointer, std::vector<uint32_t>& out) const
{
    const auto n = static_cast<uint32_t>(m_topology.hosts.size());
    if (v.is_number_unsigned())
    {
        if (v.get<uint64_t>() >= n)
        {
            m_reader.Fail(pointer, "host index " + v.dump() + " out of range [0, " +
                                       std::to_string(n - 1) + "]");
        }
        out.push_back(v.get<uint32_t>());
        return;
    }
    if (v.is_string())
    {
        m_reader.CheckNoNul(v, pointer);
        const std::string s = v.get<std::string>();
        if (s == "all")
        {
            for (uint32_t h = 0; h < n; ++h)
            {
                out.push_back(h);
            }
            return;
        }
        if (m_hostIndex.count(s))
        {
            out.push_back(ByName(s, pointer));
            return;
        }
        const std::size_t dash = s.find('-');
        std::string p1;
        std::string p2;
        uint64_t a = 0;
        uint64_t b = 0;
        if (dash == std::string::npos || !SplitNumber(s.substr(0, dash), p1, a) ||
            !SplitNumber(s.substr(dash + 1), p2, b))
        {
            ByName(s, pointer); // fails: names the hosts
        }
        if (p1 != p2 || a > b)
        {
            m_reader.Fail(pointer, "a name range is \"<prefix><first>-<prefix><last>\" with "
                                   "first <= last, as \"h0-h7\"");
        }
        for (uint64_t k = a; k <= b; ++k)
        {
            out.push_back(ByName(p1 + std::to_string(k), pointer));
        }
        return;
    }
    if (v.is_object() && JsonSchemaReader::Find(v, "range"))
    {
        m_reader.CheckKeys(v, pointer, {"range"});
        const Json& r = v["range"];
        const std::string rp = JsonSchemaReader::Child(pointer, "range");
        if (!r.is_array() || r.size() != 2 || !r[0].is_number_unsigned() ||
            !r[1].is_number_unsigned() || r[0].get<uint64_t>() >= r[1].get<uint64_t>() ||
            r[1].get<uint64_t>() > n)
        {
            m_reader.Fail(rp, "expected [first, end] host indices with first < end <= " +
                                  std::to_string(n) + " (end excluded)");
        }
        for (uint64_t k = r[0].get<uint64_t>(); k < r[1].get<uint64_t>(); ++k)
        {
            out.push_back(static_cast<uint32_t>(k));
        }
        return;
    }
    if (v.is_object())
    {
        AddUnder(v, pointer, out);
        return;
    }
    m_reader.Fail(pointer, std::string("expected ") + FORMS);
}

void
HostSelection::AddUnder(const Json& v, const std::string& pointer, std::vector<uint32_t>& out) const
{
    const auto n = static_cast<uint32_t>(m_topology.hosts.size());
    const auto& switches = m_topology.switches;
    m_reader.CheckKeys(v, pointer, {"under"});
    const Json* u = JsonSchemaReader::Find(v, "under");
    const std::string up = JsonSchemaReader::Child(pointer, "under");
    if (!u || !(u->is_string() || u->is_array()) || (u->is_array() && u->empty()))
    {
        m_reader.Fail(up, "expected a switch name or a non-empty array of them");
    }
    const Json list = u->is_string() ? Json::array({*u}) : *u;
    for (std::size_t i = 0; i < list.size(); ++i)
    {
        const std::string ip = u->is_string() ? up : JsonSchemaReader::Child(up, i);
        const auto it = list[i].is_string() ? std::find(switches.begin(), switches.end(),
                                                        list[i].get<std::string>())
                                            : switches.end();
        if (it == switches.end())
        {
            m_reader.Fail(ip, "unknown switch " + list[i].dump() +
                                  " (switches: " + JsonSchemaReader::JoinNames(switches, 8) + ")");
        }
        const uint32_t node = n + static_cast<uint32_t>(it - switches.begin());
        for (const ExperimentLink& l : m_topology.links)
        {
            if (l.a < n && l.b == node)
            {
                out.push_back(l.a);
            }
            else if (l.b < n && l.a == node)
            {
                out.push_back(l.b);
            }
        }
    }
}

} // namespace ns3
