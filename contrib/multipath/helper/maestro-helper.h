/*
 * Installs Maestro endpoints between RDMA NICs.
 */
#ifndef MAESTRO_HELPER_H
#define MAESTRO_HELPER_H

#include "ns3/maestro-endpoint.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

/**
 * \ingroup multipath
 * Creates a MaestroEndpoint from \p local to \p remote with its virtual paths.
 * Attributes of the endpoint's parts are set through Config::SetDefault on
 * ns3::MaestroDecomposer, ns3::MaestroQpManager and ns3::MaestroPathMonitor, or
 * after Install through the endpoint's getters.
 */
class MaestroHelper
{
  public:
    MaestroHelper();

    void SetEndpointAttribute(const std::string& name, const AttributeValue& value);
    /** Load balancer TypeId, e.g. "ns3::MaestroRoundRobin". */
    void SetLoadBalancer(const std::string& type);

    Ptr<MaestroEndpoint> Install(Ptr<RdmaNic> local, Ptr<RdmaNic> remote) const;

  private:
    ObjectFactory m_endpointFactory;
};

} // namespace ns3

#endif /* MAESTRO_HELPER_H */
