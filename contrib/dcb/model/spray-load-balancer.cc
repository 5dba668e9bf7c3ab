#include "spray-load-balancer.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SprayLoadBalancer);

TypeId
SprayLoadBalancer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SprayLoadBalancer")
                            .SetParent<DcbLoadBalancer>()
                            .SetGroupName("Dcb")
                            .AddConstructor<SprayLoadBalancer>();
    return tid;
}

SprayLoadBalancer::SprayLoadBalancer()
    : m_rng(CreateObject<UniformRandomVariable>())
{
}

SprayLoadBalancer::~SprayLoadBalancer() = default;

int64_t
SprayLoadBalancer::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

uint32_t
SprayLoadBalancer::DoSelect(const DcbSwitch& /* sw */, const DcbEcmpGroup& group,
                            uint32_t /* flowHash */, Time /* now */)
{
    return m_rng->GetInteger(0, group.size - 1);
}

} // namespace ns3
