#include "round-robin-load-balancer.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoundRobinLoadBalancer);

TypeId
RoundRobinLoadBalancer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoundRobinLoadBalancer")
                            .SetParent<DcbLoadBalancer>()
                            .SetGroupName("Dcb")
                            .AddConstructor<RoundRobinLoadBalancer>();
    return tid;
}

RoundRobinLoadBalancer::RoundRobinLoadBalancer() = default;
RoundRobinLoadBalancer::~RoundRobinLoadBalancer() = default;

uint32_t
RoundRobinLoadBalancer::DoSelect(const DcbSwitch& /* sw */, const DcbEcmpGroup& group,
                                 uint32_t /* flowHash */, Time /* now */)
{
    if (group.id >= m_next.size())
    {
        m_next.resize(group.id + 1, 0);
    }
    // Groups hold at most 255 ports (DcbSwitch::SetRoute): the index fits a byte.
    const uint32_t index = m_next[group.id] < group.size ? m_next[group.id] : 0;
    m_next[group.id] = static_cast<uint8_t>(index + 1 < group.size ? index + 1 : 0);
    return index;
}

} // namespace ns3
