#include "topology-builder.h"

#include "ns3/abort.h"
#include "ns3/dcb-helper.h"
#include "ns3/node.h"
#include "ns3/rdma-helper.h"

#include <map>

namespace ns3
{

TopologyBuilder::TopologyBuilder(const ExperimentConfig& config)
    : m_config(config)
    , m_fabric(config.GetTopology().hosts.size(), config.GetTopology().switches.size())
{
}

Ipv4Address
TopologyBuilder::GetHostAddress(uint32_t host)
{
    return RdmaFabricBuilder::GetHostAddress(host);
}

void
TopologyBuilder::SetSystemIds(std::vector<uint32_t> systemIds)
{
    NS_ABORT_MSG_IF(systemIds.size() != m_config.GetTopology().GetNNodes(),
                    "TopologyBuilder::SetSystemIds: one id per node");
    m_fabric.SetSystemIds(std::move(systemIds));
}

void
TopologyBuilder::Build()
{
    NS_ABORT_MSG_IF(m_built, "TopologyBuilder::Build called twice");
    m_built = true;
    const ExperimentTopology& topo = m_config.GetTopology();
    for (const ExperimentLink& link : topo.links)
    {
        m_fabric.AddLink(link.a, link.b, link.rate, link.delay);
    }
    DcbHelper links;
    for (const auto& a : m_config.GetLink().attributes)
    {
        links.SetDeviceAttribute(a.name, *a.value);
    }

    // One DcbHelper per buffer section ("buffer" and each "buffer_switches" entry) and
    // load balancer ("load_balancing" entries; none: ECMP) that switches share.
    const DcbHelper switches = MakeSwitchHelper(m_config.GetBuffer(), nullptr);
    std::map<std::pair<const ExperimentComponent*, const ExperimentComponent*>, DcbHelper>
        switchHelpers;
    for (uint32_t s = 0; s < topo.switches.size(); ++s)
    {
        const ExperimentComponent& buffer = m_config.GetBuffer(s);
        const ExperimentComponent* balancer = m_config.GetLoadBalancer(s);
        if (&buffer != &m_config.GetBuffer() || balancer)
        {
            const auto key = std::make_pair(&buffer, balancer);
            auto it = switchHelpers.find(key);
            if (it == switchHelpers.end())
            {
                it = switchHelpers.emplace(key, MakeSwitchHelper(buffer, balancer)).first;
            }
            m_fabric.SetSwitchHelper(s, it->second);
        }
    }
    // A switch whose buffer or ECN attributes are individually valid but cannot work
    // together on this topology (e.g. a buffer smaller than the PFC headroom it must
    // reserve) is refused at its "buffer" entry or "/ecn" (MakeSwitchHelper's source).
    m_fabric.SetSwitchNames(topo.switches);

    // One NIC helper per congestion control: "cc", and each of the node composition's
    // own (a "cc_hosts" entry or a NIC profile's "cc": a NIC mix).
    const RdmaHelper nics = MakeNicHelper(m_config.GetCongestionControl());
    const NodeComposition& nodes = m_config.GetNodes();
    std::vector<RdmaHelper> nicHelpers;
    for (const NodeCongestionControl& cc : nodes.congestionControls)
    {
        nicHelpers.push_back(MakeNicHelper(cc.cc));
    }
    for (uint32_t h = 0; h < topo.hosts.size(); ++h)
    {
        if (h < nodes.hosts.size() && nodes.hosts[h].cc >= 0)
        {
            m_fabric.SetNicHelper(h, nicHelpers[nodes.hosts[h].cc]);
        }
        if (h < nodes.hosts.size() && nodes.hosts[h].virtualNics > 0)
        {
            m_fabric.SetVirtualNics(h, nodes.hosts[h].virtualNics);
        }
    }
    m_fabric.Build(links, switches, nics);

    // "load_balancing" "entropy" entries: each selected NIC its own RdmaPathEntropy.
    for (uint32_t h = 0; h < topo.hosts.size(); ++h)
    {
        const ExperimentComponent* entropy = m_config.GetPathEntropy(h);
        if (entropy && m_fabric.GetNic(h)) // null: the host lives in another MPI rank
        {
            ObjectFactory factory(entropy->typeName);
            for (const auto& a : entropy->attributes)
            {
                factory.Set(a.name, *a.value);
            }
            m_fabric.GetNic(h)->SetPathEntropy(factory.Create<RdmaPathEntropy>());
        }
    }
}

RdmaHelper
TopologyBuilder::MakeNicHelper(const ExperimentComponent& cc) const
{
    RdmaHelper rdma;
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
    return rdma;
}

DcbHelper
TopologyBuilder::MakeSwitchHelper(const ExperimentComponent& buffer,
                                  const ExperimentComponent* balancer) const
{
    DcbHelper dcb;
    dcb.SetSource(m_config.GetSource(), buffer.pointer, m_config.GetEcn().pointer);
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
    if (balancer)
    {
        dcb.SetLoadBalancer(balancer->typeName);
        for (const auto& a : balancer->attributes)
        {
            dcb.SetLoadBalancerAttribute(a.name, *a.value);
        }
    }
    return dcb;
}

int64_t
TopologyBuilder::AssignStreams(int64_t stream)
{
    // The NICs' entropy streams lie apart from the switches' (ENTROPY_STREAM, one per NIC
    // by host index): adding them leaves every other stream as it was.
    for (uint32_t h = 0; h < GetNHosts(); ++h)
    {
        Ptr<RdmaNic> nic = GetNic(h);
        if (Ptr<RdmaPathEntropy> entropy = nic ? nic->GetPathEntropy() : nullptr)
        {
            entropy->AssignStreams(ExperimentConfig::ENTROPY_STREAM + h);
        }
    }
    return m_fabric.AssignStreams(stream);
}

uint32_t
TopologyBuilder::GetNHosts() const
{
    return m_fabric.GetHostNodes().GetN();
}

uint32_t
TopologyBuilder::GetNSwitches() const
{
    return m_fabric.GetSwitchNodes().GetN();
}

Ptr<Node>
TopologyBuilder::GetHost(uint32_t host) const
{
    return m_fabric.GetHost(host);
}

Ptr<RdmaNic>
TopologyBuilder::GetNic(uint32_t host) const
{
    return m_fabric.GetNic(host);
}

Ptr<DcbSwitch>
TopologyBuilder::GetSwitch(uint32_t sw) const
{
    return m_fabric.GetSwitch(sw);
}

Ptr<Node>
TopologyBuilder::GetNode(uint32_t index) const
{
    return m_fabric.GetNode(index);
}

const NodeContainer&
TopologyBuilder::GetSwitchNodes() const
{
    return m_fabric.GetSwitchNodes();
}

const RdmaFabricBuilder&
TopologyBuilder::GetFabric() const
{
    return m_fabric;
}

} // namespace ns3
