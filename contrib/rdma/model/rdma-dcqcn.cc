/*
 * DCQCN reaction point and notification point (paper variant).
 * Specification: design/spec-buffers-pfc-dcqcn.md sections 3.3, 3.4 and 4;
 * source tags in the attribute help strings refer to its section 10.
 */
#include "rdma-dcqcn.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

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
    static TypeId tid =
        TypeId("ns3::RdmaDcqcn")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaDcqcn>()
            .AddAttribute(
                "G",
                "Gain g of the alpha EWMA (dimensionless, in (0, 1]): alpha <- (1-g) alpha "
                "(+ g on a CNP). Default 1/256 [FLUID-PY]; the authors' config uses "
                "DCTCP_GAIN 0.00390625 [DCQCN-NS3].",
                DoubleValue(1.0 / 256.0), MakeDoubleAccessor(&RdmaDcqcn::m_g),
                // (0, 1]: g = 0 would freeze alpha forever.
                MakeDoubleChecker<double>(std::numeric_limits<double>::min(), 1.0))
            .AddAttribute("AlphaUpdatePeriod",
                          "Period K of the alpha decay timer (Time), restarted on every CNP. "
                          "Default 55 us; the paper requires K larger than the NP CNP interval "
                          "[DCQCN15][DCQCN-NS3].",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&RdmaDcqcn::m_alphaUpdatePeriod),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RateIncreaseTimer",
                          "Period T_inc of the rate-increase timer (Time); T_inc/2 in hyper "
                          "increase. Default 55 us [DCQCN-NOTES (DCQCN+)][FLUID-PY].",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&RdmaDcqcn::m_rateIncreaseTimer),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ByteCounter",
                          "Byte counter B (bytes of payload sent) between rate-increase events; "
                          "B/2 in hyper increase; 0 disables it (as firmware RPG_BYTE_RESET = 0). "
                          "Default 10 MB = 10000000 B [DCQCN-NOTES (DCQCN+)][FLUID-PY].",
                          UintegerValue(10000000), MakeUintegerAccessor(&RdmaDcqcn::m_byteCounter),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("FastRecoveryTimes",
                          "Stage threshold F (count): an event is fast recovery while in that "
                          "stage and its counter (after the increment) is below F; hyper "
                          "increase once min(T, BC) >= F. Default 5 [DCQCN15][FLUID-PY].",
                          UintegerValue(5), MakeUintegerAccessor(&RdmaDcqcn::m_fastRecoveryTimes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RateAI",
                          "Additive increase R_AI of the target rate per event (DataRate). "
                          "Default 40 Mbps [DCQCN-NOTES][FLUID-PY][DCQCN-NS3 config].",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&RdmaDcqcn::m_rateAi), MakeDataRateChecker())
            .AddAttribute("RateHAI",
                          "Hyper increase step R_HAI (DataRate); the target grows by i R_HAI with "
                          "i = min(T, BC) - F + 1. Default 200 Mbps (authors' config RATE_HAI) "
                          "[DCQCN-NS3 config].",
                          DataRateValue(DataRate("200Mbps")),
                          MakeDataRateAccessor(&RdmaDcqcn::m_rateHai), MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Minimum sending rate R_min (DataRate, > 0 and <= line rate). Default "
                          "100 Mbps (simulator default) [DCQCN-NS3][HPCC-RDMA].",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&RdmaDcqcn::m_minRate), MakeDataRateChecker())
            .AddAttribute("InitialAlpha",
                          "Alpha of a new queue pair (dimensionless, [0, 1]); the alpha timer "
                          "only runs after a CNP, so this is the alpha of the first cut. Default "
                          "1 (paper, HPCC); firmware 1023/1024 [MLX-DUMP]; authors' ns-3 code "
                          "0.5 [DCQCN-NS3] (spec section 7, item 7).",
                          DoubleValue(1.0), MakeDoubleAccessor(&RdmaDcqcn::m_initialAlpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("CnpInterval",
                          "NP window N (Time): a CE-marked packet triggers a CNP at once if no "
                          "CNP was sent for this queue pair in the last N, so at most one CNP "
                          "per N. Default 50 us [DCQCN15][DCQCN-NS3][FLUID-PY].",
                          TimeValue(MicroSeconds(50)), MakeTimeAccessor(&RdmaDcqcn::m_cnpInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ClampTargetRate",
                          "If true, R_T <- R_C on every CNP (firmware CLAMP_TGT_RATE). Default "
                          "false, as in public mlxconfig dumps [MLX-DUMP] and the reference "
                          "code's base rule [DCQCN-NS3].",
                          BooleanValue(false), MakeBooleanAccessor(&RdmaDcqcn::m_clampTargetRate),
                          MakeBooleanChecker())
            .AddAttribute(
                "ClampTargetRateAfterTimeInc",
                "When ClampTargetRate is false: if true, R_T <- R_C on a CNP when any rate "
                "increase (timer or byte counter) happened since the last cut (T != 0 or "
                "BC != 0); if false, only after a byte-counter increase (BC != 0), the "
                "reference code's base rule [DCQCN-NS3]. Default true: the paper's eq. (1) sets "
                "R_T <- R_C on a CNP and its rate-increase events come from both counters alike, "
                "so the paper implies clamping after any increase; it is also the firmware "
                "default CLAMP_TGT_RATE_AFTER_TIME_INC = 1 [MLX-DUMP][MSTFLINT-2015].",
                BooleanValue(true), MakeBooleanAccessor(&RdmaDcqcn::m_clampTargetRateAfterTimeInc),
                MakeBooleanChecker())
            .AddAttribute("QcnTargetRateQuirk",
                          "If true, keep the QCN rule of the reference code: on the first "
                          "increase event after a cut, if R_T > 10 R_C then R_T <- R_T/8 "
                          "instead of the stage's R_T update [DCQCN-NS3 AdjustRates]. Not part "
                          "of the paper's algorithm; default false.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaDcqcn::m_qcnTargetRateQuirk),
                          MakeBooleanChecker())
            .AddAttribute(
                "AlphaCutOrder",
                "Order of the rate cut and the alpha update on a CNP (spec section 7, "
                "item 8). CutThenUpdate (default): paper eq. (1), the cut uses the "
                "alpha before this CNP [DCQCN15]; UpdateThenCut: the authors' ns-3 "
                "code [DCQCN-NS3].",
                EnumValue(CUT_THEN_UPDATE), MakeEnumAccessor(&RdmaDcqcn::m_alphaCutOrder),
                MakeEnumChecker(CUT_THEN_UPDATE, "CutThenUpdate", UPDATE_THEN_CUT, "UpdateThenCut"))
            .AddAttribute(
                "RateDecreaseInterval",
                "RP rate-decrease interval I (Time): with I > 0 a CNP only flags a decrease and "
                "the rate is cut at most once per I, when the flag is set (RateDecreaseTiming "
                "says when); 0 cuts on every CNP, the paper's RP [DCQCN15]. Default 0. The HPCC "
                "simulator's DCQCN checks the flag every RATE_DECREASE_INTERVAL = 4 us "
                "[HPCC-CFG][HPCC-RDMA]; ConnectX firmware's rate_reduce_monitor_period, the "
                "minimal time between two rate reductions of a flow, is 4 us "
                "[MLX-DUMP][DCQCN-NOTES].",
                TimeValue(Time(0)), MakeTimeAccessor(&RdmaDcqcn::m_rateDecreaseInterval),
                MakeTimeChecker(Time(0)))
            .AddAttribute(
                "RateDecreaseTiming",
                "When a flagged decrease is applied (RateDecreaseInterval > 0). PeriodicCheck "
                "(default): at the next tick of a check every RateDecreaseInterval on a clock "
                "started by the QP's first CNP, so the first cut comes one interval after the "
                "first CNP, as the HPCC simulator's DCQCN [HPCC-RDMA]; SinceLastCut: at once if "
                "the last cut is at least one interval old, else at the end of that interval "
                "(the firmware profile's reading of rate_reduce_monitor_period [MLX-DUMP]).",
                EnumValue(PERIODIC_CHECK), MakeEnumAccessor(&RdmaDcqcn::m_rateDecreaseTiming),
                MakeEnumChecker(PERIODIC_CHECK, "PeriodicCheck", SINCE_LAST_CUT, "SinceLastCut"))
            .AddAttribute(
                "AlphaUpdate",
                "When alpha rises towards 1. AtCut (default): alpha <- (1 - g) alpha + g at each "
                "rate cut, and the alpha timer only decays it, the paper's eq. (1) [DCQCN15]. "
                "CnpPeriods: the HPCC simulator's DCQCN [HPCC-RDMA]: every AlphaUpdatePeriod "
                "on a clock started by the QP's first CNP (which sets alpha to InitialAlpha), "
                "alpha <- (1 - g) alpha + g if a CNP arrived in the period, else "
                "(1 - g) alpha; a cut uses alpha as it stands and does not change it.",
                EnumValue(ALPHA_AT_CUT), MakeEnumAccessor(&RdmaDcqcn::m_alphaUpdate),
                MakeEnumChecker(ALPHA_AT_CUT, "AtCut", ALPHA_CNP_PERIODS, "CnpPeriods"))
            .AddAttribute(
                "IncreaseStages",
                "How rate-increase events are staged. Paper (default): the stage follows "
                "min(T, BC) after the increment (fast recovery below F, additive at F, hyper "
                "increase i = min(T, BC) - F + 1 times RateHAI, timer period and byte count "
                "halved in hyper increase) [DCQCN15][DCQCN-NOTES]. TimerOnly: the HPCC "
                "simulator's DCQCN [HPCC-RDMA]: events come from the rate timer alone (the byte "
                "counter is not used), the stage is the number of timer expiries since the cut "
                "before this one (fast recovery below F, additive increase at F, hyper "
                "increase above F, each adding RateHAI once), and the timer period stays "
                "RateIncreaseTimer.",
                EnumValue(STAGES_PAPER), MakeEnumAccessor(&RdmaDcqcn::m_increaseStages),
                MakeEnumChecker(STAGES_PAPER, "Paper", STAGES_TIMER, "TimerOnly"))
            .AddAttribute(
                "CnpDelivery",
                "How the notification point's CNP reaches the reaction point. Packet "
                "(default): a RoCEv2 CNP packet (BTH opcode 0x81, in RdmaNic::CnpDscp's class), "
                "what RoCEv2 NICs send [IBTA A17]; the reaction point ignores "
                "BECN in ACKs. AckBecn: the HPCC simulator's DCQCN [HPCC-RDMA]: no CNP packet; "
                "the ACK (or NAK) of the CE-marked packet, sent at once whatever AckInterval, "
                "sets the BTH BECN bit, InfiniBand's backward congestion notification "
                "[IBTA 9.2, A10], and the reaction point takes every ACK/NAK "
                "with BECN "
                "as one CNP (CNP packets too). A marked READ request or READ response, which "
                "draws no ACK of its own, still gets a CNP packet. CnpInterval applies to both.",
                EnumValue(CNP_PACKET), MakeEnumAccessor(&RdmaDcqcn::m_cnpDelivery),
                MakeEnumChecker(CNP_PACKET, "Packet", CNP_ACK_BECN, "AckBecn"))
            .AddTraceSource("RateChange", "The sending rate R_C changed (old rate, new rate).",
                            MakeTraceSourceAccessor(&RdmaDcqcn::m_rateChangeTrace),
                            "ns3::RdmaDcqcn::RateChangeTracedCallback");
    return tid;
}

RdmaDcqcn::RdmaDcqcn()
    : m_g(1.0 / 256.0)
    , m_byteCounter(10000000)
    , m_fastRecoveryTimes(5)
    , m_initialAlpha(1.0)
    , m_clampTargetRate(false)
    , m_clampTargetRateAfterTimeInc(true)
    , m_qcnTargetRateQuirk(false)
    , m_alphaCutOrder(CUT_THEN_UPDATE)
    , m_rateDecreaseTiming(PERIODIC_CHECK)
    , m_alphaUpdate(ALPHA_AT_CUT)
    , m_increaseStages(STAGES_PAPER)
    , m_cnpDelivery(CNP_PACKET)
{
    NS_LOG_FUNCTION(this);
}

RdmaDcqcn::RdmaDcqcn(const RdmaDcqcn& other)
    : RdmaCongestionOps(other)
    , m_g(other.m_g)
    , m_alphaUpdatePeriod(other.m_alphaUpdatePeriod)
    , m_rateIncreaseTimer(other.m_rateIncreaseTimer)
    , m_byteCounter(other.m_byteCounter)
    , m_fastRecoveryTimes(other.m_fastRecoveryTimes)
    , m_rateAi(other.m_rateAi)
    , m_rateHai(other.m_rateHai)
    , m_minRate(other.m_minRate)
    , m_initialAlpha(other.m_initialAlpha)
    , m_cnpInterval(other.m_cnpInterval)
    , m_clampTargetRate(other.m_clampTargetRate)
    , m_clampTargetRateAfterTimeInc(other.m_clampTargetRateAfterTimeInc)
    , m_qcnTargetRateQuirk(other.m_qcnTargetRateQuirk)
    , m_alphaCutOrder(other.m_alphaCutOrder)
    , m_rateDecreaseInterval(other.m_rateDecreaseInterval)
    , m_rateDecreaseTiming(other.m_rateDecreaseTiming)
    , m_alphaUpdate(other.m_alphaUpdate)
    , m_increaseStages(other.m_increaseStages)
    , m_cnpDelivery(other.m_cnpDelivery)
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
    m_state->m_alpha = m_initialAlpha;
    m_state->m_window = std::numeric_limits<uint64_t>::max(); // rate-based: no window cap
    m_stage = FAST_RECOVERY;
    m_timerCount = 0;
    m_byteCount = 0;
    m_bytesLeft = m_byteCounter;
    m_recovering = false;
    m_cnpSent = false;
    m_lastCnpTime = Time(0);
    m_decreasePending = false;
    m_hasCut = false;
    m_lastCut = Time(0);
    m_firstCnp.reset();
    m_alphaCnpFlag = false;
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
    // The single-value ranges (G, the timers, CnpInterval) are in the checkers;
    // these are repeated for objects whose members a subclass wrote directly.
    std::ostringstream why;
    if (m_g <= 0.0 || m_g > 1.0)
    {
        attribute = "G";
        why << "G = " << m_g << " is outside (0, 1]";
    }
    else if (!m_alphaUpdatePeriod.IsStrictlyPositive())
    {
        attribute = "AlphaUpdatePeriod";
        why << "AlphaUpdatePeriod = " << m_alphaUpdatePeriod.As(Time::US) << " must be > 0";
    }
    else if (!m_rateIncreaseTimer.IsStrictlyPositive())
    {
        attribute = "RateIncreaseTimer";
        why << "RateIncreaseTimer = " << m_rateIncreaseTimer.As(Time::US) << " must be > 0";
    }
    else if (m_cnpInterval.IsStrictlyNegative())
    {
        attribute = "CnpInterval";
        why << "CnpInterval = " << m_cnpInterval.As(Time::US) << " must be >= 0";
    }
    else if (m_minRate.GetBitRate() == 0 || m_minRate > lineRate)
    {
        attribute = "MinRate";
        why << "MinRate = " << RateText(m_minRate)
            << " must be in (0, line rate = " << RateText(lineRate) << "]";
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
RdmaDcqcn::OnCnp()
{
    NS_LOG_FUNCTION(this);
    if (m_alphaUpdate == ALPHA_CNP_PERIODS)
    {
        NoteCnpForAlpha();
    }
    RequestRateDecrease();
}

Time
RdmaDcqcn::NextTick(Time origin, Time period, Time now)
{
    const int64_t ticks = (now - origin).GetTimeStep() / period.GetTimeStep();
    return origin + period * (ticks + 1);
}

bool
RdmaDcqcn::NoteCnp()
{
    if (m_firstCnp)
    {
        return false;
    }
    m_firstCnp = Simulator::Now();
    return true;
}

void
RdmaDcqcn::NoteCnpForAlpha()
{
    if (NoteCnp())
    {
        // The first CNP sets alpha and starts the periods; it does not count in the first.
        m_state->m_alpha = m_initialAlpha;
        m_alphaCnpFlag = false;
        m_alphaTimer.Schedule(m_alphaUpdatePeriod);
        return;
    }
    m_alphaCnpFlag = true;
    if (!m_alphaTimer.IsRunning())
    {
        // Resume on the same clock (a period end at now has run already).
        const Time now = Simulator::Now();
        m_alphaTimer.Schedule(NextTick(*m_firstCnp, m_alphaUpdatePeriod, now) - now);
    }
}

double
RdmaDcqcn::AlphaStep(double alpha, bool cnp) const
{
    return (1.0 - m_g) * alpha + (cnp ? m_g : 0.0);
}

void
RdmaDcqcn::RequestRateDecrease()
{
    NS_ASSERT_MSG(m_state != nullptr, "RdmaDcqcn used before Init");
    NoteCnp();
    if (m_rateDecreaseInterval.IsZero())
    {
        DecreaseNow();
        return;
    }
    const Time now = Simulator::Now();
    if (m_rateDecreaseTiming == SINCE_LAST_CUT &&
        (!m_hasCut || now - m_lastCut >= m_rateDecreaseInterval))
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
    // PeriodicCheck: the next tick of the clock (a tick at now has run already).
    const Time next = m_rateDecreaseTiming == SINCE_LAST_CUT
                          ? m_lastCut + m_rateDecreaseInterval
                          : NextTick(*m_firstCnp, m_rateDecreaseInterval, now);
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
    ApplyRateDecrease();
}

void
RdmaDcqcn::ApplyRateDecrease()
{
    ReduceRate();
}

void
RdmaDcqcn::ReduceRate()
{
    NS_ASSERT_MSG(m_state != nullptr, "RdmaDcqcn used before Init");
    const DataRate current = m_state->m_rate;

    // Target clamp (spec 3.4): always, after any increase, or after a byte-counter increase.
    bool clamp = m_clampTargetRate;
    if (!clamp)
    {
        clamp = m_clampTargetRateAfterTimeInc ? (m_timerCount != 0 || m_byteCount != 0)
                                              : (m_byteCount != 0);
    }
    if (clamp)
    {
        m_state->m_targetRate = std::min(current, m_state->m_lineRate);
    }

    const double oldAlpha = m_state->m_alpha;
    const bool alphaAtCut = (m_alphaUpdate == ALPHA_AT_CUT);
    const double newAlpha = alphaAtCut ? AlphaStep(oldAlpha, true) : oldAlpha;
    const double cutAlpha = (m_alphaCutOrder == CUT_THEN_UPDATE) ? oldAlpha : newAlpha;
    const double cut = static_cast<double>(current.GetBitRate()) * (1.0 - cutAlpha / 2.0);
    const DataRate reduced(static_cast<uint64_t>(std::llround(cut)));
    SetRate(std::max(m_minRate, reduced));
    m_state->m_alpha = newAlpha;

    m_stage = FAST_RECOVERY;
    m_timerCount = 0;
    m_byteCount = 0;
    m_bytesLeft = m_byteCounter;
    m_recovering = true;

    m_rateTimer.Schedule(m_rateIncreaseTimer);
    if (alphaAtCut)
    {
        m_alphaTimer.Schedule(m_alphaUpdatePeriod);
    }
    NS_LOG_DEBUG("cut to " << m_state->m_rate << " target " << m_state->m_targetRate << " alpha "
                           << newAlpha);
}

void
RdmaDcqcn::AlphaTimerExpired()
{
    // AtCut: decay only (the CNP flag is raised under CnpPeriods alone).
    m_state->m_alpha = AlphaStep(m_state->m_alpha, m_alphaCnpFlag);
    m_alphaCnpFlag = false;
    if (m_state->m_alpha >= AlphaStopThreshold())
    {
        m_alphaTimer.Schedule(m_alphaUpdatePeriod);
    }
}

void
RdmaDcqcn::RateTimerExpired()
{
    ++m_timerCount;
    IncreaseEvent(m_timerCount);
    if (m_recovering)
    {
        m_rateTimer.Schedule(RateTimerPeriod());
    }
}

void
RdmaDcqcn::OnDataSent(uint32_t bytes)
{
    if (!m_recovering || m_byteCounter == 0 || m_increaseStages == STAGES_TIMER)
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
        m_bytesLeft = ByteCounterPeriod();
    }
    m_bytesLeft -= remaining;
}

void
RdmaDcqcn::IncreaseEvent(uint32_t firedCount)
{
    const uint64_t lineRate = m_state->m_lineRate.GetBitRate();
    uint64_t target = m_state->m_targetRate.GetBitRate();
    const uint64_t current = m_state->m_rate.GetBitRate();

    uint64_t increase = 0;
    if (m_increaseStages == STAGES_TIMER)
    {
        // The stage is the number of timer expiries since the cut before this one.
        const uint32_t stage = m_timerCount - 1;
        if (stage < m_fastRecoveryTimes)
        {
            m_stage = FAST_RECOVERY;
        }
        else if (stage == m_fastRecoveryTimes)
        {
            m_stage = ADDITIVE_INCREASE;
            increase = m_rateAi.GetBitRate();
        }
        else
        {
            m_stage = HYPER_INCREASE;
            increase = m_rateHai.GetBitRate();
        }
    }
    else if (m_stage == FAST_RECOVERY && firedCount < m_fastRecoveryTimes)
    {
        increase = 0; // fast recovery: R_T unchanged
    }
    else
    {
        const uint32_t minCount = std::min(m_timerCount, m_byteCount);
        if (minCount < m_fastRecoveryTimes)
        {
            m_stage = ADDITIVE_INCREASE;
            increase = m_rateAi.GetBitRate();
        }
        else
        {
            m_stage = HYPER_INCREASE;
            increase = m_rateHai.GetBitRate() * (minCount - m_fastRecoveryTimes + 1);
        }
    }

    const bool firstAfterCut = (m_timerCount + m_byteCount == 1);
    if (m_qcnTargetRateQuirk && firstAfterCut && target > 10 * current)
    {
        target /= 8;
    }
    else
    {
        target = std::min(lineRate, target + increase);
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

Time
RdmaDcqcn::RateTimerPeriod() const
{
    return (m_stage == HYPER_INCREASE && m_increaseStages == STAGES_PAPER) ? m_rateIncreaseTimer / 2
                                                                           : m_rateIncreaseTimer;
}

uint64_t
RdmaDcqcn::ByteCounterPeriod() const
{
    if (m_stage == HYPER_INCREASE)
    {
        return std::max<uint64_t>(1, m_byteCounter / 2);
    }
    return m_byteCounter;
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
    if (ShouldSendCnp(ceMarked, now))
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
    return m_cnpDelivery == CNP_ACK_BECN;
}

bool
RdmaDcqcn::ShouldSendCnp(bool ceMarked, Time now)
{
    return ceMarked && (!m_cnpSent || now - m_lastCnpTime >= m_cnpInterval);
}

bool
RdmaDcqcn::HasReceivedCnp() const
{
    return m_firstCnp.has_value();
}

bool
RdmaDcqcn::HasSentCnp() const
{
    return m_cnpSent;
}

Time
RdmaDcqcn::GetLastCnpTime() const
{
    return m_lastCnpTime;
}

RdmaCcState*
RdmaDcqcn::GetState() const
{
    return m_state;
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

void
RdmaDcqcn::DoDispose()
{
    NS_LOG_FUNCTION(this);
    RdmaCongestionOps::DoDispose(); // calls Stop()
    m_state = nullptr;
}

} // namespace ns3
