#include "rdma-helper.h"

#include "rdma-nic-profile.h"

#include "ns3/abort.h"
#include "ns3/dcb-net-device.h"
#include "ns3/hash.h"
#include "ns3/json-schema-reader.h"
#include "ns3/node.h"

#include <cstring>

namespace ns3
{

RdmaHelper::RdmaHelper()
{
    m_nicFactory.SetTypeId("ns3::RdmaNic");
    m_ccFactory.SetTypeId("ns3::RdmaDcqcn");
    m_lossFactory.SetTypeId("ns3::RdmaGoBackN");
}

void
RdmaHelper::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    m_nicFactory.Set(name, value);
}

void
RdmaHelper::SetCongestionControl(const std::string& type)
{
    m_ccFactory.SetTypeId(type);
}

void
RdmaHelper::SetCongestionControlAttribute(const std::string& name, const AttributeValue& value)
{
    m_ccFactory.Set(name, value);
}

void
RdmaHelper::SetLossRecovery(const std::string& type)
{
    m_lossFactory.SetTypeId(type);
}

void
RdmaHelper::SetLossRecoveryAttribute(const std::string& name, const AttributeValue& value)
{
    m_lossFactory.Set(name, value);
}

void
RdmaHelper::SetQueuePairAttribute(const std::string& name, const AttributeValue& value)
{
    m_qpAttributes.emplace_back(name, value.Copy());
}

void
RdmaHelper::SetQpScheduler(const std::string& type)
{
    m_schedulerFactory.SetTypeId(type);
    m_schedulerSet = true;
}

void
RdmaHelper::SetQpSchedulerAttribute(const std::string& name, const AttributeValue& value)
{
    NS_ABORT_MSG_IF(!m_schedulerSet, "RdmaHelper: SetQpScheduler before its attributes");
    m_schedulerFactory.Set(name, value);
}

void
RdmaHelper::SetCacheModel(const std::string& type)
{
    m_cacheSet = !type.empty();
    if (m_cacheSet)
    {
        m_cacheFactory.SetTypeId(type);
    }
}

void
RdmaHelper::SetCacheModelAttribute(const std::string& name, const AttributeValue& value)
{
    NS_ABORT_MSG_IF(!m_cacheSet, "RdmaHelper: SetCacheModel before its attributes");
    m_cacheFactory.Set(name, value);
}

void
RdmaHelper::SetProfile(const std::string& name, const JsonSchemaReader& reader,
                       const std::string& pointer)
{
    RdmaNicProfile::Lookup(name, reader, pointer).Apply(*this);
}

Ptr<RdmaNic>
RdmaHelper::Install(Ptr<Node> host, Ipv4Address address) const
{
    Ptr<DcbNetDevice> dev;
    for (uint32_t i = 0; i < host->GetNDevices() && !dev; ++i)
    {
        dev = DynamicCast<DcbNetDevice>(host->GetDevice(i));
    }
    NS_ABORT_MSG_IF(!dev, "RdmaHelper: node " << host->GetId() << " has no DcbNetDevice");
    Ptr<RdmaNic> nic = m_nicFactory.Create<RdmaNic>();
    host->AggregateObject(nic);
    nic->SetCongestionControl(m_ccFactory.Create<RdmaCongestionOps>());
    nic->SetLossRecovery(m_lossFactory.Create<RdmaLossRecovery>());
    for (const auto& [name, value] : m_qpAttributes)
    {
        nic->SetQueuePairAttribute(name, *value);
    }
    if (m_schedulerSet)
    {
        nic->SetQpScheduler(m_schedulerFactory.Create<QpScheduler>());
    }
    if (m_cacheSet)
    {
        nic->SetCacheModel(m_cacheFactory.Create<RnicCacheModel>());
    }
    nic->Setup(dev, address);
    return nic;
}

uint16_t
RdmaHelper::UdpSourcePort(Ipv4Address local, Ipv4Address remote, uint32_t localQpn,
                          uint32_t remoteQpn)
{
    char key[16];
    const uint32_t l = local.Get();
    const uint32_t r = remote.Get();
    std::memcpy(key, &l, 4);
    std::memcpy(key + 4, &r, 4);
    std::memcpy(key + 8, &localQpn, 4);
    std::memcpy(key + 12, &remoteQpn, 4);
    return static_cast<uint16_t>(0xc000 | (Hash32(key, sizeof(key)) & 0x3fff));
}

std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>
RdmaHelper::Connect(Ptr<RdmaNic> a, Ptr<RdmaNic> b)
{
    return Connect(a, a->GetAddress(), b, b->GetAddress());
}

std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>
RdmaHelper::Connect(Ptr<RdmaNic> a, Ipv4Address aLocal, Ptr<RdmaNic> b, Ipv4Address bLocal)
{
    const uint32_t aQpn = a->ReserveQpn();
    const uint32_t bQpn = b->ReserveQpn();
    return Connect(a, aLocal, aQpn, b, bLocal, bQpn);
}

std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>
RdmaHelper::Connect(Ptr<RdmaNic> a, Ipv4Address aLocal, uint32_t aQpn, Ptr<RdmaNic> b,
                    Ipv4Address bLocal, uint32_t bQpn)
{
    Ptr<RdmaQueuePair> qa = a->CreateQueuePair(aLocal, bLocal, aQpn);
    Ptr<RdmaQueuePair> qb = b->CreateQueuePair(bLocal, aLocal, bQpn);
    qa->Connect(qb->GetQpn());
    qb->Connect(qa->GetQpn());
    qa->SetUdpSourcePort(UdpSourcePort(aLocal, bLocal, qa->GetQpn(), qb->GetQpn()));
    qb->SetUdpSourcePort(UdpSourcePort(bLocal, aLocal, qb->GetQpn(), qa->GetQpn()));
    return {qa, qb};
}

} // namespace ns3
