#include "dcb-load-balancer.h"

#include "dcb-net-device.h"
#include "dcb-switch.h"

#include "ns3/abort.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(DcbLoadBalancer);

TypeId
DcbLoadBalancer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcbLoadBalancer").SetParent<Object>().SetGroupName("Dcb");
    return tid;
}

DcbLoadBalancer::DcbLoadBalancer() = default;
DcbLoadBalancer::~DcbLoadBalancer() = default;

uint32_t
DcbLoadBalancer::Select(const DcbSwitch& sw, const DcbEcmpGroup& group, uint32_t flowHash, Time now)
{
    if (m_switch != &sw)
    {
        NS_ABORT_MSG_IF(m_switch, GetInstanceTypeId().GetName()
                                      << ": one load balancer object per switch (its state "
                                         "is the switch's); give each switch its own");
        m_switch = &sw;
    }
    const uint32_t index = DoSelect(sw, group, flowHash, now);
    NS_ASSERT(index < group.size);
    return index;
}

int64_t
DcbLoadBalancer::AssignStreams(int64_t /* stream */)
{
    return 0;
}

uint64_t
DcbLoadBalancer::QueuedBytes(const DcbSwitch& sw, uint32_t port, uint8_t cls)
{
    const Ptr<DcbNetDevice> dev = sw.GetPort(port);
    if (cls < DcbNetDevice::N_CLASSES)
    {
        return dev->GetQueueBytes(cls);
    }
    uint64_t bytes = 0;
    for (uint8_t c = 0; c < DcbNetDevice::N_CLASSES; ++c)
    {
        bytes += dev->GetQueueBytes(c);
    }
    return bytes;
}

uint32_t
DcbLoadBalancer::LeastQueued(const DcbSwitch& sw, const DcbEcmpGroup& group, uint32_t flowHash,
                             uint8_t cls)
{
    // Two passes over the group (at most 255 ports) and no buffer: the minimum and
    // how many ports share it, then the chosen one among those.
    uint64_t least = UINT64_MAX;
    uint32_t ties = 0;
    for (uint32_t i = 0; i < group.size; ++i)
    {
        const uint64_t bytes = QueuedBytes(sw, group.ports[i], cls);
        if (bytes < least)
        {
            least = bytes;
            ties = 1;
        }
        else if (bytes == least)
        {
            ++ties;
        }
    }
    uint32_t pick = flowHash % ties;
    for (uint32_t i = 0; i < group.size; ++i)
    {
        if (QueuedBytes(sw, group.ports[i], cls) == least && pick-- == 0)
        {
            return i;
        }
    }
    return 0; // not reached: a port holds the minimum
}

} // namespace ns3
