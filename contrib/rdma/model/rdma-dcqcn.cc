/*
 * DCQCN reaction point and notification point, configured by rules.
 * Specification: design/spec-buffers-pfc-dcqcn.md sections 3.3-3.6 and 4;
 * the attributes and their sources are in rdma-dcqcn-attributes.cc.
 */
#include "rdma-dcqcn.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaDcqcn");

namespace
{

/** \return \p rate as "200Gbps", "50Mbps", ... (the unit that divides it). */
std::string
RateText(DataRate rate)
{
    const uint64_t bps = rate.GetBitRate();
    for (const auto& [scale, unit] : {std::pair<uint64_t, const char*>{1000000000ULL, "Gbps"},
                                      {1000000ULL, "Mbps"},
                                      {1000ULL, "Kbps"}})
    {
        if (bps != 0 && bps % scale == 0)
        {
            return std::to_string(bps / scale) + unit;
        }
    }
    return std::to_string(bps) + "bps";
}

} // namespace

NS_OBJECT_ENSURE_REGISTERED(RdmaDcqcn);

TypeId
RdmaDcqcn::GetTypeId()
{
    static TypeId tid = RdmaDcqcnAttributes::Add(TypeId("ns3::RdmaDcqcn")
                                                     .SetParent<RdmaCongestionOps>()
                                                     .SetGroupName("Rdma")
                                                     .AddConstructor<RdmaDcqcn>());
    return tid;
}

RdmaDcqcn::RdmaDcqcn()
{
    NS_LOG_FUNCTION(this);
}

RdmaDcqcn::RdmaDcqcn(const RdmaDcqcn& other)
    : RdmaCongestionOps(other)
    , m_params(other.m_params)
{
    NS_LOG_FUNCTION(this);
}

RdmaDcqcn::~RdmaDcqcn()
{
    // The event holds a raw pointer to this object.
    m_decreaseEvent.Cancel();
}

std::string
RdmaDcqcn::GetName() const
{
    return "Dcqcn";
}

Ptr<RdmaCongestionOps>
RdmaDcqcn::Fork() const
{
    return CopyObject<RdmaDcqcn>(this);
}

void
RdmaDcqcn::Init(RdmaCcState* state)
{
    NS_LOG_FUNCTION(this << state);
    NS_ASSERT_MSG(state != nullptr, "RdmaDcqcn::Init needs a state");
    Stop();
    m_rateTimer.SetFunction(MakeCallback(&RdmaDcqcn::RateTimerExpired, this));
    m_alphaTimer.SetFunction(MakeCallback(&RdmaDcqcn::AlphaTimerExpired, this));
    m_state = state;
    CheckConfig();
    m_state->m_rate = m_state->m_lineRate; // no slow start: a new flow sends at line rate
    m_state->m_targetRate = m_state->m_lineRate;
    m_state->m_alpha = m_params.alpha.initial;
    m_state->m_window = std::numeric_limits<uint64_t>::max(); // rate-based: no window cap
    m_state->m_pacingBurstBytes = m_params.burstBytes;
    m_stage = FAST_RECOVERY;
    m_timerCount = 0;
    m_byteCount = 0;
    m_bytesLeft = m_params.increase.byteCounter;
    m_recovering = false;
    m_cnpSent = false;
    m_lastCnpTime = Time(0);
    m_decreasePending = false;
    m_hasCut = false;
    m_lastCut = Time(0);
    m_firstCnp.reset();
    m_alphaCnpFlag = false;
    m_cuts = 0;
    m_cnpsReceived = 0;
}

void
RdmaDcqcn::CheckConfig() const
{
    std::string attribute;
    std::string reason;
    if (!CheckAttributes(m_state->m_lineRate, attribute, reason))
    {
        NS_FATAL_ERROR(GetInstanceTypeId().GetName()
                       << " attribute " << attribute << ": " << reason);
    }
}

bool
RdmaDcqcn::CheckAttributes(DataRate lineRate, std::string& attribute, std::string& reason) const
{
    // The single-value ranges (G, the timers, CnpInterval) are in the checkers; these are
    // repeated for configurations written past them (ApplyInteropPreset).
    const RdmaDcqcnParams& p = m_params;
    std::ostringstream why;
    if (p.alpha.g <= 0.0 || p.alpha.g > 1.0)
    {
        attribute = "G";
        why << "G = " << p.alpha.g << " is outside (0, 1]";
    }
    else if (!p.alpha.period.IsStrictlyPositive())
    {
        attribute = "AlphaUpdatePeriod";
        why << "AlphaUpdatePeriod = " << p.alpha.period.As(Time::US) << " must be > 0";
    }
    else if (!p.increase.timer.IsStrictlyPositive())
    {
        attribute = "RateIncreaseTimer";
        why << "RateIncreaseTimer = " << p.increase.timer.As(Time::US) << " must be > 0";
    }
    else if (p.cnp.interval.IsStrictlyNegative())
    {
        attribute = "CnpInterval";
        why << "CnpInterval = " << p.cnp.interval.As(Time::US) << " must be >= 0";
    }
    else if (p.minRate.GetBitRate() == 0 || p.minRate > lineRate)
    {
        attribute = "MinRate";
        why << "MinRate = " << RateText(p.minRate)
            << " must be in (0, line rate = " << RateText(lineRate) << "]";
    }
    else if (p.rateOnFirstCnp > lineRate)
    {
        attribute = "RateOnFirstCnp";
        why << "RateOnFirstCnp = " << p.rateOnFirstCnp.GetBitRate()
            << " bps must be in [0, line rate = " << lineRate.GetBitRate() << " bps]";
    }
    else
    {
        attribute.clear();
        reason.clear();
        return true;
    }
    reason = why.str();
    return false;
}

void
RdmaDcqcn::ApplyInteropPreset(Time gen1CnpInterval, uint32_t gen1BurstBytes)
{
    m_params.cnp.interval = std::max(m_params.cnp.interval, gen1CnpInterval);
    m_params.decrease.interval = Time(0);
    m_params.burstBytes = gen1BurstBytes;
}

void
RdmaDcqcn::OnCnp()
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT_MSG(m_state != nullptr, "RdmaDcqcn used before Init");
    ++m_cnpsReceived;
    const bool first = !m_firstCnp;
    if (first)
    {
        m_firstCnp = Simulator::Now(); // origin of the periodic clocks
        if (m_params.rateOnFirstCnp.GetBitRate() > 0)
        {
            // The firmware allocates the QP's rate limiter on its first CNP.
            m_state->m_rate = m_params.rateOnFirstCnp;
            m_state->m_targetRate = m_params.rateOnFirstCnp;
        }
    }
    if (m_params.alpha.PerPeriod())
    {
        NoteCnpForAlpha(first);
    }
    RequestRateDecrease();
}

Time
RdmaDcqcn::NextTick(Time origin, Time period, Time now)
{
    return RdmaDcqcnNextTick(origin, period, now);
}

void
RdmaDcqcn::NoteCnpForAlpha(bool first)
{
    const RdmaDcqcnAlphaRule& rule = m_params.alpha;
    if (first)
    {
        // The first CNP sets alpha and starts the periods; it does not count in the first.
        m_state->m_alpha = rule.initial;
        m_alphaCnpFlag = false;
        m_alphaTimer.Schedule(rule.period);
        return;
    }
    m_alphaCnpFlag = true;
    if (!m_alphaTimer.IsRunning())
    {
        m_alphaTimer.Schedule(rule.Resume(*m_firstCnp, Simulator::Now()));
    }
}

void
RdmaDcqcn::RequestRateDecrease()
{
    const Time now = Simulator::Now();
    const RdmaDcqcnRateDecreaseClock& clock = m_params.decrease;
    if (clock.CutsNow(m_hasCut, m_lastCut, now))
    {
        m_decreaseEvent.Cancel();
        m_decreasePending = false;
        DecreaseNow();
        return;
    }
    m_decreasePending = true;
    if (m_decreaseEvent.IsRunning())
    {
        return;
    }
    const Time next = clock.NextCheck(m_lastCut, *m_firstCnp, now);
    m_decreaseEvent = Simulator::Schedule(next - now, &RdmaDcqcn::RateDecreaseCheck, this);
}

void
RdmaDcqcn::RateDecreaseCheck()
{
    // The periodic check need not run again until the next CNP: RequestRateDecrease
    // schedules the next tick of the same clock.
    if (m_decreasePending)
    {
        m_decreasePending = false;
        DecreaseNow();
    }
}

void
RdmaDcqcn::DecreaseNow()
{
    m_hasCut = true;
    m_lastCut = Simulator::Now();
    ++m_cuts;
    ReduceRate();
}

void
RdmaDcqcn::ReduceRate()
{
    const DataRate current = m_state->m_rate;
    if (m_params.increase.ClampsAtCut(m_timerCount, m_byteCount))
    {
        m_state->m_targetRate = std::min(current, m_state->m_lineRate);
    }
    const RdmaDcqcnAlphaRule::Cut alpha = m_params.alpha.AtCut(m_state->m_alpha);
    const double cut = static_cast<double>(current.GetBitRate()) * (1.0 - alpha.used / 2.0);
    const DataRate reduced(static_cast<uint64_t>(std::llround(cut)));
    SetRate(std::max(m_params.minRate, reduced));
    m_state->m_alpha = alpha.after;

    m_stage = FAST_RECOVERY;
    m_timerCount = 0;
    m_byteCount = 0;
    m_bytesLeft = m_params.increase.byteCounter;
    m_recovering = true;

    m_rateTimer.Schedule(m_params.increase.timer);
    if (!m_params.alpha.PerPeriod())
    {
        m_alphaTimer.Schedule(m_params.alpha.period);
    }
    NS_LOG_DEBUG("cut to " << m_state->m_rate << " target " << m_state->m_targetRate << " alpha "
                           << alpha.after);
}

void
RdmaDcqcn::AlphaTimerExpired()
{
    // AtCut: decay only (the CNP flag is raised under the per-period rules alone).
    const bool cnp = m_alphaCnpFlag;
    m_state->m_alpha = m_params.alpha.Step(m_state->m_alpha, cnp);
    m_alphaCnpFlag = false;
    if (m_params.alpha.RunsOn(m_state->m_alpha, cnp))
    {
        m_alphaTimer.Schedule(m_params.alpha.period);
    }
}

void
RdmaDcqcn::RateTimerExpired()
{
    ++m_timerCount;
    IncreaseEvent(m_timerCount);
    if (m_recovering)
    {
        m_rateTimer.Schedule(m_params.increase.TimerPeriod(m_stage));
    }
}

void
RdmaDcqcn::OnDataSent(uint32_t bytes)
{
    if (!m_recovering || !m_params.increase.CountsBytes())
    {
        return;
    }
    uint64_t remaining = bytes;
    while (remaining >= m_bytesLeft)
    {
        remaining -= m_bytesLeft;
        ++m_byteCount;
        IncreaseEvent(m_byteCount);
        if (!m_recovering)
        {
            return;
        }
        m_bytesLeft = m_params.increase.BytePeriod(m_stage);
    }
    m_bytesLeft -= remaining;
}

void
RdmaDcqcn::IncreaseEvent(uint32_t firedCount)
{
    const uint64_t lineRate = m_state->m_lineRate.GetBitRate();
    uint64_t target = m_state->m_targetRate.GetBitRate();
    const uint64_t current = m_state->m_rate.GetBitRate();

    const RdmaDcqcnIncreaseRule::Event event =
        m_params.increase.Increase(m_stage, m_timerCount, m_byteCount, firedCount);
    m_stage = event.stage;

    const bool firstAfterCut = (m_timerCount + m_byteCount == 1);
    if (m_params.increase.qcnTargetRateQuirk && firstAfterCut && target > 10 * current)
    {
        target /= 8;
    }
    else
    {
        target = std::min(lineRate, target + event.increase);
    }
    m_state->m_targetRate = DataRate(target);
    // Half-way to the target, rounded up so that R_C reaches R_T exactly.
    const uint64_t next = std::min(lineRate, (target + current + 1) / 2);
    SetRate(DataRate(next));

    if (AtLineRate())
    {
        m_recovering = false;
        m_rateTimer.Cancel();
    }
}

bool
RdmaDcqcn::AtLineRate() const
{
    return m_state->m_rate == m_state->m_lineRate && m_state->m_targetRate == m_state->m_lineRate;
}

void
RdmaDcqcn::SetRate(DataRate rate)
{
    const DataRate old = m_state->m_rate;
    if (rate != old)
    {
        m_state->m_rate = rate;
        m_rateChangeTrace(old, rate);
    }
}

void
RdmaDcqcn::OnAck(const RdmaAckSample& /*ack*/)
{
    // DCQCN reacts to CNPs only.
}

bool
RdmaDcqcn::OnDataReceived(bool ceMarked)
{
    const Time now = Simulator::Now();
    if (m_params.cnp.Sends(ceMarked, m_cnpSent, m_lastCnpTime, now))
    {
        m_cnpSent = true;
        m_lastCnpTime = now;
        return true;
    }
    return false;
}

bool
RdmaDcqcn::WantsCnpInAckBecn() const
{
    return m_params.cnp.delivery == CNP_ACK_BECN;
}

Time
RdmaDcqcn::GetCnpGenerationTime() const
{
    return m_params.cnp.firmwareTime;
}

uint32_t
RdmaDcqcn::GetCnpGenerationQueue() const
{
    return m_params.cnp.firmwareQueue;
}

void
RdmaDcqcn::Stop()
{
    NS_LOG_FUNCTION(this);
    m_rateTimer.Stop();
    m_alphaTimer.Stop();
    m_decreaseEvent.Cancel();
    m_decreasePending = false;
    m_recovering = false;
}

RdmaDcqcn::Stage
RdmaDcqcn::GetStage() const
{
    return m_stage;
}

uint32_t
RdmaDcqcn::GetTimerStageCount() const
{
    return m_timerCount;
}

uint32_t
RdmaDcqcn::GetByteStageCount() const
{
    return m_byteCount;
}

bool
RdmaDcqcn::IsRateTimerRunning() const
{
    return m_rateTimer.IsRunning();
}

bool
RdmaDcqcn::IsAlphaTimerRunning() const
{
    return m_alphaTimer.IsRunning();
}

bool
RdmaDcqcn::IsRateDecreasePending() const
{
    return m_decreasePending;
}

uint64_t
RdmaDcqcn::GetRateCuts() const
{
    return m_cuts;
}

uint64_t
RdmaDcqcn::GetCnpsReceived() const
{
    return m_cnpsReceived;
}

double
RdmaDcqcn::GetAlpha() const
{
    return m_state ? m_state->m_alpha : 0.0;
}

uint32_t
RdmaDcqcn::GetPacingBurstBytes() const
{
    return m_params.burstBytes;
}

void
RdmaDcqcn::DoDispose()
{
    NS_LOG_FUNCTION(this);
    RdmaCongestionOps::DoDispose(); // calls Stop()
    m_state = nullptr;
}

} // namespace ns3
