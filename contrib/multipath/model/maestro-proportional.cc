#include "maestro-proportional.h"

#include <limits>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MaestroProportional);

TypeId
MaestroProportional::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MaestroProportional")
                            .SetParent<MaestroLoadBalancer>()
                            .SetGroupName("Multipath")
                            .AddConstructor<MaestroProportional>();
    return tid;
}

int64_t
MaestroProportional::DoSelectPath(const MaestroPathMonitor& monitor, uint64_t chunkBytes, uint64_t,
                                  uint32_t liveLimit)
{
    int64_t best = -1;
    double bestFinish = std::numeric_limits<double>::infinity();
    for (uint32_t vp = 0; vp < monitor.GetNPaths(); ++vp)
    {
        const MaestroPathState& p = monitor.Get(vp);
        if (!p.usable)
        {
            continue;
        }
        if (p.liveWrs == 0 && liveLimit > 0)
        {
            return vp; // keep every path measured
        }
        const double rate = std::max<double>(1.0, static_cast<double>(p.rate.GetBitRate()));
        const double finish = (p.outstandingBytes + chunkBytes) * 8.0 / rate;
        if (finish < bestFinish)
        {
            bestFinish = finish;
            best = vp;
        }
    }
    return best; // the base class turns a full best path into "wait"
}

} // namespace ns3
