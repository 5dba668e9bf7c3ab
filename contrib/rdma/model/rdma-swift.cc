/*
 * Swift delay-target window congestion control for RDMA queue pairs.
 */
#include "rdma-swift.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaSwift");
NS_OBJECT_ENSURE_REGISTERED(RdmaSwift);

TypeId
RdmaSwift::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaSwift")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaSwift>()
            .AddAttribute("BaseTarget",
                          "Fabric base target delay base_target (Time): the smallest target "
                          "that keeps a one-hop path with a few flows at full utilization "
                          "[SWIFT 3.5]. Default 25 us: the paper's testbed target, above which "
                          "throughput stays saturated (Fig. 17) and which its 100 Gb/s "
                          "all-to-all runs use [SWIFT 5.1-5.2]; set it from the fabric's base "
                          "RTT.",
                          TimeValue(MicroSeconds(25)), MakeTimeAccessor(&RdmaSwift::m_baseTarget),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("PerHopScaling",
                          "Per-hop scaling factor h (Time): target added per switch hop of the "
                          "path, hops from the IPv4 TTL decrement [SWIFT 3.5, App. B]. Default "
                          "1 us, a labelled choice: the paper names h (Table 2) but gives no "
                          "value.",
                          TimeValue(MicroSeconds(1)), MakeTimeAccessor(&RdmaSwift::m_perHopScaling),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FsRange",
                          "Flow-scaling range fs_range (Time): the most target a flow with a "
                          "small window gains [SWIFT 3.5]. Default 20 us, a labelled choice: "
                          "the paper names fs_range (Table 2) but gives no value.",
                          TimeValue(MicroSeconds(20)), MakeTimeAccessor(&RdmaSwift::m_fsRange),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FsMinCwnd",
                          "fs_min_cwnd: window (packets) at and below which flow scaling adds "
                          "the whole FsRange [SWIFT 3.5]. Default 0.1, a labelled choice: the "
                          "paper names it (Table 2) but gives no value.",
                          DoubleValue(0.1), MakeDoubleAccessor(&RdmaSwift::m_fsMinCwnd),
                          MakeDoubleChecker<double>(1e-6))
            .AddAttribute("FsMaxCwnd",
                          "fs_max_cwnd: window (packets) at and above which flow scaling adds "
                          "nothing [SWIFT 3.5]. Default 100, a labelled choice: the paper "
                          "names it (Table 2) but gives no value.",
                          DoubleValue(100.0), MakeDoubleAccessor(&RdmaSwift::m_fsMaxCwnd),
                          MakeDoubleChecker<double>(1e-6))
            .AddAttribute("EndpointTarget",
                          "Target of the endpoint delay (Time), for the endpoint window "
                          "[SWIFT 3.3]. Default 100 us: the engine target of the paper's "
                          "endpoint-congestion experiment, beside a 50 us fabric base target, "
                          "its only stated value [SWIFT 5.4]. The responder reports no delay in "
                          "this model, so the endpoint window only grows.",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&RdmaSwift::m_endpointTarget), MakeTimeChecker(Time(0)))
            .AddAttribute("AdditiveIncrease",
                          "ai: packets added to a window per window of ACKs (per ACKed packet "
                          "below one packet) [SWIFT Alg. 1]. Default 1, a labelled choice: "
                          "the paper gives no value.",
                          DoubleValue(1.0), MakeDoubleAccessor(&RdmaSwift::m_ai),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("Beta",
                          "Multiplicative decrease constant beta on (delay - target) / delay "
                          "(dimensionless) [SWIFT Alg. 1]. Default 0.8, a labelled choice: "
                          "the paper gives no value.",
                          DoubleValue(0.8), MakeDoubleAccessor(&RdmaSwift::m_beta),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("MaxMdf",
                          "max_mdf: largest fraction one decrease removes, and the cut on a "
                          "retransmission (dimensionless) [SWIFT Alg. 1, 3.6]. Default 0.5, a "
                          "labelled choice: the paper gives no value.",
                          DoubleValue(0.5), MakeDoubleAccessor(&RdmaSwift::m_maxMdf),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("MinCwnd",
                          "min_cwnd: smallest window (packets); below 1 the QP is paced at "
                          "one packet per RTT / cwnd. Default 0.001 packets [SWIFT 3.4].",
                          DoubleValue(0.001), MakeDoubleAccessor(&RdmaSwift::m_minCwnd),
                          MakeDoubleChecker<double>(1e-6))
            .AddAttribute("MaxCwnd",
                          "max_cwnd: largest window (packets) [SWIFT Alg. 1]. Default 1000, a "
                          "labelled choice (the paper gives no value; about 8 BDPs of a "
                          "100 Gb/s, 10 us path at 1 KB MTU).",
                          DoubleValue(1000.0), MakeDoubleAccessor(&RdmaSwift::m_maxCwnd),
                          MakeDoubleChecker<double>(1e-6))
            .AddAttribute("InitialCwnd",
                          "Window of a new QP (packets): one BDP, so a new QP may send at line "
                          "rate as RDMA NICs do. Default 100 (about 100 Gb/s x 8 us at 1 KB "
                          "MTU, as ns3::RdmaDctcp InitialWindow).",
                          DoubleValue(100.0), MakeDoubleAccessor(&RdmaSwift::m_initialCwnd),
                          MakeDoubleChecker<double>(1e-6))
            .AddAttribute("RetxResetThreshold",
                          "RETX_RESET_THRESHOLD: consecutive retransmission timeouts after "
                          "which both windows reset to MinCwnd [SWIFT Alg. 1]. Default 5, a "
                          "labelled choice: the paper gives no value.",
                          UintegerValue(5), MakeUintegerAccessor(&RdmaSwift::m_retxResetThreshold),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RttGain",
                          "EWMA gain of the smoothed RTT used for pacing below one packet and "
                          "for once-per-RTT decreases (dimensionless). Default 1/8 (RFC 6298).",
                          DoubleValue(0.125), MakeDoubleAccessor(&RdmaSwift::m_rttGain),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddTraceSource("CwndChange",
                            "The window min(fcwnd, ecwnd) changed (old, new), "
                            "packets.",
                            MakeTraceSourceAccessor(&RdmaSwift::m_cwndTrace),
                            "ns3::RdmaSwift::CwndChangeTracedCallback");
    return tid;
}

RdmaSwift::RdmaSwift() = default;
RdmaSwift::~RdmaSwift() = default;

std::string
RdmaSwift::GetName() const
{
    return "Swift";
}

Ptr<RdmaCongestionOps>
RdmaSwift::Fork() const
{
    Ptr<RdmaSwift> copy = CopyObject<RdmaSwift>(this);
    copy->m_state = nullptr;
    copy->m_srtt = Time(0);
    copy->m_lastDecrease = Time(0);
    copy->m_decreased = false;
    copy->m_retransmits = 0;
    copy->m_tracedCwnd = 0;
    return copy;
}

bool
RdmaSwift::CheckAttributes(DataRate /*lineRate*/, std::string& attribute, std::string& reason) const
{
    std::ostringstream why;
    if (m_minCwnd >= m_maxCwnd)
    {
        attribute = "MinCwnd";
        why << "MinCwnd = " << m_minCwnd << " must be below MaxCwnd = " << m_maxCwnd;
    }
    else if (m_fsMinCwnd >= m_fsMaxCwnd)
    {
        attribute = "FsMinCwnd";
        why << "FsMinCwnd = " << m_fsMinCwnd << " must be below FsMaxCwnd = " << m_fsMaxCwnd;
    }
    else if (m_initialCwnd < m_minCwnd || m_initialCwnd > m_maxCwnd)
    {
        attribute = "InitialCwnd";
        why << "InitialCwnd = " << m_initialCwnd << " must be within [MinCwnd, MaxCwnd] = ["
            << m_minCwnd << ", " << m_maxCwnd << "]";
    }
    reason = why.str();
    return reason.empty();
}

void
RdmaSwift::Init(RdmaCcState* state)
{
    NS_ASSERT_MSG(state != nullptr, "RdmaSwift::Init needs a state");
    std::string attribute;
    std::string reason;
    NS_ABORT_MSG_IF(!CheckAttributes(state->m_lineRate, attribute, reason),
                    "ns3::RdmaSwift attribute " << attribute << ": " << reason);
    m_state = state;
    m_fcwnd = m_initialCwnd;
    m_ecwnd = m_initialCwnd;
    m_srtt = m_state->m_baseRtt;
    Apply();
}

double
RdmaSwift::GetFabricCwnd() const
{
    return m_fcwnd;
}

double
RdmaSwift::GetEndpointCwnd() const
{
    return m_ecwnd;
}

double
RdmaSwift::GetCwnd() const
{
    return std::min(m_fcwnd, m_ecwnd);
}

Time
RdmaSwift::GetFabricTarget(uint8_t hops) const
{
    const double range = m_fsRange.GetSeconds();
    const double a = range / (1.0 / std::sqrt(m_fsMinCwnd) - 1.0 / std::sqrt(m_fsMaxCwnd));
    const double b = -a / std::sqrt(m_fsMaxCwnd);
    const double fs = std::clamp(a / std::sqrt(m_fcwnd) + b, 0.0, range);
    return m_baseTarget + m_perHopScaling * static_cast<int64_t>(hops) + Seconds(fs);
}

double
RdmaSwift::Update(double cwnd, Time delay, Time target, double acked, bool canDecrease) const
{
    if (delay < target)
    {
        return cwnd >= 1.0 ? cwnd + m_ai * acked / cwnd : cwnd + m_ai * acked;
    }
    if (!canDecrease)
    {
        return cwnd;
    }
    const double excess = (delay - target).GetSeconds() / delay.GetSeconds();
    return cwnd * std::max(1.0 - m_beta * excess, 1.0 - m_maxMdf);
}

void
RdmaSwift::Apply()
{
    m_fcwnd = std::clamp(m_fcwnd, m_minCwnd, m_maxCwnd);
    m_ecwnd = std::clamp(m_ecwnd, m_minCwnd, m_maxCwnd);
    const double cwnd = GetCwnd();
    const uint64_t mtu = m_state->m_mtu;
    if (cwnd >= 1.0)
    {
        m_state->m_window = static_cast<uint64_t>(std::floor(cwnd)) * mtu;
        m_state->m_rate = m_state->m_lineRate;
    }
    else
    {
        // One packet in flight, one packet every srtt / cwnd.
        m_state->m_window = mtu;
        const double bps = cwnd * static_cast<double>(mtu) * 8.0 / m_srtt.GetSeconds();
        const double line = static_cast<double>(m_state->m_lineRate.GetBitRate());
        m_state->m_rate = DataRate(static_cast<uint64_t>(std::clamp(bps, 1.0, line)));
    }
    m_state->m_targetRate = m_state->m_rate;
    if (cwnd != m_tracedCwnd)
    {
        m_cwndTrace(m_tracedCwnd, cwnd);
        m_tracedCwnd = cwnd;
    }
}

void
RdmaSwift::OnCnp()
{
}

void
RdmaSwift::OnDataSent(uint32_t /*bytes*/)
{
}

void
RdmaSwift::OnAck(const RdmaAckSample& ack)
{
    m_retransmits = 0;
    if (!ack.HasRtt())
    {
        return;
    }
    const Time now = Simulator::Now();
    m_srtt =
        m_srtt.IsStrictlyPositive()
            ? Seconds((1.0 - m_rttGain) * m_srtt.GetSeconds() + m_rttGain * ack.rtt.GetSeconds())
            : ack.rtt;
    const bool canDecrease = !m_decreased || now - m_lastDecrease >= m_srtt;
    const double acked = static_cast<double>(ack.ackedBytes) / static_cast<double>(m_state->m_mtu);
    const Time endpoint = ack.remoteDelay;
    const Time fabric = ack.rtt - endpoint;
    const double f = Update(m_fcwnd, fabric, GetFabricTarget(ack.hops), acked, canDecrease);
    const double e = Update(m_ecwnd, endpoint, m_endpointTarget, acked, canDecrease);
    if (f < m_fcwnd || e < m_ecwnd)
    {
        m_decreased = true;
        m_lastDecrease = now;
    }
    m_fcwnd = f;
    m_ecwnd = e;
    Apply();
}

void
RdmaSwift::OnRetransmit(bool timeout)
{
    const Time now = Simulator::Now();
    const bool canDecrease = !m_decreased || now - m_lastDecrease >= m_srtt;
    if (timeout && ++m_retransmits >= m_retxResetThreshold)
    {
        m_fcwnd = m_minCwnd;
        m_ecwnd = m_minCwnd;
    }
    else if (canDecrease)
    {
        m_fcwnd *= 1.0 - m_maxMdf;
        m_ecwnd *= 1.0 - m_maxMdf;
    }
    else
    {
        return;
    }
    m_decreased = true;
    m_lastDecrease = now;
    Apply();
}

bool
RdmaSwift::OnDataReceived(bool /*ceMarked*/)
{
    return false;
}

bool
RdmaSwift::WantsRttSamples() const
{
    return true;
}

} // namespace ns3
