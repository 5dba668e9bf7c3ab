#include "maestro-load-balancer.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MaestroLoadBalancer);

TypeId
MaestroLoadBalancer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MaestroLoadBalancer").SetParent<Object>().SetGroupName("Multipath");
    return tid;
}

int64_t
MaestroLoadBalancer::SelectPath(const MaestroPathMonitor& monitor, uint64_t chunkBytes,
                                uint64_t messageBytes, uint32_t liveLimit)
{
    if (monitor.GetNUsable() == 0)
    {
        return -1;
    }
    const int64_t vp = DoSelectPath(monitor, chunkBytes, messageBytes, liveLimit);
    if (vp >= 0 && !Eligible(monitor.Get(static_cast<uint32_t>(vp)), liveLimit))
    {
        return -1; // a policy never overruns the live-WR limit
    }
    return vp;
}

bool
MaestroLoadBalancer::Eligible(const MaestroPathState& p, uint32_t liveLimit)
{
    return p.usable && p.liveWrs < liveLimit;
}

} // namespace ns3
