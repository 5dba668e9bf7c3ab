#include "topology-builder.h"

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/dcb-helper.h"
#include "ns3/dcb-routing-helper.h"
#include "ns3/experiment-config-error.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/rdma-helper.h"

#include <map>

namespace ns3
{

namespace
{
/** First host address; hosts are numbered contiguously from it. */
const Ipv4Address FIRST_HOST_ADDRESS("10.0.0.1");
} // namespace

TopologyBuilder::TopologyBuilder(const ExperimentConfig& config)
    : m_config(config)
{
}

Ipv4Address
TopologyBuilder::GetHostAddress(uint32_t host)
{
    return Ipv4Address(FIRST_HOST_ADDRESS.Get() + host);
}

void
TopologyBuilder::SetSystemIds(std::vector<uint32_t> systemIds)
{
    NS_ABORT_MSG_IF(systemIds.size() != m_config.GetTopology().GetNNodes(),
                    "TopologyBuilder::SetSystemIds: one id per node");
    m_systemIds = std::move(systemIds);
}

void
TopologyBuilder::Build()
{
    NS_ABORT_MSG_IF(m_hosts.GetN() > 0, "TopologyBuilder::Build called twice");
    const ExperimentTopology& topo = m_config.GetTopology();
    if (m_systemIds.empty())
    {
        m_hosts.Create(topo.hosts.size());
        m_switchNodes.Create(topo.switches.size());
    }
    else
    {
        // Node ids follow creation order, so they are the same on every rank.
        for (uint32_t i = 0; i < topo.GetNNodes(); ++i)
        {
            (i < topo.hosts.size() ? m_hosts : m_switchNodes)
                .Add(CreateObject<Node>(m_systemIds[i]));
        }
    }

    DcbHelper dcb;
    for (const auto& a : m_config.GetLink().attributes)
    {
        dcb.SetDeviceAttribute(a.name, *a.value);
    }
    for (const ExperimentLink& link : topo.links)
    {
        dcb.SetDeviceAttribute("DataRate", DataRateValue(link.rate));
        dcb.SetChannelAttribute("Delay", TimeValue(link.delay));
        const bool remote = !m_systemIds.empty() && m_systemIds[link.a] != m_systemIds[link.b];
        dcb.SetChannelType(remote ? "ns3::DcbRemoteChannel" : "ns3::DcbChannel");
        dcb.Install(GetNode(link.a), GetNode(link.b));
    }
    // One switch helper per buffer section: "buffer" and each "buffer_switches" entry.
    std::map<const ExperimentComponent*, DcbHelper> switchHelpers;
    for (uint32_t s = 0; s < m_switchNodes.GetN(); ++s)
    {
        const ExperimentComponent& buffer = m_config.GetBuffer(s);
        auto it = switchHelpers.find(&buffer);
        if (it == switchHelpers.end())
        {
            it = switchHelpers.emplace(&buffer, MakeSwitchHelper(buffer)).first;
        }
        std::string error;
        Ptr<DcbSwitch> sw = it->second.InstallSwitch(m_switchNodes.Get(s), &error);
        if (!sw)
        {
            // The buffer or ECN attributes are individually valid but cannot work together
            // on this topology (e.g. a buffer smaller than the PFC headroom it must reserve).
            const bool ecn = error.find("EcnMarker") != std::string::npos;
            throw ExperimentConfigError(m_config.GetSource(), ecn ? "/ecn" : buffer.pointer,
                                        "switch " + topo.switches[s] + ": " + error);
        }
        m_switches.push_back(sw);
    }

    // One helper per congestion control: "cc" and each "cc_hosts" entry (a NIC mix).
    const auto configure = [this](RdmaHelper& rdma, const ExperimentComponent& cc)
    {
        for (const auto& a : m_config.GetNic().attributes)
        {
            rdma.SetNicAttribute(a.name, *a.value);
        }
        rdma.SetCongestionControl(cc.typeName);
        for (const auto& a : cc.attributes)
        {
            rdma.SetCongestionControlAttribute(a.name, *a.value);
        }
        rdma.SetLossRecovery(m_config.GetLossRecovery().typeName);
        for (const auto& a : m_config.GetLossRecovery().attributes)
        {
            rdma.SetLossRecoveryAttribute(a.name, *a.value);
        }
        for (const auto& a : m_config.GetQueuePair().attributes)
        {
            rdma.SetQueuePairAttribute(a.name, *a.value);
        }
    };
    RdmaHelper rdma;
    configure(rdma, m_config.GetCongestionControl());
    std::vector<DcbRoutingHelper::HostAddress> addresses;
    for (uint32_t h = 0; h < m_hosts.GetN(); ++h)
    {
        const ExperimentComponent& cc = m_config.GetCongestionControl(h);
        if (&cc == &m_config.GetCongestionControl())
        {
            m_nics.push_back(rdma.Install(m_hosts.Get(h), GetHostAddress(h)));
        }
        else
        {
            RdmaHelper mixed;
            configure(mixed, cc);
            m_nics.push_back(mixed.Install(m_hosts.Get(h), GetHostAddress(h)));
        }
        addresses.push_back(DcbRoutingHelper::HostAddress{GetHostAddress(h), m_hosts.Get(h)});
    }
    DcbRoutingHelper::PopulateRoutes(addresses);
}

DcbHelper
TopologyBuilder::MakeSwitchHelper(const ExperimentComponent& buffer) const
{
    DcbHelper dcb;
    for (const auto& a : m_config.GetSwitch().attributes)
    {
        dcb.SetSwitchAttribute(a.name, *a.value);
    }
    dcb.SetBufferManager(buffer.typeName);
    for (const auto& a : buffer.attributes)
    {
        dcb.SetBufferManagerAttribute(a.name, *a.value);
    }
    const ExperimentComponent& ecn = m_config.GetEcn();
    dcb.SetEcnMarker(ecn.typeName == "none" ? "" : ecn.typeName);
    for (const auto& a : ecn.attributes)
    {
        dcb.SetEcnMarkerAttribute(a.name, *a.value);
    }
    for (const EcnLinkRateEntry& entry : m_config.GetEcnByLinkRate())
    {
        for (const auto& a : entry.attributes)
        {
            dcb.SetEcnMarkerAttributeForRate(entry.rate, a.name, *a.value);
        }
    }
    return dcb;
}

int64_t
TopologyBuilder::AssignStreams(int64_t stream)
{
    return DcbHelper::AssignStreams(m_switchNodes, stream);
}

uint32_t
TopologyBuilder::GetNHosts() const
{
    return m_hosts.GetN();
}

uint32_t
TopologyBuilder::GetNSwitches() const
{
    return m_switchNodes.GetN();
}

Ptr<Node>
TopologyBuilder::GetHost(uint32_t host) const
{
    return m_hosts.Get(host);
}

Ptr<RdmaNic>
TopologyBuilder::GetNic(uint32_t host) const
{
    return m_nics.at(host);
}

Ptr<DcbSwitch>
TopologyBuilder::GetSwitch(uint32_t sw) const
{
    return m_switches.at(sw);
}

Ptr<Node>
TopologyBuilder::GetNode(uint32_t index) const
{
    return index < m_hosts.GetN() ? m_hosts.Get(index) : m_switchNodes.Get(index - m_hosts.GetN());
}

const NodeContainer&
TopologyBuilder::GetSwitchNodes() const
{
    return m_switchNodes;
}

} // namespace ns3
