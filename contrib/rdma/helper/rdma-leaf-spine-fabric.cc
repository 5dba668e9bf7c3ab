#include "rdma-leaf-spine-fabric.h"

#include "ns3/abort.h"
#include "ns3/node.h"

namespace ns3
{

RdmaLeafSpineFabric::RdmaLeafSpineFabric(std::vector<uint32_t> hostLeaf, uint32_t leaves,
                                         uint32_t spines)
    : m_hostLeaf(std::move(hostLeaf))
    , m_leaves(leaves)
    , m_spines(spines)
    , m_hostRates(m_hostLeaf.size(), DataRate("40Gbps"))
    , m_coreRate("40Gbps")
    , m_delay(MicroSeconds(1))
    , m_fabric(static_cast<uint32_t>(m_hostLeaf.size()), leaves + spines)
{
    NS_ABORT_MSG_IF(leaves == 0, "RdmaLeafSpineFabric: at least one leaf");
    for (uint32_t l : m_hostLeaf)
    {
        NS_ABORT_MSG_IF(l >= leaves, "RdmaLeafSpineFabric: host leaf " << l << " of " << leaves);
    }
}

RdmaLeafSpineFabric
RdmaLeafSpineFabric::Star(uint32_t hosts, DataRate rate, Time delay)
{
    RdmaLeafSpineFabric f(std::vector<uint32_t>(hosts, 0), 1, 0);
    f.SetHostRate(rate);
    f.SetDelay(delay);
    return f;
}

RdmaLeafSpineFabric
RdmaLeafSpineFabric::Uniform(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf, DataRate rate,
                             Time delay)
{
    std::vector<uint32_t> hostLeaf;
    for (uint32_t i = 0; i < leaves * hostsPerLeaf; ++i)
    {
        hostLeaf.push_back(i / hostsPerLeaf);
    }
    RdmaLeafSpineFabric f(hostLeaf, leaves, spines);
    f.SetHostRate(rate);
    f.SetCoreRate(rate);
    f.SetDelay(delay);
    return f;
}

void
RdmaLeafSpineFabric::SetHostRate(DataRate rate)
{
    m_hostRates.assign(m_hostLeaf.size(), rate);
}

void
RdmaLeafSpineFabric::SetHostRate(uint32_t host, DataRate rate)
{
    m_hostRates.at(host) = rate;
}

void
RdmaLeafSpineFabric::SetCoreRate(DataRate rate)
{
    m_coreRate = rate;
}

void
RdmaLeafSpineFabric::SetDelay(Time delay)
{
    m_delay = delay;
}

void
RdmaLeafSpineFabric::SetSpineDelays(std::vector<Time> delays)
{
    NS_ABORT_MSG_IF(delays.size() != m_spines, "RdmaLeafSpineFabric: " << delays.size()
                                                                       << " spine delays for "
                                                                       << m_spines << " spines");
    m_spineDelays = std::move(delays);
}

void
RdmaLeafSpineFabric::Build(const DcbHelper& dcb, const RdmaHelper& rdma)
{
    const auto nHosts = static_cast<uint32_t>(m_hostLeaf.size());
    for (uint32_t i = 0; i < nHosts; ++i)
    {
        m_fabric.AddLink(i, nHosts + m_hostLeaf[i], m_hostRates[i], m_delay);
    }
    for (uint32_t l = 0; l < m_leaves; ++l)
    {
        for (uint32_t s = 0; s < m_spines; ++s)
        {
            m_fabric.AddLink(nHosts + l, nHosts + m_leaves + s, m_coreRate,
                             m_spineDelays.empty() ? m_delay : m_spineDelays[s]);
        }
    }
    m_fabric.Build(dcb, rdma);
    m_fabric.AssignStreams(1);
}

RdmaFabricBuilder&
RdmaLeafSpineFabric::GetFabric()
{
    return m_fabric;
}

const RdmaFabricBuilder&
RdmaLeafSpineFabric::GetFabric() const
{
    return m_fabric;
}

const std::vector<Ptr<RdmaNic>>&
RdmaLeafSpineFabric::GetNics() const
{
    return m_fabric.GetNics();
}

const NodeContainer&
RdmaLeafSpineFabric::GetHosts() const
{
    return m_fabric.GetHostNodes();
}

const NodeContainer&
RdmaLeafSpineFabric::GetSwitches() const
{
    return m_fabric.GetSwitchNodes();
}

Ptr<DcbSwitch>
RdmaLeafSpineFabric::GetSwitch(uint32_t sw) const
{
    return m_fabric.GetSwitch(sw);
}

uint32_t
RdmaLeafSpineFabric::GetCoreLink(uint32_t leaf, uint32_t spine) const
{
    NS_ABORT_MSG_IF(leaf >= m_leaves || spine >= m_spines,
                    "RdmaLeafSpineFabric: no link from leaf " << leaf << " to spine " << spine);
    return static_cast<uint32_t>(m_hostLeaf.size()) + leaf * m_spines + spine;
}

Ipv4Address
RdmaLeafSpineFabric::HostAddress(uint32_t i)
{
    return RdmaFabricBuilder::GetHostAddress(i);
}

Ipv4Address
RdmaLeafSpineFabric::VirtualAddress(uint32_t i, uint32_t v) const
{
    return m_fabric.GetAddress(i, v);
}

void
RdmaLeafSpineFabric::SetSpineUp(uint32_t s, bool up) const
{
    NS_ABORT_MSG_IF(s >= m_spines, "RdmaLeafSpineFabric::SetSpineUp: no spine " << s);
    for (uint32_t l = 0; l < m_leaves; ++l)
    {
        m_fabric.SetLinkUp(GetCoreLink(l, s), up);
    }
}

int64_t
RdmaLeafSpineFabric::SpineOfLink(uint64_t link) const
{
    const auto node = static_cast<uint32_t>(link >> 32);
    const auto port = static_cast<uint32_t>(link & 0xffffffff);
    for (uint32_t l = 0; l < m_leaves; ++l)
    {
        Ptr<DcbSwitch> leaf = m_fabric.GetSwitch(l);
        if (m_fabric.GetSwitchNodes().Get(l)->GetId() != node || port >= leaf->GetNPorts())
        {
            continue;
        }
        const int64_t found = m_fabric.FindLink(leaf->GetPort(port));
        const int64_t first = GetCoreLink(l, 0);
        if (m_spines > 0 && found >= first && found < first + m_spines)
        {
            return found - first;
        }
    }
    return -1;
}

void
RdmaLeafSpineFabric::PinVirtualPath(uint32_t a, uint32_t va, uint32_t b, uint32_t vb,
                                    uint32_t spine) const
{
    NS_ABORT_MSG_IF(a >= m_hostLeaf.size() || b >= m_hostLeaf.size() ||
                        va >= m_fabric.GetVirtualNics(a) || vb >= m_fabric.GetVirtualNics(b) ||
                        spine >= m_spines,
                    "RdmaLeafSpineFabric::PinVirtualPath: no host/vNIC/spine ("
                        << a << "/" << va << ", " << b << "/" << vb << ", " << spine << ")");
    const uint32_t la = m_hostLeaf[a];
    const uint32_t lb = m_hostLeaf[b];
    if (la == lb)
    {
        return;
    }
    const Ipv4Address src = VirtualAddress(a, va);
    const Ipv4Address dst = VirtualAddress(b, vb);
    m_fabric.PinRoute(la, src, dst, GetCoreLink(la, spine));
    m_fabric.PinRoute(lb, dst, src, GetCoreLink(lb, spine));
}

} // namespace ns3
