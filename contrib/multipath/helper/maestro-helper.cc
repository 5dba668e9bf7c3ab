#include "maestro-helper.h"

#include "ns3/dcb-switch.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/string.h"

namespace ns3
{

MaestroHelper::MaestroHelper()
{
    m_endpointFactory.SetTypeId("ns3::MaestroEndpoint");
}

void
MaestroHelper::SetEndpointAttribute(const std::string& name, const AttributeValue& value)
{
    m_endpointFactory.Set(name, value);
}

void
MaestroHelper::SetLoadBalancer(const std::string& type)
{
    m_endpointFactory.Set("LoadBalancerType", StringValue(type));
}

Ptr<MaestroEndpoint>
MaestroHelper::Install(Ptr<RdmaNic> local, Ptr<RdmaNic> remote) const
{
    Ptr<MaestroEndpoint> endpoint = m_endpointFactory.Create<MaestroEndpoint>();
    endpoint->Connect(local, remote);
    endpoint->Initialize();
    return endpoint;
}

void
MaestroHelper::PinPath(Ipv4Address src, Ipv4Address dst, const std::vector<uint64_t>& links,
                       const JsonSchemaReader& reader, const std::string& pointer)
{
    for (std::size_t k = 0; k < links.size(); ++k)
    {
        const uint64_t link = links[k];
        const uint32_t node = static_cast<uint32_t>(link >> 32);
        const uint32_t port = static_cast<uint32_t>(link & 0xffffffff);
        Ptr<DcbSwitch> sw = node < NodeList::GetNNodes()
                                ? NodeList::GetNode(node)->GetObject<DcbSwitch>()
                                : nullptr;
        if (!sw || port >= sw->GetNPorts())
        {
            reader.Fail(JsonSchemaReader::Child(pointer, k), "link (node " + std::to_string(node) +
                                                                 ", port " + std::to_string(port) +
                                                                 ") is not a switch port");
        }
    }
    for (uint64_t link : links)
    {
        NodeList::GetNode(static_cast<uint32_t>(link >> 32))
            ->GetObject<DcbSwitch>()
            ->SetPinnedRoute(src, dst, static_cast<uint32_t>(link & 0xffffffff));
    }
}

} // namespace ns3
