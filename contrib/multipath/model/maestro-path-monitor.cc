#include "maestro-path-monitor.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MaestroPathMonitor");
NS_OBJECT_ENSURE_REGISTERED(MaestroPathMonitor);

TypeId
MaestroPathMonitor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MaestroPathMonitor")
            .SetParent<Object>()
            .SetGroupName("Multipath")
            .AddConstructor<MaestroPathMonitor>()
            .AddAttribute("RateGain",
                          "EWMA weight of a new drain-rate sample. Default 1/8, the gain "
                          "RFC 6298 gives TCP's smoothed RTT.",
                          DoubleValue(0.125), MakeDoubleAccessor(&MaestroPathMonitor::m_rateGain),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute(
                "LatencyGain", "EWMA weight of a new latency sample. Default 1/8 (RFC 6298).",
                DoubleValue(0.125), MakeDoubleAccessor(&MaestroPathMonitor::m_latencyGain),
                MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("SmallMessageThreshold",
                          "Largest message (bytes) treated as latency-sensitive and used for "
                          "latency samples. Default 4096 B: one packet at the 4096 B MTU of "
                          "the Maestro testbed (SOSR'21 §6).",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&MaestroPathMonitor::m_smallThreshold),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("PathFailed", "A virtual path was taken out of use.",
                            MakeTraceSourceAccessor(&MaestroPathMonitor::m_pathFailedTrace),
                            "ns3::TracedCallback::Uint32")
            .AddTraceSource("RateEstimate",
                            "New bandwidth estimate of a path (vp, bits per second).",
                            MakeTraceSourceAccessor(&MaestroPathMonitor::m_rateEstimateTrace),
                            "ns3::MaestroPathMonitor::RateTracedCallback");
    return tid;
}

MaestroPathMonitor::MaestroPathMonitor()
    : m_rateGain(0.125)
    , m_latencyGain(0.125)
    , m_smallThreshold(4096)
{
}

uint32_t
MaestroPathMonitor::AddPath(DataRate initialRate)
{
    MaestroPathState s;
    s.rate = initialRate;
    m_paths.push_back(s);
    return static_cast<uint32_t>(m_paths.size() - 1);
}

uint32_t
MaestroPathMonitor::GetNPaths() const
{
    return static_cast<uint32_t>(m_paths.size());
}

const MaestroPathState&
MaestroPathMonitor::Get(uint32_t vp) const
{
    return m_paths.at(vp);
}

uint32_t
MaestroPathMonitor::GetNUsable() const
{
    return static_cast<uint32_t>(
        std::count_if(m_paths.begin(), m_paths.end(), [](const auto& p) { return p.usable; }));
}

void
MaestroPathMonitor::NotifyPosted(uint32_t vp, uint64_t bytes)
{
    MaestroPathState& p = m_paths.at(vp);
    ++p.liveWrs;
    p.outstandingBytes += bytes;
}

void
MaestroPathMonitor::NotifyCompleted(uint32_t vp, uint64_t bytes, Time postTime, Time now,
                                    bool success, uint64_t cnps, bool wasIdle)
{
    MaestroPathState& p = m_paths.at(vp);
    NS_ABORT_MSG_IF(p.liveWrs == 0, "MaestroPathMonitor: completion without a live WR");
    --p.liveWrs;
    p.outstandingBytes -= std::min(p.outstandingBytes, bytes);
    p.cnps = cnps;
    if (!success)
    {
        ++p.errors;
        p.lastCompletion = now;
        return;
    }
    p.bytesCompleted += bytes;
    ++p.chunksCompleted;
    const Time start = std::max(postTime, p.lastCompletion);
    p.lastCompletion = now;
    if (bytes <= m_smallThreshold && wasIdle)
    {
        const Time sample = now - postTime;
        p.latency = p.latency.IsZero()
                        ? sample
                        : Time::FromDouble((1 - m_latencyGain) * p.latency.GetDouble() +
                                               m_latencyGain * sample.GetDouble(),
                                           Time::GetResolution());
        return; // a probe measures latency, not bandwidth
    }
    if (now > start)
    {
        const double sample = bytes * 8.0 / (now - start).GetSeconds();
        const double rate =
            (1 - m_rateGain) * static_cast<double>(p.rate.GetBitRate()) + m_rateGain * sample;
        p.rate = DataRate(static_cast<uint64_t>(rate));
        m_rateEstimateTrace(vp, rate);
    }
}

void
MaestroPathMonitor::NotifyTimeout(uint32_t vp)
{
    ++m_paths.at(vp).timeouts;
}

void
MaestroPathMonitor::MarkFailed(uint32_t vp)
{
    MaestroPathState& p = m_paths.at(vp);
    if (p.usable)
    {
        NS_LOG_INFO("virtual path " << vp << " failed");
        p.usable = false;
        m_pathFailedTrace(vp);
    }
}

void
MaestroPathMonitor::Restore(uint32_t vp, DataRate rate)
{
    MaestroPathState& p = m_paths.at(vp);
    p.usable = true;
    p.rate = rate;
    p.latency = Time();
}

void
MaestroPathMonitor::ForgetLive(uint32_t vp)
{
    MaestroPathState& p = m_paths.at(vp);
    p.liveWrs = 0;
    p.outstandingBytes = 0;
    p.lastCompletion = Time();
}

uint64_t
MaestroPathMonitor::GetSmallMessageThreshold() const
{
    return m_smallThreshold;
}

} // namespace ns3
