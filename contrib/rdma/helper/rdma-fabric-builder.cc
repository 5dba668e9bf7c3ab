#include "rdma-fabric-builder.h"

#include "ns3/abort.h"
#include "ns3/dcb-net-device.h"
#include "ns3/dcb-routing-helper.h"
#include "ns3/double.h"
#include "ns3/node.h"
#include "ns3/sonic-buffer-manager.h"

#include <algorithm>

namespace ns3
{

namespace
{
/** First host address; hosts are numbered contiguously from it, then their aliases. */
const Ipv4Address FIRST_HOST_ADDRESS("10.0.0.1");
/** One past the last address of 10.0.0.0/8: aliases must stay inside it. */
constexpr uint32_t END_OF_TEN_SLASH_EIGHT = 0x0b000000;
} // namespace

RdmaFabricBuilder::RdmaFabricBuilder(uint32_t nHosts, uint32_t nSwitches)
    : m_nHosts(nHosts)
    , m_nSwitches(nSwitches)
    , m_vnics(nHosts, 1)
    , m_switchHelperOf(nSwitches, -1)
    , m_nicHelperOf(nHosts, -1)
    , m_bufferEdits(nSwitches)
{
    NS_ABORT_MSG_IF(FIRST_HOST_ADDRESS.Get() + uint64_t{nHosts} > END_OF_TEN_SLASH_EIGHT,
                    "RdmaFabricBuilder: " << nHosts << " hosts do not fit in 10.0.0.0/8");
}

void
RdmaFabricBuilder::SetSystemIds(std::vector<uint32_t> systemIds)
{
    NS_ABORT_MSG_IF(systemIds.size() != m_nHosts + m_nSwitches,
                    "RdmaFabricBuilder::SetSystemIds: one id per node");
    m_systemIds = std::move(systemIds);
}

uint32_t
RdmaFabricBuilder::AddLink(uint32_t a, uint32_t b, DataRate rate, Time delay)
{
    const uint32_t n = m_nHosts + m_nSwitches;
    NS_ABORT_MSG_IF(a >= n || b >= n || a == b, "RdmaFabricBuilder::AddLink: no link "
                                                    << a << "-" << b << " among " << n << " nodes");
    m_links.push_back(Link{a, b, rate, delay});
    return static_cast<uint32_t>(m_links.size() - 1);
}

void
RdmaFabricBuilder::SetLinkLength(uint32_t link, double metres)
{
    NS_ABORT_MSG_IF(link >= m_links.size(), "RdmaFabricBuilder::SetLinkLength: no link " << link);
    NS_ABORT_MSG_IF(!(metres > 0), "RdmaFabricBuilder::SetLinkLength: link "
                                       << link << " of " << metres << " m (above 0 needed)");
    NS_ABORT_MSG_IF(!m_linkDevices.empty(), "RdmaFabricBuilder::SetLinkLength after Build");
    m_links[link].length = metres;
}

void
RdmaFabricBuilder::SetVirtualNics(uint32_t host, uint32_t count)
{
    NS_ABORT_MSG_IF(host >= m_nHosts, "RdmaFabricBuilder::SetVirtualNics: no host " << host);
    NS_ABORT_MSG_IF(count == 0 || count > MAX_VIRTUAL_NICS,
                    "RdmaFabricBuilder::SetVirtualNics: " << count << " addresses per NIC (1.."
                                                          << MAX_VIRTUAL_NICS << ")");
    NS_ABORT_MSG_IF(FIRST_HOST_ADDRESS.Get() + uint64_t{count} * m_nHosts > END_OF_TEN_SLASH_EIGHT,
                    "RdmaFabricBuilder::SetVirtualNics: " << count << " addresses for each of "
                                                          << m_nHosts
                                                          << " hosts do not fit in 10.0.0.0/8");
    NS_ABORT_MSG_IF(!m_nics.empty(), "RdmaFabricBuilder::SetVirtualNics after Build");
    m_vnics[host] = count;
}

void
RdmaFabricBuilder::SetVirtualNics(uint32_t count)
{
    for (uint32_t h = 0; h < m_nHosts; ++h)
    {
        SetVirtualNics(h, count);
    }
}

void
RdmaFabricBuilder::SetSwitchHelper(uint32_t sw, const DcbHelper& helper)
{
    NS_ABORT_MSG_IF(sw >= m_nSwitches, "RdmaFabricBuilder::SetSwitchHelper: no switch " << sw);
    m_switchHelpers.push_back(helper);
    m_switchHelperOf[sw] = static_cast<int32_t>(m_switchHelpers.size() - 1);
}

void
RdmaFabricBuilder::SetNicHelper(uint32_t host, const RdmaHelper& helper)
{
    NS_ABORT_MSG_IF(host >= m_nHosts, "RdmaFabricBuilder::SetNicHelper: no host " << host);
    m_nicHelpers.push_back(helper);
    m_nicHelperOf[host] = static_cast<int32_t>(m_nicHelpers.size() - 1);
}

void
RdmaFabricBuilder::SetSwitchNames(std::vector<std::string> names)
{
    NS_ABORT_MSG_IF(names.size() != m_nSwitches,
                    "RdmaFabricBuilder::SetSwitchNames: one name per switch");
    NS_ABORT_MSG_IF(!m_switches.empty(), "RdmaFabricBuilder::SetSwitchNames after Build");
    m_switchNames = std::move(names);
}

void
RdmaFabricBuilder::SetSwitchBufferEdit(uint32_t sw, SonicBufferEdit edit)
{
    NS_ABORT_MSG_IF(sw >= m_nSwitches, "RdmaFabricBuilder::SetSwitchBufferEdit: no switch " << sw);
    NS_ABORT_MSG_IF(!m_switches.empty(), "RdmaFabricBuilder::SetSwitchBufferEdit after Build");
    m_bufferEdits[sw] = std::move(edit);
}

void
RdmaFabricBuilder::Build(const DcbHelper& dcb, const RdmaHelper& rdma)
{
    Build(dcb, dcb, rdma);
}

void
RdmaFabricBuilder::Build(const DcbHelper& links, const DcbHelper& switches, const RdmaHelper& nics)
{
    NS_ABORT_MSG_IF(m_hosts.GetN() + m_switchNodes.GetN() > 0,
                    "RdmaFabricBuilder::Build called twice");
    if (m_systemIds.empty())
    {
        m_hosts.Create(m_nHosts);
        m_switchNodes.Create(m_nSwitches);
    }
    else
    {
        // Node ids follow creation order, so they are the same on every rank.
        for (uint32_t i = 0; i < m_nHosts + m_nSwitches; ++i)
        {
            (i < m_nHosts ? m_hosts : m_switchNodes).Add(CreateObject<Node>(m_systemIds[i]));
        }
    }

    DcbHelper link = links;
    std::vector<uint32_t> hostLinks(m_nHosts, 0);
    for (const Link& l : m_links)
    {
        link.SetDeviceAttribute("DataRate", DataRateValue(l.rate));
        link.SetChannelAttribute("Delay", TimeValue(l.delay));
        if (!m_systemIds.empty())
        {
            const bool remote = m_systemIds[l.a] != m_systemIds[l.b];
            link.SetChannelType(remote ? "ns3::DcbRemoteChannel" : "ns3::DcbChannel");
        }
        if (l.length > 0)
        {
            DcbHelper cable = link; // the other links keep the helper's Length
            cable.SetChannelAttribute("Length", DoubleValue(l.length));
            m_linkDevices.push_back(cable.Install(GetNode(l.a), GetNode(l.b)));
        }
        else
        {
            m_linkDevices.push_back(link.Install(GetNode(l.a), GetNode(l.b)));
        }
        for (uint32_t end : {l.a, l.b})
        {
            if (end < m_nHosts)
            {
                ++hostLinks[end];
            }
        }
    }
    for (uint32_t h = 0; h < m_nHosts; ++h)
    {
        NS_ABORT_MSG_IF(hostLinks[h] != 1, "RdmaFabricBuilder: host " << h << " has "
                                                                      << hostLinks[h]
                                                                      << " links (one needed)");
    }

    for (uint32_t s = 0; s < m_nSwitches; ++s)
    {
        const int32_t index = m_switchHelperOf[s];
        const DcbHelper& helper = index < 0 ? switches : m_switchHelpers[index];
        const std::string name = m_switchNames.empty() ? std::to_string(s) : m_switchNames[s];
        Ptr<DcbSwitch> sw = helper.InstallSwitch(m_switchNodes.Get(s), name);
        if (m_bufferEdits[s])
        {
            Ptr<SonicBufferManager> bm = DynamicCast<SonicBufferManager>(sw->GetBufferManager());
            SonicBufferConfig config;
            if (bm)
            {
                config = bm->GetConfig();
                m_bufferEdits[s](config);
            }
            helper.ApplySonicConfig(sw, config, name); // refuses a switch without bm
        }
        m_switches.push_back(sw);
    }

    std::vector<DcbRoutingHelper::HostAddress> addresses;
    for (uint32_t h = 0; h < m_nHosts; ++h)
    {
        const int32_t helper = m_nicHelperOf[h];
        m_nics.push_back(
            (helper < 0 ? nics : m_nicHelpers[helper]).Install(m_hosts.Get(h), GetHostAddress(h)));
        addresses.push_back({GetHostAddress(h), m_hosts.Get(h)});
    }
    // Aliases after every primary, alias by alias (the routing helper's order).
    uint32_t maxVnics = 1;
    for (uint32_t k : m_vnics)
    {
        maxVnics = std::max(maxVnics, k);
    }
    for (uint32_t v = 1; v < maxVnics; ++v)
    {
        for (uint32_t h = 0; h < m_nHosts; ++h)
        {
            if (v < m_vnics[h])
            {
                m_nics[h]->AddAddress(GetAddress(h, v));
                addresses.push_back({GetAddress(h, v), m_hosts.Get(h)});
            }
        }
    }
    DcbRoutingHelper::PopulateRoutes(addresses);
}

int64_t
RdmaFabricBuilder::AssignStreams(int64_t stream)
{
    return DcbHelper::AssignStreams(m_switchNodes, stream);
}

void
RdmaFabricBuilder::PinRoute(uint32_t sw, Ipv4Address src, Ipv4Address dst, uint32_t link) const
{
    NS_ABORT_MSG_IF(sw >= m_switches.size() || link >= m_linkDevices.size(),
                    "RdmaFabricBuilder::PinRoute: no switch " << sw << " or link " << link
                                                              << " (built?)");
    const Link& l = m_links[link];
    const uint32_t node = m_nHosts + sw;
    NS_ABORT_MSG_IF(l.a != node && l.b != node, "RdmaFabricBuilder::PinRoute: link "
                                                    << link << " does not end at switch " << sw);
    Ptr<NetDevice> dev = m_linkDevices[link].Get(l.a == node ? 0 : 1);
    Ptr<DcbSwitch> s = m_switches[sw];
    for (uint32_t p = 0; p < s->GetNPorts(); ++p)
    {
        if (s->GetPort(p) == dev)
        {
            s->SetPinnedRoute(src, dst, p);
            return;
        }
    }
    NS_ABORT_MSG("RdmaFabricBuilder::PinRoute: link " << link << " is no port of switch " << sw);
}

void
RdmaFabricBuilder::SetLinkUp(uint32_t link, bool up) const
{
    NS_ABORT_MSG_IF(link >= m_linkDevices.size(),
                    "RdmaFabricBuilder::SetLinkUp: no link " << link << " (built?)");
    for (uint32_t d = 0; d < 2; ++d)
    {
        DynamicCast<DcbNetDevice>(m_linkDevices[link].Get(d))->SetLinkUp(up);
    }
}

int64_t
RdmaFabricBuilder::FindLink(Ptr<const NetDevice> device) const
{
    for (uint32_t l = 0; l < m_linkDevices.size(); ++l)
    {
        if (m_linkDevices[l].Get(0) == device || m_linkDevices[l].Get(1) == device)
        {
            return l;
        }
    }
    return -1;
}

uint32_t
RdmaFabricBuilder::GetNHosts() const
{
    return m_nHosts;
}

uint32_t
RdmaFabricBuilder::GetNSwitches() const
{
    return m_nSwitches;
}

uint32_t
RdmaFabricBuilder::GetNLinks() const
{
    return static_cast<uint32_t>(m_links.size());
}

Ptr<Node>
RdmaFabricBuilder::GetHost(uint32_t host) const
{
    return m_hosts.Get(host);
}

Ptr<RdmaNic>
RdmaFabricBuilder::GetNic(uint32_t host) const
{
    return m_nics.at(host);
}

const std::vector<Ptr<RdmaNic>>&
RdmaFabricBuilder::GetNics() const
{
    return m_nics;
}

Ptr<DcbSwitch>
RdmaFabricBuilder::GetSwitch(uint32_t sw) const
{
    return m_switches.at(sw);
}

Ptr<Node>
RdmaFabricBuilder::GetNode(uint32_t index) const
{
    return index < m_nHosts ? m_hosts.Get(index) : m_switchNodes.Get(index - m_nHosts);
}

const NodeContainer&
RdmaFabricBuilder::GetHostNodes() const
{
    return m_hosts;
}

const NodeContainer&
RdmaFabricBuilder::GetSwitchNodes() const
{
    return m_switchNodes;
}

const NetDeviceContainer&
RdmaFabricBuilder::GetLinkDevices(uint32_t link) const
{
    return m_linkDevices.at(link);
}

uint32_t
RdmaFabricBuilder::GetVirtualNics(uint32_t host) const
{
    return m_vnics.at(host);
}

Ipv4Address
RdmaFabricBuilder::GetHostAddress(uint32_t host)
{
    return Ipv4Address(FIRST_HOST_ADDRESS.Get() + host);
}

Ipv4Address
RdmaFabricBuilder::GetAddress(uint32_t host, uint32_t v) const
{
    NS_ABORT_MSG_IF(host >= m_nHosts || v >= m_vnics[host],
                    "RdmaFabricBuilder::GetAddress: host " << host << " has no address " << v);
    return Ipv4Address(FIRST_HOST_ADDRESS.Get() + v * m_nHosts + host);
}

int64_t
RdmaFabricBuilder::FindHost(Ipv4Address address) const
{
    const uint32_t a = address.Get();
    if (m_nHosts == 0 || a < FIRST_HOST_ADDRESS.Get())
    {
        return -1;
    }
    const uint32_t offset = a - FIRST_HOST_ADDRESS.Get();
    const uint32_t host = offset % m_nHosts;
    return offset / m_nHosts < m_vnics[host] ? static_cast<int64_t>(host) : -1;
}

} // namespace ns3
