#include "adaptive-load-balancer.h"

#include "dcb-net-device.h"

#include "ns3/enum.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AdaptiveLoadBalancer);

TypeId
AdaptiveLoadBalancer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdaptiveLoadBalancer")
            .SetParent<DcbLoadBalancer>()
            .SetGroupName("Dcb")
            .AddConstructor<AdaptiveLoadBalancer>()
            .AddAttribute("Queues",
                          "Which queued bytes of an egress port count: AllClasses (default: "
                          "DRILL compares whole output queues) or OneClass (those of class "
                          "Class only).",
                          EnumValue(ALL_CLASSES), MakeEnumAccessor(&AdaptiveLoadBalancer::m_queues),
                          MakeEnumChecker(ALL_CLASSES, "AllClasses", ONE_CLASS, "OneClass"))
            .AddAttribute("Class",
                          "With Queues OneClass: the traffic class whose queues count. Default "
                          "3, the first lossless class of SONiC's default PFC configuration "
                          "(pfc_enable 3,4), where RoCE data goes.",
                          UintegerValue(3), MakeUintegerAccessor(&AdaptiveLoadBalancer::m_class),
                          MakeUintegerChecker<uint8_t>(0, DcbNetDevice::N_CLASSES - 1));
    return tid;
}

AdaptiveLoadBalancer::AdaptiveLoadBalancer() = default;
AdaptiveLoadBalancer::~AdaptiveLoadBalancer() = default;

uint32_t
AdaptiveLoadBalancer::DoSelect(const DcbSwitch& sw, const DcbEcmpGroup& group, uint32_t flowHash,
                               Time /* now */)
{
    return LeastQueued(sw, group, flowHash,
                       m_queues == ONE_CLASS ? m_class : DcbNetDevice::N_CLASSES);
}

} // namespace ns3
