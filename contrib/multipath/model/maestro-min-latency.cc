#include "maestro-min-latency.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MaestroMinLatency);

TypeId
MaestroMinLatency::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MaestroMinLatency")
                            .SetParent<MaestroProportional>()
                            .SetGroupName("Multipath")
                            .AddConstructor<MaestroMinLatency>();
    return tid;
}

int64_t
MaestroMinLatency::DoSelectPath(const MaestroPathMonitor& monitor, uint64_t chunkBytes,
                                uint64_t messageBytes, uint32_t liveLimit)
{
    if (messageBytes > monitor.GetSmallMessageThreshold())
    {
        return MaestroProportional::DoSelectPath(monitor, chunkBytes, messageBytes, liveLimit);
    }
    int64_t best = -1;
    for (uint32_t vp = 0; vp < monitor.GetNPaths(); ++vp)
    {
        const MaestroPathState& p = monitor.Get(vp);
        if (!Eligible(p, liveLimit))
        {
            continue;
        }
        if (p.latency.IsZero())
        {
            return vp; // unmeasured: probe it
        }
        if (best < 0 || p.latency < monitor.Get(static_cast<uint32_t>(best)).latency)
        {
            best = vp;
        }
    }
    return best;
}

} // namespace ns3
