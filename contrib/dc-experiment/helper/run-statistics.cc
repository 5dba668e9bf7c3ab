#include "run-statistics.h"

#include "experiment-runner.h"

#include "ns3/dcb-net-device.h"
#include "ns3/node-list.h"

#include <cstdio>
#include <sys/resource.h>

namespace ns3
{

RunStatistics
RunStatistics::Collect(const ExperimentRunner& runner)
{
    RunStatistics s;
    for (uint32_t n = 0; n < NodeList::GetNNodes(); ++n)
    {
        Ptr<Node> node = NodeList::GetNode(n);
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            Ptr<DcbNetDevice> dev = DynamicCast<DcbNetDevice>(node->GetDevice(d));
            if (!dev)
            {
                continue;
            }
            for (uint8_t c = 0; c < DcbNetDevice::N_CLASSES; ++c)
            {
                s.framesSent += dev->GetCounters(c).txPackets;
            }
        }
    }
    s.events = runner.GetEventCount();
    s.simulatedSeconds = runner.GetEndTime().GetSeconds();
    s.setupWallSeconds = runner.GetSetupWallSeconds();
    s.eventLoopWallSeconds = runner.GetEventLoopWallSeconds();
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) == 0)
    {
        s.peakRssBytes = static_cast<uint64_t>(usage.ru_maxrss) * 1024; // Linux: KiB
        s.processCpuSeconds = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec * 1e-6 +
                              usage.ru_stime.tv_sec + usage.ru_stime.tv_usec * 1e-6;
    }
    return s;
}

void
RunStatistics::Print(std::ostream& os) const
{
    char line[160];
    const double loop = eventLoopWallSeconds > 0 ? eventLoopWallSeconds : 1e-9;
    std::snprintf(line, sizeof(line), "simulated time: %.6f s\n", simulatedSeconds);
    os << line;
    std::snprintf(line, sizeof(line), "frames serialized (all ports): %llu\n",
                  static_cast<unsigned long long>(framesSent));
    os << line;
    std::snprintf(line, sizeof(line), "events: %llu\n", static_cast<unsigned long long>(events));
    os << line;
    std::snprintf(line, sizeof(line), "wall set-up: %.3f s, event loop: %.3f s\n", setupWallSeconds,
                  eventLoopWallSeconds);
    os << line;
    std::snprintf(line, sizeof(line), "simulated packets per wall-second: %.0f\n",
                  framesSent / loop);
    os << line;
    std::snprintf(line, sizeof(line), "events per wall-second: %.0f\n", events / loop);
    os << line;
    std::snprintf(line, sizeof(line), "process CPU time (user+system): %.3f s\n",
                  processCpuSeconds);
    os << line;
    std::snprintf(line, sizeof(line),
                  "simulated packets per process CPU-second (set-up included): %.0f\n",
                  framesSent / (processCpuSeconds > 0 ? processCpuSeconds : 1e-9));
    os << line;
    std::snprintf(line, sizeof(line), "peak memory (RSS): %.1f MB\n", peakRssBytes / 1e6);
    os << line;
}

} // namespace ns3
