#include "maestro-leaf-spine-helper.h"

#include "ns3/abort.h"
#include "ns3/dcb-net-device.h"
#include "ns3/dcb-routing-helper.h"
#include "ns3/dcb-switch.h"

namespace ns3
{

MaestroLeafSpineHelper::MaestroLeafSpineHelper(std::vector<uint32_t> hostLeaf, uint32_t spines)
    : m_hostLeaf(std::move(hostLeaf))
    , m_spines(spines)
    , m_hostRate("40Gbps")
    , m_coreRate("40Gbps")
    , m_delay(MicroSeconds(1))
{
    NS_ABORT_MSG_IF(spines == 0, "MaestroLeafSpineHelper: at least one spine");
    for (uint32_t l : m_hostLeaf)
    {
        NS_ABORT_MSG_IF(l > 1, "MaestroLeafSpineHelper: host leaf must be 0 or 1, got " << l);
    }
}

void
MaestroLeafSpineHelper::SetHostRate(DataRate rate)
{
    m_hostRate = rate;
}

void
MaestroLeafSpineHelper::SetCoreRate(DataRate rate)
{
    m_coreRate = rate;
}

void
MaestroLeafSpineHelper::SetDelay(Time delay)
{
    m_delay = delay;
}

void
MaestroLeafSpineHelper::SetSpineDelays(std::vector<Time> delays)
{
    NS_ABORT_MSG_IF(delays.size() != m_spines, "MaestroLeafSpineHelper: " << delays.size()
                                                                          << " spine delays for "
                                                                          << m_spines << " spines");
    m_spineDelays = std::move(delays);
}

void
MaestroLeafSpineHelper::SetVirtualNics(uint32_t count)
{
    NS_ABORT_MSG_IF(count == 0 || count > 64, "MaestroLeafSpineHelper::SetVirtualNics: "
                                                  << count << " addresses per NIC (1..64)");
    m_vnics = count;
}

Ipv4Address
MaestroLeafSpineHelper::VirtualAddress(uint32_t i, uint32_t v) const
{
    return Ipv4Address(HostAddress(i).Get() + v * static_cast<uint32_t>(m_hostLeaf.size()));
}

void
MaestroLeafSpineHelper::PinVirtualPath(uint32_t a, uint32_t va, uint32_t b, uint32_t vb,
                                       uint32_t spine) const
{
    NS_ABORT_MSG_IF(a >= m_nics.size() || b >= m_nics.size() || va >= m_vnics || vb >= m_vnics ||
                        spine >= m_spines,
                    "MaestroLeafSpineHelper::PinVirtualPath: no host/vNIC/spine ("
                        << a << "/" << va << ", " << b << "/" << vb << ", " << spine << ")");
    const uint32_t la = m_hostLeaf[a];
    const uint32_t lb = m_hostLeaf[b];
    if (la == lb)
    {
        return;
    }
    const Ipv4Address src = VirtualAddress(a, va);
    const Ipv4Address dst = VirtualAddress(b, vb);
    auto port = [&](uint32_t leaf) { return m_core[leaf][spine].Get(0)->GetIfIndex(); };
    m_switches.Get(la)->GetObject<DcbSwitch>()->SetPinnedRoute(src, dst, port(la));
    m_switches.Get(lb)->GetObject<DcbSwitch>()->SetPinnedRoute(dst, src, port(lb));
}

void
MaestroLeafSpineHelper::Build(DcbHelper& dcb, const RdmaHelper& rdma)
{
    m_hosts.Create(m_hostLeaf.size());
    m_switches.Create(2 + m_spines);
    dcb.SetChannelAttribute("Delay", TimeValue(m_delay));
    dcb.SetDeviceAttribute("DataRate", DataRateValue(m_hostRate));
    for (uint32_t i = 0; i < m_hostLeaf.size(); ++i)
    {
        dcb.Install(m_hosts.Get(i), m_switches.Get(m_hostLeaf[i]));
    }
    dcb.SetDeviceAttribute("DataRate", DataRateValue(m_coreRate));
    m_core.assign(2, {});
    for (uint32_t l = 0; l < 2; ++l)
    {
        for (uint32_t s = 0; s < m_spines; ++s)
        {
            dcb.SetChannelAttribute("Delay",
                                    TimeValue(m_spineDelays.empty() ? m_delay : m_spineDelays[s]));
            m_core[l].push_back(dcb.Install(m_switches.Get(l), m_switches.Get(2 + s)));
        }
    }
    for (uint32_t s = 0; s < m_switches.GetN(); ++s)
    {
        dcb.InstallSwitch(m_switches.Get(s));
    }
    std::vector<DcbRoutingHelper::HostAddress> addresses;
    for (uint32_t i = 0; i < m_hostLeaf.size(); ++i)
    {
        m_nics.push_back(rdma.Install(m_hosts.Get(i), HostAddress(i)));
        addresses.push_back({HostAddress(i), m_hosts.Get(i)});
    }
    for (uint32_t v = 1; v < m_vnics; ++v)
    {
        for (uint32_t i = 0; i < m_hostLeaf.size(); ++i)
        {
            m_nics[i]->AddAddress(VirtualAddress(i, v));
            addresses.push_back({VirtualAddress(i, v), m_hosts.Get(i)});
        }
    }
    DcbRoutingHelper::PopulateRoutes(addresses);
    DcbHelper::AssignStreams(m_switches, 1);
}

void
MaestroLeafSpineHelper::SetSpineUp(uint32_t s, bool up) const
{
    NS_ABORT_MSG_IF(s >= m_spines, "MaestroLeafSpineHelper::SetSpineUp: no spine " << s);
    for (uint32_t l = 0; l < 2; ++l)
    {
        for (uint32_t d = 0; d < 2; ++d)
        {
            DynamicCast<DcbNetDevice>(m_core[l][s].Get(d))->SetLinkUp(up);
        }
    }
}

int64_t
MaestroLeafSpineHelper::SpineOfLink(uint64_t link) const
{
    const uint32_t node = static_cast<uint32_t>(link >> 32);
    const uint32_t port = static_cast<uint32_t>(link & 0xffffffff);
    for (uint32_t l = 0; l < 2; ++l)
    {
        if (m_switches.Get(l)->GetId() != node)
        {
            continue;
        }
        Ptr<DcbNetDevice> dev = m_switches.Get(l)->GetObject<DcbSwitch>()->GetPort(port);
        for (uint32_t s = 0; s < m_spines; ++s)
        {
            if (m_core[l][s].Get(0) == dev)
            {
                return s;
            }
        }
    }
    return -1;
}

const std::vector<Ptr<RdmaNic>>&
MaestroLeafSpineHelper::GetNics() const
{
    return m_nics;
}

const NodeContainer&
MaestroLeafSpineHelper::GetSwitches() const
{
    return m_switches;
}

Ipv4Address
MaestroLeafSpineHelper::HostAddress(uint32_t i)
{
    return Ipv4Address(Ipv4Address("10.0.0.1").Get() + i);
}

} // namespace ns3
