#include "dcb-helper.h"

#include "ns3/config-error.h"
#include "ns3/dcb-channel.h"
#include "ns3/dcb-load-balancer.h"
#include "ns3/dcb-net-device.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/red-ecn-marker.h"
#include "ns3/sonic-buffer-manager.h"
#include "ns3/uinteger.h"

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
DcbHelper::SetChannelType(const std::string& type)
{
    m_channelFactory.SetTypeId(type);
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
DcbHelper::SetEcnMarkerAttributeForRate(DataRate rate, const std::string& name,
                                        const AttributeValue& value)
{
    m_ecnRateAttributes.push_back(EcnRateAttribute{rate, name, value.Copy()});
}

void
DcbHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

void
DcbHelper::SetLoadBalancer(const std::string& type)
{
    m_loadBalancerEnabled = !type.empty();
    if (m_loadBalancerEnabled)
    {
        m_loadBalancerFactory.SetTypeId(type);
    }
}

void
DcbHelper::SetLoadBalancerAttribute(const std::string& name, const AttributeValue& value)
{
    m_loadBalancerFactory.Set(name, value);
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

void
DcbHelper::SetSource(const std::string& file, const std::string& bufferPointer,
                     const std::string& ecnPointer)
{
    m_sourceFile = file;
    m_bufferPointer = bufferPointer;
    m_ecnPointer = ecnPointer;
}

void
DcbHelper::Refuse(const std::string& pointer, const std::string& reason) const
{
    if (pointer.empty())
    {
        throw ConfigError(m_sourceFile, reason);
    }
    throw ConfigError(m_sourceFile, pointer, reason);
}

namespace
{
/** "switch <name>: ", \p name "" naming the switch by its node's id. */
std::string
SwitchPrefix(Ptr<Node> node, const std::string& name)
{
    return "switch " + (name.empty() ? "node " + std::to_string(node->GetId()) : name) + ": ";
}
} // namespace

Ptr<DcbSwitch>
DcbHelper::InstallSwitch(Ptr<Node> node, const std::string& name) const
{
    const std::string bufferType = m_bufferFactory.GetTypeId().GetName();
    const std::string ecnType = m_ecnFactory.GetTypeId().GetName();
    Ptr<DcbSwitch> sw = m_switchFactory.Create<DcbSwitch>();
    node->AggregateObject(sw);
    sw->SetBufferManager(m_bufferFactory.Create<BufferManager>());
    const std::string bufferError = sw->Setup();
    if (!bufferError.empty())
    {
        Refuse(m_bufferPointer, SwitchPrefix(node, name) + bufferType + ": " + bufferError);
    }
    ApplySonicQos(sw);
    if (m_ecnEnabled)
    {
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            Ptr<EcnMarker> marker = m_ecnFactory.Create<EcnMarker>();
            const DataRate rate = sw->GetPort(p)->GetDataRate();
            for (const EcnRateAttribute& a : m_ecnRateAttributes)
            {
                if (a.rate == rate && !marker->SetAttributeFailSafe(a.name, *a.value))
                {
                    Refuse(m_ecnPointer, SwitchPrefix(node, name) + ecnType + ": cannot set " +
                                             a.name + " for the ports at " +
                                             std::to_string(rate.GetBitRate()) + " bit/s");
                }
            }
            const std::string ecnError = marker->CheckConfig();
            if (!ecnError.empty())
            {
                Refuse(m_ecnPointer, SwitchPrefix(node, name) + ecnType + ": " + ecnError);
            }
            sw->SetEcnMarker(p, marker);
        }
        ApplySonicWred(sw);
    }
    if (m_loadBalancerEnabled)
    {
        sw->SetAttribute("LoadBalancer",
                         PointerValue(m_loadBalancerFactory.Create<DcbLoadBalancer>()));
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
    for (auto it = switches.Begin(); it != switches.End(); ++it)
    {
        Ptr<DcbSwitch> sw = (*it)->GetObject<DcbSwitch>();
        PointerValue balancer;
        if (sw)
        {
            sw->GetAttribute("LoadBalancer", balancer);
        }
        if (Ptr<DcbLoadBalancer> lb = balancer.Get<DcbLoadBalancer>())
        {
            used += lb->AssignStreams(stream + used);
        }
    }
    return used;
}

uint32_t
DcbHelper::ApplySonicWred(Ptr<DcbSwitch> sw)
{
    Ptr<SonicBufferManager> bm = DynamicCast<SonicBufferManager>(sw->GetBufferManager());
    if (!bm || bm->GetConfig().wredProfiles.empty())
    {
        return 0;
    }
    const SonicBufferConfig& c = bm->GetConfig();
    uint32_t programmed = 0;
    for (uint32_t p = 0; p < sw->GetNPorts() && p < c.ports.size(); ++p)
    {
        Ptr<RedEcnMarker> red = DynamicCast<RedEcnMarker>(sw->GetEcnMarker(p));
        if (!red)
        {
            continue;
        }
        uint8_t mask = 0;
        for (uint8_t q = 0; q < 8; ++q)
        {
            const int32_t wi = c.ports[p].queueWred[q];
            if (wi == SonicPortBuffer::NONE)
            {
                continue;
            }
            const SonicWredProfile& w = c.wredProfiles[wi];
            if (!w.greenEnable || !w.ecnMarking)
            {
                continue;
            }
            red->SetClassThresholds(q, w.greenMin, w.greenMax, w.greenDropProbability);
            mask |= static_cast<uint8_t>(1u << q);
            ++programmed;
        }
        red->SetAttribute("EcnClasses", UintegerValue(mask));
    }
    return programmed;
}

void
DcbHelper::ApplySonicConfig(Ptr<DcbSwitch> sw, const SonicBufferConfig& config,
                            const std::string& name) const
{
    const std::string bufferType = sw->GetBufferManager()->GetInstanceTypeId().GetName();
    Ptr<SonicBufferManager> bm = DynamicCast<SonicBufferManager>(sw->GetBufferManager());
    if (!bm)
    {
        Refuse(m_bufferPointer,
               SwitchPrefix(sw->GetObject<Node>(), name) +
                   "a SONiC buffer configuration needs ns3::SonicBufferManager (or a "
                   "subclass), not " +
                   bufferType);
    }
    bm->SetConfig(config);
    const std::string error = sw->Setup();
    if (!error.empty())
    {
        Refuse(m_bufferPointer, SwitchPrefix(sw->GetObject<Node>(), name) + bufferType +
                                    ": after a config reload: " + error);
    }
    ApplySonicQos(sw);
    ApplySonicWred(sw);
}

uint32_t
DcbHelper::ApplySonicQos(Ptr<DcbSwitch> sw)
{
    Ptr<SonicBufferManager> bm = DynamicCast<SonicBufferManager>(sw->GetBufferManager());
    if (!bm)
    {
        return 0;
    }
    const SonicBufferConfig& c = bm->GetConfig();
    uint32_t applied = 0;
    for (uint32_t p = 0; p < sw->GetNPorts() && p < c.ports.size(); ++p)
    {
        if (const std::array<uint8_t, 64>* map = c.DscpToTc(p))
        {
            for (uint8_t d = 0; d < 64; ++d)
            {
                sw->SetDscpToTc(p, d, (*map)[d]);
            }
            ++applied;
        }
        uint8_t dwrr = 0;
        bool scheduled = false;
        Ptr<DcbNetDevice> dev = sw->GetPort(p);
        for (uint8_t q = 0; q < 8; ++q)
        {
            const int32_t si = c.ports[p].queueScheduler[q];
            if (si == SonicPortBuffer::NONE)
            {
                continue;
            }
            scheduled = true;
            const SonicScheduler& s = c.schedulers[si];
            if (s.dwrr)
            {
                dev->SetDwrrWeight(q, s.weight);
                dwrr |= static_cast<uint8_t>(1u << q);
            }
        }
        if (scheduled)
        {
            dev->SetAttribute("DwrrClassMask", UintegerValue(dwrr));
            ++applied;
        }
    }
    return applied;
}

Ptr<PfcWatchdog>
DcbHelper::InstallPfcWatchdog(Ptr<DcbSwitch> sw, const ObjectFactory& factory)
{
    Ptr<PfcWatchdog> wd = factory.Create<PfcWatchdog>();
    Ptr<SonicBufferManager> bm = DynamicCast<SonicBufferManager>(sw->GetBufferManager());
    if (bm)
    {
        for (const SonicPortBuffer& port : bm->GetConfig().ports)
        {
            if (port.watchdog)
            {
                wd->ConfigureFromSonic(bm->GetConfig());
                break;
            }
        }
    }
    sw->AggregateObject(wd);
    wd->Install(sw);
    return wd;
}

} // namespace ns3
