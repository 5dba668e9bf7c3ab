/*
 * TIMELY RTT-gradient rate control for RDMA queue pairs.
 */
#include "rdma-timely.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaTimely");
NS_OBJECT_ENSURE_REGISTERED(RdmaTimely);

TypeId
RdmaTimely::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaTimely")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaTimely>()
            .AddAttribute("Alpha",
                          "EWMA weight of the newest RTT difference in rtt_diff "
                          "(dimensionless, [0, 1]). Default 0.875, the HPCC simulator's "
                          "TimelyAlpha [HPCC-RDMA]; the TIMELY authors' reference code "
                          "recommends 0.02 [TIMELY-REF].",
                          DoubleValue(0.875), MakeDoubleAccessor(&RdmaTimely::m_alpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("Beta",
                          "Multiplicative decrease factor beta (dimensionless, [0, 1]). "
                          "Default 0.8 [TIMELY-REF] (the HPCC simulator's too).",
                          DoubleValue(0.8), MakeDoubleAccessor(&RdmaTimely::m_beta),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("AdditiveStep",
                          "Additive increment delta per sample (DataRate). Default 10 Mbps, "
                          "the authors' value for a 10 Gb/s line rate [TIMELY-REF]; scale it "
                          "with the line rate.",
                          DataRateValue(DataRate("10Mbps")),
                          MakeDataRateAccessor(&RdmaTimely::m_additiveStep), MakeDataRateChecker())
            .AddAttribute("Tlow",
                          "RTT below which the rate grows additively whatever the gradient "
                          "(Time). Default 50 us: the authors' value with 64 KB segments "
                          "[TIMELY-REF] and the HPCC simulator's [HPCC-RDMA]; the authors "
                          "recommend 0 with per-packet pacing.",
                          TimeValue(MicroSeconds(50)), MakeTimeAccessor(&RdmaTimely::m_tLow),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Thigh",
                          "RTT above which the rate is cut by 1 - beta (1 - Thigh/RTT) "
                          "whatever the gradient (Time). Default 500 us, the HPCC simulator's "
                          "[HPCC-RDMA]; the authors' reference code recommends 1 ms "
                          "[TIMELY-REF].",
                          TimeValue(MicroSeconds(500)), MakeTimeAccessor(&RdmaTimely::m_tHigh),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MinRtt",
                          "minRTT, the normaliser of the gradient (Time, > 0): the path's "
                          "minimum RTT. Default 20 us, the HPCC simulator's [HPCC-RDMA]; set "
                          "it to the fabric's base RTT.",
                          TimeValue(MicroSeconds(20)), MakeTimeAccessor(&RdmaTimely::m_minRtt),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("HaiThreshold",
                          "Consecutive samples with a non-positive gradient after which the "
                          "increase is HaiMultiplier steps (hyperactive increase). Default 5 "
                          "[TIMELY-REF] (the HPCC simulator's too).",
                          UintegerValue(5), MakeUintegerAccessor(&RdmaTimely::m_haiThreshold),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("HaiMultiplier",
                          "N, the additive steps per sample in hyperactive increase. Default 5 "
                          "[TIMELY] (the HPCC simulator's RATE_HAI / RATE_AI in its run.py).",
                          UintegerValue(5), MakeUintegerAccessor(&RdmaTimely::m_haiMultiplier),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MinRate",
                          "Rate floor (DataRate, > 0 and <= line rate); the paper gives none. "
                          "Default 100 Mbps, as ns3::RdmaDcqcn MinRate [HPCC-RDMA].",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&RdmaTimely::m_minRate), MakeDataRateChecker())
            .AddTraceSource("RateChange", "The sending rate changed (old, new).",
                            MakeTraceSourceAccessor(&RdmaTimely::m_rateTrace),
                            "ns3::RdmaTimely::RateChangeTracedCallback");
    return tid;
}

RdmaTimely::RdmaTimely() = default;
RdmaTimely::~RdmaTimely() = default;

std::string
RdmaTimely::GetName() const
{
    return "Timely";
}

Ptr<RdmaCongestionOps>
RdmaTimely::Fork() const
{
    Ptr<RdmaTimely> copy = CopyObject<RdmaTimely>(this);
    copy->m_state = nullptr;
    copy->m_prevRtt = Time(0);
    copy->m_rttDiffSeconds = 0;
    copy->m_negativeGradient = 0;
    return copy;
}

bool
RdmaTimely::CheckAttributes(DataRate lineRate, std::string& attribute, std::string& reason) const
{
    std::ostringstream why;
    if (m_tLow >= m_tHigh)
    {
        attribute = "Tlow";
        why << "Tlow = " << m_tLow.As(Time::US)
            << " must be below Thigh = " << m_tHigh.As(Time::US);
    }
    else if (!m_minRtt.IsStrictlyPositive())
    {
        attribute = "MinRtt";
        why << "MinRtt must be > 0";
    }
    else if (m_minRate.GetBitRate() == 0 || m_minRate > lineRate)
    {
        attribute = "MinRate";
        why << "MinRate = " << m_minRate.GetBitRate() << " bps must be > 0 and <= the line rate "
            << lineRate.GetBitRate() << " bps";
    }
    reason = why.str();
    return reason.empty();
}

void
RdmaTimely::Init(RdmaCcState* state)
{
    NS_ASSERT_MSG(state != nullptr, "RdmaTimely::Init needs a state");
    std::string attribute;
    std::string reason;
    NS_ABORT_MSG_IF(!CheckAttributes(state->m_lineRate, attribute, reason),
                    "ns3::RdmaTimely attribute " << attribute << ": " << reason);
    m_state = state;
    m_state->m_rate = m_state->m_lineRate;
    m_state->m_targetRate = m_state->m_lineRate;
    m_state->m_window = std::numeric_limits<uint64_t>::max();
}

Time
RdmaTimely::GetRttDiff() const
{
    return Seconds(m_rttDiffSeconds);
}

uint32_t
RdmaTimely::GetNegativeGradientCount() const
{
    return m_negativeGradient;
}

void
RdmaTimely::SetRate(double bps)
{
    const double lo = static_cast<double>(m_minRate.GetBitRate());
    const double hi = static_cast<double>(m_state->m_lineRate.GetBitRate());
    const DataRate rate(static_cast<uint64_t>(std::clamp(bps, lo, hi)));
    const DataRate old = m_state->m_rate;
    if (rate != old)
    {
        m_state->m_rate = rate;
        m_state->m_targetRate = rate;
        m_rateTrace(old, rate);
    }
}

void
RdmaTimely::OnCnp()
{
}

void
RdmaTimely::OnDataSent(uint32_t /*bytes*/)
{
}

void
RdmaTimely::OnAck(const RdmaAckSample& ack)
{
    if (!ack.HasRtt())
    {
        return;
    }
    const Time rtt = ack.rtt;
    if (m_prevRtt.IsZero())
    {
        m_prevRtt = rtt;
        return;
    }
    // In picoseconds, not Time::GetSeconds(): ns-3's conversion left-shifts the (here often
    // negative) count, which is undefined behaviour before C++20 (UBSan).
    const double newDiff = static_cast<double>((rtt - m_prevRtt).GetPicoSeconds()) / 1e12;
    m_prevRtt = rtt;
    m_rttDiffSeconds = (1.0 - m_alpha) * m_rttDiffSeconds + m_alpha * newDiff;
    const double gradient = m_rttDiffSeconds / m_minRtt.GetSeconds();
    const double rate = static_cast<double>(m_state->m_rate.GetBitRate());
    const double step = static_cast<double>(m_additiveStep.GetBitRate());
    if (gradient <= 0)
    {
        m_negativeGradient++;
    }
    else
    {
        m_negativeGradient = 0;
    }
    if (rtt < m_tLow)
    {
        SetRate(rate + step);
    }
    else if (rtt > m_tHigh)
    {
        SetRate(rate * (1.0 - m_beta * (1.0 - m_tHigh.GetSeconds() / rtt.GetSeconds())));
    }
    else if (gradient <= 0)
    {
        const double n = m_negativeGradient >= m_haiThreshold ? m_haiMultiplier : 1.0;
        SetRate(rate + n * step);
    }
    else
    {
        SetRate(rate * (1.0 - m_beta * gradient)); // floored at MinRate
    }
    NS_LOG_LOGIC("rtt " << rtt.As(Time::US) << " gradient " << gradient << " rate "
                        << m_state->m_rate.GetBitRate());
}

bool
RdmaTimely::OnDataReceived(bool /*ceMarked*/)
{
    return false;
}

bool
RdmaTimely::WantsRttSamples() const
{
    return true;
}

} // namespace ns3
