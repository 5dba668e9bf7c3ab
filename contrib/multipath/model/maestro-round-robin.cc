#include "maestro-round-robin.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MaestroRoundRobin);

TypeId
MaestroRoundRobin::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MaestroRoundRobin")
                            .SetParent<MaestroLoadBalancer>()
                            .SetGroupName("Multipath")
                            .AddConstructor<MaestroRoundRobin>();
    return tid;
}

int64_t
MaestroRoundRobin::DoSelectPath(const MaestroPathMonitor& monitor, uint64_t, uint64_t,
                                uint32_t liveLimit)
{
    const uint32_t n = monitor.GetNPaths();
    for (uint32_t i = 0; i < n; ++i)
    {
        const uint32_t vp = (m_next + i) % n;
        const MaestroPathState& p = monitor.Get(vp);
        if (!p.usable)
        {
            continue;
        }
        if (p.liveWrs >= liveLimit)
        {
            m_next = vp;
            return -1; // its turn: wait for it
        }
        m_next = (vp + 1) % n;
        return vp;
    }
    return -1;
}

} // namespace ns3
