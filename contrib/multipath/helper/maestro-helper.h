/*
 * Installs Maestro endpoints between RDMA NICs.
 */
#ifndef MAESTRO_HELPER_H
#define MAESTRO_HELPER_H

#include "ns3/json-schema-reader.h"
#include "ns3/maestro-endpoint.h"
#include "ns3/object-factory.h"

#include <string>
#include <vector>

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

    /**
     * Pin the traffic from virtual NIC address \p src to \p dst onto an explicit
     * path, on any topology: \p links are (switch node id << 32 | egress port), the
     * format of MaestroVirtualPath::links and MaestroQpManager::EcmpPath; each
     * switch gets a route keyed on the address pair (DcbSwitch::SetPinnedRoute, the
     * SDN rule of SOSR'21 §3.1; the pair carries only RoCE, UDP 4791). Pin the
     * reverse pair too so that ACKs and CNPs follow. Call before Install.
     * \param reader, pointer where \p links were read (an array; link k at pointer/k)
     * \throw ConfigError at the link that is not a switch port (nothing is pinned then)
     */
    static void PinPath(Ipv4Address src, Ipv4Address dst, const std::vector<uint64_t>& links,
                        const JsonSchemaReader& reader, const std::string& pointer);

  private:
    ObjectFactory m_endpointFactory;
};

} // namespace ns3

#endif /* MAESTRO_HELPER_H */
