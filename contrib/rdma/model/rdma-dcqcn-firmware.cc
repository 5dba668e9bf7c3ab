/*
 * Gen2/Gen3 (ConnectX firmware) DCQCN profile and the Azure interop fix.
 * Specification: design/spec-buffers-pfc-dcqcn.md sections 3.5, 3.6 and 4;
 * source tags refer to its section 10.
 */
#include "rdma-dcqcn-firmware.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaDcqcnFirmware");

NS_OBJECT_ENSURE_REGISTERED(RdmaDcqcnFirmware);

TypeId
RdmaDcqcnFirmware::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaDcqcnFirmware")
            .SetParent<RdmaDcqcn>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaDcqcnFirmware>()
            .AddAttribute("RpgTimeReset",
                          "RPG_TIME_RESET / rp_time_reset: time between rate increases without "
                          "CNP (Time); overrides RateIncreaseTimer. Default 300 us [MLX-DUMP].",
                          TimeValue(MicroSeconds(300)),
                          MakeTimeAccessor(&RdmaDcqcnFirmware::SetRpgTimeReset,
                                           &RdmaDcqcnFirmware::GetRpgTimeReset),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RpgByteReset",
                          "RPG_BYTE_RESET / rp_byte_reset: bytes sent between rate increases "
                          "without CNP, 0 disables; overrides ByteCounter. Default 32767 B "
                          "[MLX-DUMP].",
                          UintegerValue(32767),
                          MakeUintegerAccessor(&RdmaDcqcnFirmware::SetRpgByteReset,
                                               &RdmaDcqcnFirmware::GetRpgByteReset),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("RpgThreshold",
                          "RPG_THRESHOLD / rp_threshold: stage count F before additive and "
                          "hyper increase; overrides FastRecoveryTimes. Default 1 [MLX-DUMP].",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaDcqcnFirmware::SetRpgThreshold,
                                               &RdmaDcqcnFirmware::GetRpgThreshold),
                          MakeUintegerChecker<uint32_t>(0, 31))
            .AddAttribute("RpgAiRate",
                          "RPG_AI_RATE / rp_ai_rate: additive increase of R_T; overrides "
                          "RateAI. Default 5 Mbps [MLX-DUMP].",
                          DataRateValue(DataRate("5Mbps")),
                          MakeDataRateAccessor(&RdmaDcqcnFirmware::SetRpgAiRate,
                                               &RdmaDcqcnFirmware::GetRpgAiRate),
                          MakeDataRateChecker())
            .AddAttribute("RpgHaiRate",
                          "RPG_HAI_RATE / rp_hai_rate: hyper increase of R_T; overrides RateHAI. "
                          "Default 50 Mbps [MLX-DUMP].",
                          DataRateValue(DataRate("50Mbps")),
                          MakeDataRateAccessor(&RdmaDcqcnFirmware::SetRpgHaiRate,
                                               &RdmaDcqcnFirmware::GetRpgHaiRate),
                          MakeDataRateChecker())
            .AddAttribute("RpgMinRate",
                          "RPG_MIN_RATE / rp_min_rate: minimum rate; overrides MinRate. Default "
                          "1 Mbps [MLX-DUMP].",
                          DataRateValue(DataRate("1Mbps")),
                          MakeDataRateAccessor(&RdmaDcqcnFirmware::SetRpgMinRate,
                                               &RdmaDcqcnFirmware::GetRpgMinRate),
                          MakeDataRateChecker())
            .AddAttribute("ClampTgtRate",
                          "CLAMP_TGT_RATE / rp_clamp_tgt_rate: R_T <- R_C on every CNP; "
                          "overrides ClampTargetRate. Default false [MLX-DUMP].",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaDcqcnFirmware::SetClampTgtRate,
                                              &RdmaDcqcnFirmware::GetClampTgtRate),
                          MakeBooleanChecker())
            .AddAttribute("ClampTgtRateAfterTimeInc",
                          "CLAMP_TGT_RATE_AFTER_TIME_INC / rp_clamp_tgt_rate_ati: clamp R_T also "
                          "after timer increases; overrides ClampTargetRateAfterTimeInc. "
                          "Default true [MLX-DUMP].",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaDcqcnFirmware::SetClampTgtRateAfterTimeInc,
                                              &RdmaDcqcnFirmware::GetClampTgtRateAfterTimeInc),
                          MakeBooleanChecker())
            .AddAttribute("DceTcpG",
                          "DCE_TCP_G / rp_dce_tcp_g divided by 1024: weight g of the alpha "
                          "update alpha <- g cnp_received + (1-g) alpha (dimensionless, [0, 1]). "
                          "Default 1/256 per DceTcpRtt = 1 us, the public simulator mapping of "
                          "dce_tcp_g/dce_tcp_rtt [HPCC-CFG EWMA_GAIN, ALPHA_RESUME_INTERVAL]. "
                          "Public dumps show 1019 (1019/1024) [MLX-DUMP]; taken literally alpha "
                          "falls to ~0 within 2 us of the last CNP, so a cut after a CNP gap "
                          "of more than a few us is ~0 (spec 7.9; set 0.9951171875 to study it).",
                          DoubleValue(1.0 / 256.0),
                          MakeDoubleAccessor(&RdmaDcqcnFirmware::m_dceTcpG),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("DceTcpRtt",
                          "DCE_TCP_RTT / rp_dce_tcp_rtt: period of the alpha update (Time). "
                          "Default 1 us [MLX-DUMP].",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&RdmaDcqcnFirmware::m_dceTcpRtt),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RateDecreasePeriod",
                          "RATE_REDUCE_MONITOR_PERIOD / rp_rate_reduce_monitor_period: the rate "
                          "is cut at most once per period, if a CNP arrived in it (RP-side "
                          "coalescing); 0 cuts on every CNP. Sets RateDecreaseInterval (with "
                          "RateDecreaseTiming SinceLastCut). Default 4 us [MLX-DUMP][DCQCN-NOTES].",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&RdmaDcqcnFirmware::SetRateDecreasePeriod,
                                           &RdmaDcqcnFirmware::GetRateDecreasePeriod),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("InitialAlphaValue",
                          "INITIAL_ALPHA_VALUE / rp_initial_alpha_value divided by 1024: alpha "
                          "set on the first CNP of a QP. Default 1023/1024 [MLX-DUMP].",
                          DoubleValue(1023.0 / 1024.0),
                          MakeDoubleAccessor(&RdmaDcqcnFirmware::m_initialAlphaValue),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("RateOnFirstCnp",
                          "RATE_TO_SET_ON_FIRST_CNP / rp_rate_to_set_on_first_cnp: R_C = R_T set "
                          "when the rate limiter is allocated on the first CNP, before that "
                          "CNP's cut; 0 keeps the port speed. Default 0 [MLX-DUMP].",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&RdmaDcqcnFirmware::m_rateOnFirstCnp),
                          MakeDataRateChecker())
            .AddAttribute("MinTimeBetweenCnps",
                          "MIN_TIME_BETWEEN_CNPS / np_min_time_between_cnps: minimum gap between "
                          "two CNPs (per QP in this model, per port in firmware). Default 0, a "
                          "CNP for every marked packet: CX-4 default [DCQCN-NOTES (DCQCN+)] and "
                          "Azure's Gen2/Gen3 [AZURE 7.2]; later dumps show 2 or 4 us [MLX-DUMP].",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaDcqcnFirmware::m_minTimeBetweenCnps),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("InteropCnpInterval",
                          "Azure interop fix: per-QP CNP rate limiter at the NP, minimum gap "
                          "between two CNPs of a QP set to the Gen1 NP coalescing timer "
                          "[AZURE 7.2]; 0 disables. Default 0 (stock firmware).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaDcqcnFirmware::m_interopCnpInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("BurstBytes",
                          "Per-burst rate limiting (Azure interop fix, [AZURE 7.2]): bytes a QP "
                          "may send back-to-back before waiting BurstBytes/R_C; 0 = per-packet "
                          "pacing (Gen2/Gen3 default). Wire bytes; handed to the queue pair's "
                          "pacer through RdmaCcState::m_pacingBurstBytes.",
                          UintegerValue(0), MakeUintegerAccessor(&RdmaDcqcnFirmware::m_burstBytes),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

RdmaDcqcnFirmware::RdmaDcqcnFirmware()
    : m_rpgByteReset(32767)
    , m_rpgThreshold(1)
    , m_clampTgtRate(false)
    , m_clampTgtRateAfterTimeInc(true)
    , m_dceTcpG(1019.0 / 1024.0)
    , m_initialAlphaValue(1023.0 / 1024.0)
    , m_burstBytes(0)
    , m_fwAlpha(0.0)
    , m_cnpSinceAlpha(false)
    , m_cuts(0)
    , m_cnpsReceived(0)
{
    NS_LOG_FUNCTION(this);
}

RdmaDcqcnFirmware::RdmaDcqcnFirmware(const RdmaDcqcnFirmware& other)
    : RdmaDcqcn(other)
    , m_rpgTimeReset(other.m_rpgTimeReset)
    , m_rpgByteReset(other.m_rpgByteReset)
    , m_rpgThreshold(other.m_rpgThreshold)
    , m_rpgAiRate(other.m_rpgAiRate)
    , m_rpgHaiRate(other.m_rpgHaiRate)
    , m_rpgMinRate(other.m_rpgMinRate)
    , m_clampTgtRate(other.m_clampTgtRate)
    , m_clampTgtRateAfterTimeInc(other.m_clampTgtRateAfterTimeInc)
    , m_dceTcpG(other.m_dceTcpG)
    , m_dceTcpRtt(other.m_dceTcpRtt)
    , m_rateDecreasePeriod(other.m_rateDecreasePeriod)
    , m_initialAlphaValue(other.m_initialAlphaValue)
    , m_rateOnFirstCnp(other.m_rateOnFirstCnp)
    , m_minTimeBetweenCnps(other.m_minTimeBetweenCnps)
    , m_interopCnpInterval(other.m_interopCnpInterval)
    , m_burstBytes(other.m_burstBytes)
    , m_fwAlpha(0.0)
    , m_cnpSinceAlpha(false)
    , m_cuts(0)
    , m_cnpsReceived(0)
{
    NS_LOG_FUNCTION(this);
}

RdmaDcqcnFirmware::~RdmaDcqcnFirmware()
{
    // The event holds a raw pointer to this object.
    m_alphaEvent.Cancel();
}

std::string
RdmaDcqcnFirmware::GetName() const
{
    return "DcqcnFirmware";
}

Ptr<RdmaCongestionOps>
RdmaDcqcnFirmware::Fork() const
{
    return CopyObject<RdmaDcqcnFirmware>(this);
}

void
RdmaDcqcnFirmware::NotifyConstructionCompleted()
{
    RdmaDcqcn::NotifyConstructionCompleted();
    // ObjectBase sets this class's attributes before the inherited ones, which
    // then take their own defaults: write the firmware values again.
    ForwardKnobs();
}

void
RdmaDcqcnFirmware::ForwardKnobs()
{
    SetAttribute("RateIncreaseTimer", TimeValue(m_rpgTimeReset));
    SetAttribute("ByteCounter", UintegerValue(m_rpgByteReset));
    SetAttribute("FastRecoveryTimes", UintegerValue(m_rpgThreshold));
    SetAttribute("RateAI", DataRateValue(m_rpgAiRate));
    SetAttribute("RateHAI", DataRateValue(m_rpgHaiRate));
    SetAttribute("MinRate", DataRateValue(m_rpgMinRate));
    SetAttribute("ClampTargetRate", BooleanValue(m_clampTgtRate));
    SetAttribute("ClampTargetRateAfterTimeInc", BooleanValue(m_clampTgtRateAfterTimeInc));
    // The cut must use the firmware alpha as it stands (ApplyRateDecrease() restores it after).
    SetAttribute("AlphaCutOrder", EnumValue(RdmaDcqcn::CUT_THEN_UPDATE));
    SetAttribute("RateDecreaseInterval", TimeValue(m_rateDecreasePeriod));
    SetAttribute("RateDecreaseTiming", EnumValue(RdmaDcqcn::SINCE_LAST_CUT));
}

bool
RdmaDcqcnFirmware::CheckAttributes(DataRate lineRate, std::string& attribute,
                                   std::string& reason) const
{
    if (!RdmaDcqcn::CheckAttributes(lineRate, attribute, reason))
    {
        // ForwardKnobs wrote these from the firmware-named attributes.
        if (attribute == "MinRate")
        {
            attribute = "RpgMinRate";
            reason = "RpgMinRate sets MinRate: " + reason;
        }
        else if (attribute == "RateIncreaseTimer")
        {
            attribute = "RpgTimeReset";
            reason = "RpgTimeReset sets RateIncreaseTimer: " + reason;
        }
        return false;
    }
    std::ostringstream why;
    if (!m_dceTcpRtt.IsStrictlyPositive())
    {
        attribute = "DceTcpRtt";
        why << "DceTcpRtt = " << m_dceTcpRtt.As(Time::US) << " must be > 0";
    }
    else if (m_rateOnFirstCnp > lineRate)
    {
        attribute = "RateOnFirstCnp";
        why << "RateOnFirstCnp = " << m_rateOnFirstCnp.GetBitRate()
            << " bps must be in [0, line rate = " << lineRate.GetBitRate() << " bps]";
    }
    else
    {
        return true;
    }
    reason = why.str();
    return false;
}

void
RdmaDcqcnFirmware::Init(RdmaCcState* state)
{
    NS_LOG_FUNCTION(this << state);
    Stop();
    RdmaDcqcn::Init(state); // aborts on what CheckAttributes rejects
    m_fwAlpha = 0.0;
    m_cnpSinceAlpha = false;
    m_cuts = 0;
    m_cnpsReceived = 0;
    state->m_pacingBurstBytes = m_burstBytes;
}

bool
RdmaDcqcnFirmware::ShouldSendCnp(bool ceMarked, Time now)
{
    if (!ceMarked)
    {
        return false;
    }
    const Time gap = std::max(m_minTimeBetweenCnps, m_interopCnpInterval);
    return !HasSentCnp() || now - GetLastCnpTime() >= gap;
}

void
RdmaDcqcnFirmware::OnCnp()
{
    RdmaCcState* state = GetState();
    NS_ASSERT_MSG(state != nullptr, "RdmaDcqcnFirmware used before Init");
    ++m_cnpsReceived;
    m_cnpSinceAlpha = true;
    if (!HasReceivedCnp()) // RequestRateDecrease below notes each CNP
    {
        // The rate limiter is allocated on the first CNP.
        m_fwAlpha = m_initialAlphaValue;
        state->m_alpha = m_fwAlpha;
        m_cnpSinceAlpha = false; // initial_alpha_value already accounts for this CNP
        if (m_rateOnFirstCnp.GetBitRate() > 0)
        {
            state->m_rate = m_rateOnFirstCnp;
            state->m_targetRate = m_rateOnFirstCnp;
        }
    }
    if (!m_alphaEvent.IsRunning())
    {
        m_alphaEvent =
            Simulator::Schedule(m_dceTcpRtt, &RdmaDcqcnFirmware::AlphaPeriodExpired, this);
    }
    // Cut now or once the reduction period ends (RateDecreaseInterval, SinceLastCut).
    RequestRateDecrease();
}

void
RdmaDcqcnFirmware::ApplyRateDecrease()
{
    RdmaCcState* state = GetState();
    // The inherited cut uses the alpha in the state (CutThenUpdate) and then
    // applies the paper's per-CNP alpha update, which the firmware does not do.
    state->m_alpha = m_fwAlpha;
    ReduceRate();
    state->m_alpha = m_fwAlpha;
    ++m_cuts;
}

void
RdmaDcqcnFirmware::AlphaPeriodExpired()
{
    m_fwAlpha = m_dceTcpG * (m_cnpSinceAlpha ? 1.0 : 0.0) + (1.0 - m_dceTcpG) * m_fwAlpha;
    const bool active = m_cnpSinceAlpha;
    m_cnpSinceAlpha = false;
    GetState()->m_alpha = m_fwAlpha;
    if (active || m_fwAlpha >= AlphaStopThreshold())
    {
        m_alphaEvent =
            Simulator::Schedule(m_dceTcpRtt, &RdmaDcqcnFirmware::AlphaPeriodExpired, this);
    }
}

void
RdmaDcqcnFirmware::ApplyInteropPreset(Time gen1CnpInterval, uint32_t gen1BurstBytes)
{
    SetAttribute("InteropCnpInterval", TimeValue(gen1CnpInterval));
    SetAttribute("RateDecreasePeriod", TimeValue(Time(0)));
    SetAttribute("BurstBytes", UintegerValue(gen1BurstBytes));
}

uint64_t
RdmaDcqcnFirmware::GetRateCuts() const
{
    return m_cuts;
}

uint64_t
RdmaDcqcnFirmware::GetCnpsReceived() const
{
    return m_cnpsReceived;
}

double
RdmaDcqcnFirmware::GetAlpha() const
{
    return m_fwAlpha;
}

uint32_t
RdmaDcqcnFirmware::GetPacingBurstBytes() const
{
    return m_burstBytes;
}

void
RdmaDcqcnFirmware::Stop()
{
    m_alphaEvent.Cancel();
    RdmaDcqcn::Stop();
}

void
RdmaDcqcnFirmware::DoDispose()
{
    m_alphaEvent.Cancel();
    RdmaDcqcn::DoDispose();
}

// ---- forwarding accessors

void
RdmaDcqcnFirmware::SetRpgTimeReset(Time t)
{
    m_rpgTimeReset = t;
    SetAttribute("RateIncreaseTimer", TimeValue(t));
}

Time
RdmaDcqcnFirmware::GetRpgTimeReset() const
{
    return m_rpgTimeReset;
}

void
RdmaDcqcnFirmware::SetRpgByteReset(uint64_t b)
{
    m_rpgByteReset = b;
    SetAttribute("ByteCounter", UintegerValue(b));
}

uint64_t
RdmaDcqcnFirmware::GetRpgByteReset() const
{
    return m_rpgByteReset;
}

void
RdmaDcqcnFirmware::SetRpgThreshold(uint32_t f)
{
    m_rpgThreshold = f;
    SetAttribute("FastRecoveryTimes", UintegerValue(f));
}

uint32_t
RdmaDcqcnFirmware::GetRpgThreshold() const
{
    return m_rpgThreshold;
}

void
RdmaDcqcnFirmware::SetRpgAiRate(DataRate r)
{
    m_rpgAiRate = r;
    SetAttribute("RateAI", DataRateValue(r));
}

DataRate
RdmaDcqcnFirmware::GetRpgAiRate() const
{
    return m_rpgAiRate;
}

void
RdmaDcqcnFirmware::SetRpgHaiRate(DataRate r)
{
    m_rpgHaiRate = r;
    SetAttribute("RateHAI", DataRateValue(r));
}

DataRate
RdmaDcqcnFirmware::GetRpgHaiRate() const
{
    return m_rpgHaiRate;
}

void
RdmaDcqcnFirmware::SetRpgMinRate(DataRate r)
{
    m_rpgMinRate = r;
    SetAttribute("MinRate", DataRateValue(r));
}

DataRate
RdmaDcqcnFirmware::GetRpgMinRate() const
{
    return m_rpgMinRate;
}

void
RdmaDcqcnFirmware::SetClampTgtRate(bool b)
{
    m_clampTgtRate = b;
    SetAttribute("ClampTargetRate", BooleanValue(b));
}

bool
RdmaDcqcnFirmware::GetClampTgtRate() const
{
    return m_clampTgtRate;
}

void
RdmaDcqcnFirmware::SetClampTgtRateAfterTimeInc(bool b)
{
    m_clampTgtRateAfterTimeInc = b;
    SetAttribute("ClampTargetRateAfterTimeInc", BooleanValue(b));
}

bool
RdmaDcqcnFirmware::GetClampTgtRateAfterTimeInc() const
{
    return m_clampTgtRateAfterTimeInc;
}

void
RdmaDcqcnFirmware::SetRateDecreasePeriod(Time t)
{
    m_rateDecreasePeriod = t;
    SetAttribute("RateDecreaseInterval", TimeValue(t));
}

Time
RdmaDcqcnFirmware::GetRateDecreasePeriod() const
{
    return m_rateDecreasePeriod;
}

} // namespace ns3
