#include "maestro-helper.h"

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

} // namespace ns3
