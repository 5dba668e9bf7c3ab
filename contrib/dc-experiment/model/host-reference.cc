#include "host-reference.h"

namespace ns3
{

HostReference::HostReference(const JsonSchemaReader& reader, const ExperimentTopology& topology)
    : m_reader(reader)
    , m_topology(topology)
{
    for (uint32_t i = 0; i < topology.hosts.size(); ++i)
    {
        m_hostIndex[topology.hosts[i]] = i;
    }
    m_switchNames.insert(topology.switches.begin(), topology.switches.end());
}

uint32_t
HostReference::Resolve(const nlohmann::json& value, const std::string& pointer) const
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

} // namespace ns3
