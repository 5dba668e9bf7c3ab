#include "dcb-helper.h"

#include "ns3/dcb-channel.h"
#include "ns3/dcb-net-device.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"

namespace ns3
{

DcbHelper::DcbHelper()
{
    m_deviceFactory.SetTypeId("ns3::DcbNetDevice");
    m_channelFactory.SetTypeId("ns3::DcbChannel");
    m_bufferFactory.SetTypeId("ns3::DynamicThresholdBufferManager");
    m_ecnFactory.SetTypeId("ns3::RedEcnMarker");
    m_switchFactory.SetTypeId("ns3::DcbSwitch");
}

void
DcbHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
DcbHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

void
DcbHelper::SetBufferManager(const std::string& type)
{
    m_bufferFactory.SetTypeId(type);
}

void
DcbHelper::SetBufferManagerAttribute(const std::string& name, const AttributeValue& value)
{
    m_bufferFactory.Set(name, value);
}

void
DcbHelper::SetEcnMarker(const std::string& type)
{
    m_ecnEnabled = !type.empty();
    if (m_ecnEnabled)
    {
        m_ecnFactory.SetTypeId(type);
    }
}

void
DcbHelper::SetEcnMarkerAttribute(const std::string& name, const AttributeValue& value)
{
    m_ecnFactory.Set(name, value);
}

void
DcbHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

NetDeviceContainer
DcbHelper::Install(Ptr<Node> a, Ptr<Node> b) const
{
    Ptr<DcbChannel> channel = m_channelFactory.Create<DcbChannel>();
    NetDeviceContainer devices;
    for (const Ptr<Node>& node : {a, b})
    {
        Ptr<DcbNetDevice> dev = m_deviceFactory.Create<DcbNetDevice>();
        dev->SetAddress(Mac48Address::Allocate());
        node->AddDevice(dev);
        dev->Attach(channel);
        devices.Add(dev);
    }
    return devices;
}

Ptr<DcbSwitch>
DcbHelper::InstallSwitch(Ptr<Node> node) const
{
    Ptr<DcbSwitch> sw = m_switchFactory.Create<DcbSwitch>();
    node->AggregateObject(sw);
    sw->SetBufferManager(m_bufferFactory.Create<BufferManager>());
    sw->Setup();
    if (m_ecnEnabled)
    {
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            sw->SetEcnMarker(p, m_ecnFactory.Create<EcnMarker>());
        }
    }
    return sw;
}

int64_t
DcbHelper::AssignStreams(NodeContainer switches, int64_t stream)
{
    int64_t used = 0;
    for (auto it = switches.Begin(); it != switches.End(); ++it)
    {
        Ptr<DcbSwitch> sw = (*it)->GetObject<DcbSwitch>();
        if (!sw)
        {
            continue;
        }
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            if (Ptr<EcnMarker> m = sw->GetEcnMarker(p))
            {
                used += m->AssignStreams(stream + used);
            }
        }
    }
    return used;
}

} // namespace ns3
