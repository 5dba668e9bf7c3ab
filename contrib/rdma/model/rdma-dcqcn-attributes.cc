/*
 * RdmaDcqcn's attribute table. Source tags refer to design/spec-buffers-pfc-dcqcn.md
 * section 10. Where a NIC generation (a profile in configs/nic-profiles) sets another
 * value, the help string names it with its source (ConnectX knob names: rdma docs).
 */
#include "rdma-dcqcn-attributes.h"

#include "rdma-dcqcn.h"

#include "ns3/attribute-accessor-helper.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <limits>
#include <type_traits>

namespace ns3
{

namespace
{

/**
 * An attribute accessor for one field of RdmaDcqcnParams, reached by \p Field (a lambda
 * from the parameters to the field): the attribute table names each knob once.
 */
template <typename V, typename Field>
class ParamAccessor : public AccessorHelper<RdmaDcqcn, V>
{
  public:
    explicit ParamAccessor(Field field)
        : m_field(field)
    {
    }

    bool HasGetter() const override { return true; }

    bool HasSetter() const override { return true; }

  private:
    bool DoSet(RdmaDcqcn* object, const V* v) const override
    {
        auto& field = m_field(RdmaDcqcnAttributes::Params(*object));
        field = static_cast<std::remove_reference_t<decltype(field)>>(v->Get());
        return true;
    }

    bool DoGet(const RdmaDcqcn* object, V* v) const override
    {
        v->Set(m_field(RdmaDcqcnAttributes::Params(const_cast<RdmaDcqcn&>(*object))));
        return true;
    }

    Field m_field;
};

template <typename V, typename Field>
Ptr<const AttributeAccessor>
Knob(Field field)
{
    return Ptr<const AttributeAccessor>(new ParamAccessor<V, Field>(field), false);
}

} // namespace

RdmaDcqcnParams&
RdmaDcqcnAttributes::Params(RdmaDcqcn& dcqcn)
{
    return dcqcn.m_params;
}

TypeId
RdmaDcqcnAttributes::Add(TypeId tid)
{
    const RdmaDcqcnParams defaults; // the paper's
    return AddFirstCnpRate(AddNicKnobs(AddRateMachine(tid, defaults), defaults), defaults);
}

TypeId
RdmaDcqcnAttributes::AddRateMachine(TypeId tid, const RdmaDcqcnParams& d)
{
    using P = RdmaDcqcnParams;
    using Alpha = RdmaDcqcnAlphaRule;
    using Clock = RdmaDcqcnRateDecreaseClock;
    using Increase = RdmaDcqcnIncreaseRule;
    using Cnp = RdmaDcqcnCnpPolicy;
    return tid
        .AddAttribute(
            "G",
            "Gain g of the alpha EWMA (dimensionless, in (0, 1]): alpha <- (1-g) alpha "
            "(+ g on a CNP). Default 1/256 [FLUID-PY]; the authors' config uses "
            "DCTCP_GAIN 0.00390625 [DCQCN-NS3]. Firmware (dce_tcp_g / 1024): 1/256 per "
            "AlphaUpdatePeriod = 1 us, the public simulator mapping of dce_tcp_g/dce_tcp_rtt "
            "[HPCC-CFG EWMA_GAIN, ALPHA_RESUME_INTERVAL]; public dumps show 1019 (1019/1024) "
            "[MLX-DUMP]: taken literally alpha falls to ~0 within 2 us of the last CNP "
            "(spec 7.9; set 0.9951171875 to study it).",
            DoubleValue(d.alpha.g), Knob<DoubleValue>([](P& p) -> double& { return p.alpha.g; }),
            // (0, 1]: g = 0 would freeze alpha forever.
            MakeDoubleChecker<double>(std::numeric_limits<double>::min(), 1.0))
        .AddAttribute("AlphaUpdatePeriod",
                      "Period K of the alpha timer (Time). Default 55 us; the paper requires K "
                      "larger than the NP CNP interval [DCQCN15][DCQCN-NS3]. Firmware "
                      "dce_tcp_rtt: 1 us [MLX-DUMP].",
                      TimeValue(d.alpha.period),
                      Knob<TimeValue>([](P& p) -> Time& { return p.alpha.period; }),
                      MakeTimeChecker(NanoSeconds(1)))
        .AddAttribute("RateIncreaseTimer",
                      "Period T_inc of the rate-increase timer (Time); T_inc/2 in hyper "
                      "increase. Default 55 us [DCQCN-NOTES (DCQCN+)][FLUID-PY]. Firmware "
                      "rpg_time_reset: 300 us [MLX-DUMP].",
                      TimeValue(d.increase.timer),
                      Knob<TimeValue>([](P& p) -> Time& { return p.increase.timer; }),
                      MakeTimeChecker(NanoSeconds(1)))
        .AddAttribute("ByteCounter",
                      "Byte counter B (bytes of payload sent) between rate-increase events; "
                      "B/2 in hyper increase; 0 disables it. Default 10 MB = 10000000 B "
                      "[DCQCN-NOTES (DCQCN+)][FLUID-PY]. Firmware rpg_byte_reset: 32767 B "
                      "[MLX-DUMP].",
                      UintegerValue(d.increase.byteCounter),
                      Knob<UintegerValue>([](P& p) -> uint64_t& { return p.increase.byteCounter; }),
                      MakeUintegerChecker<uint64_t>())
        .AddAttribute(
            "FastRecoveryTimes",
            "Stage threshold F (count): an event is fast recovery while in that "
            "stage and its counter (after the increment) is below F; hyper "
            "increase once min(T, BC) >= F. Default 5 [DCQCN15][FLUID-PY]. Firmware "
            "rpg_threshold: 1 [MLX-DUMP].",
            UintegerValue(d.increase.fastRecoveryTimes),
            Knob<UintegerValue>([](P& p) -> uint32_t& { return p.increase.fastRecoveryTimes; }),
            MakeUintegerChecker<uint32_t>())
        .AddAttribute("RateAI",
                      "Additive increase R_AI of the target rate per event (DataRate). "
                      "Default 40 Mbps [DCQCN-NOTES][FLUID-PY][DCQCN-NS3 config]. Firmware "
                      "rpg_ai_rate: 5 Mbps [MLX-DUMP].",
                      DataRateValue(d.increase.rateAi),
                      Knob<DataRateValue>([](P& p) -> DataRate& { return p.increase.rateAi; }),
                      MakeDataRateChecker())
        .AddAttribute("RateHAI",
                      "Hyper increase step R_HAI (DataRate); the target grows by i R_HAI with "
                      "i = min(T, BC) - F + 1. Default 200 Mbps (authors' config RATE_HAI) "
                      "[DCQCN-NS3 config]. Firmware rpg_hai_rate: 50 Mbps [MLX-DUMP].",
                      DataRateValue(d.increase.rateHai),
                      Knob<DataRateValue>([](P& p) -> DataRate& { return p.increase.rateHai; }),
                      MakeDataRateChecker())
        .AddAttribute("MinRate",
                      "Minimum sending rate R_min (DataRate, > 0 and <= line rate). Default "
                      "100 Mbps (simulator default) [DCQCN-NS3][HPCC-RDMA]. Firmware "
                      "rpg_min_rate: 1 Mbps [MLX-DUMP].",
                      DataRateValue(d.minRate),
                      Knob<DataRateValue>([](P& p) -> DataRate& { return p.minRate; }),
                      MakeDataRateChecker())
        .AddAttribute("InitialAlpha",
                      "Alpha of a new queue pair (dimensionless, [0, 1]), and under AlphaUpdate "
                      "CnpPeriods or ActivePeriods the alpha set by its first CNP; the alpha "
                      "timer only runs after a CNP, so this is the alpha of the first cut. "
                      "Default 1 (paper, HPCC); firmware initial_alpha_value: 1023/1024 "
                      "[MLX-DUMP]; authors' ns-3 code 0.5 [DCQCN-NS3] (spec section 7, item 7).",
                      DoubleValue(d.alpha.initial),
                      Knob<DoubleValue>([](P& p) -> double& { return p.alpha.initial; }),
                      MakeDoubleChecker<double>(0.0, 1.0))
        .AddAttribute("CnpInterval",
                      "NP window N (Time): a CE-marked packet triggers a CNP at once if no "
                      "CNP was sent for this queue pair in the last N, so at most one CNP "
                      "per N. Default 50 us [DCQCN15][DCQCN-NS3][FLUID-PY], also Gen1's "
                      "NP-side coalescing window (Azure does not disclose it [AZURE 7.2]). "
                      "Firmware np_min_time_between_cnps (per QP here, per port in firmware): "
                      "0, a CNP for every marked packet, the CX-4 default [DCQCN-NOTES "
                      "(DCQCN+)] and Azure's Gen2/Gen3 [AZURE 7.2]; later dumps show 2 or 4 us "
                      "[MLX-DUMP]. The Azure interop fix sets it to the Gen1 window [AZURE 7.2].",
                      TimeValue(d.cnp.interval),
                      Knob<TimeValue>([](P& p) -> Time& { return p.cnp.interval; }),
                      MakeTimeChecker(Time(0)))
        .AddAttribute("ClampTargetRate",
                      "If true, R_T <- R_C on every CNP (firmware clamp_tgt_rate). Default "
                      "false, as in public mlxconfig dumps [MLX-DUMP] and the reference "
                      "code's base rule [DCQCN-NS3].",
                      BooleanValue(d.increase.clampTargetRate),
                      Knob<BooleanValue>([](P& p) -> bool& { return p.increase.clampTargetRate; }),
                      MakeBooleanChecker())
        .AddAttribute(
            "ClampTargetRateAfterTimeInc",
            "When ClampTargetRate is false: if true, R_T <- R_C on a CNP when any rate "
            "increase (timer or byte counter) happened since the last cut (T != 0 or "
            "BC != 0); if false, only after a byte-counter increase (BC != 0), the "
            "reference code's base rule [DCQCN-NS3]. Default true: the paper's eq. (1) sets "
            "R_T <- R_C on a CNP and its rate-increase events come from both counters alike, "
            "so the paper implies clamping after any increase; it is also the firmware "
            "default clamp_tgt_rate_after_time_inc = 1 [MLX-DUMP][MSTFLINT-2015].",
            BooleanValue(d.increase.clampTargetRateAfterTimeInc),
            Knob<BooleanValue>([](P& p) -> bool&
                               { return p.increase.clampTargetRateAfterTimeInc; }),
            MakeBooleanChecker())
        .AddAttribute(
            "QcnTargetRateQuirk",
            "If true, keep the QCN rule of the reference code: on the first "
            "increase event after a cut, if R_T > 10 R_C then R_T <- R_T/8 "
            "instead of the stage's R_T update [DCQCN-NS3 AdjustRates]. Not part "
            "of the paper's algorithm; default false.",
            BooleanValue(d.increase.qcnTargetRateQuirk),
            Knob<BooleanValue>([](P& p) -> bool& { return p.increase.qcnTargetRateQuirk; }),
            MakeBooleanChecker())
        .AddAttribute("AlphaCutOrder",
                      "Order of the rate cut and the alpha update on a CNP under AlphaUpdate "
                      "AtCut (spec section 7, item 8). CutThenUpdate (default): paper eq. (1), "
                      "the cut uses the alpha before this CNP [DCQCN15]; UpdateThenCut: the "
                      "authors' ns-3 code [DCQCN-NS3].",
                      EnumValue(d.alpha.order),
                      Knob<EnumValue>([](P& p) -> Alpha::CutOrder& { return p.alpha.order; }),
                      MakeEnumChecker(Alpha::CUT_THEN_UPDATE, "CutThenUpdate",
                                      Alpha::UPDATE_THEN_CUT, "UpdateThenCut"))
        .AddAttribute(
            "RateDecreaseInterval",
            "RP rate-decrease interval I (Time): with I > 0 a CNP only flags a decrease and "
            "the rate is cut at most once per I, when the flag is set (RateDecreaseTiming "
            "says when); 0 cuts on every CNP, the paper's RP [DCQCN15]. Default 0. The HPCC "
            "simulator's DCQCN checks the flag every RATE_DECREASE_INTERVAL = 4 us "
            "[HPCC-CFG][HPCC-RDMA]; ConnectX firmware's rate_reduce_monitor_period, the "
            "minimal time between two rate reductions of a flow, is 4 us (the firmware "
            "default) [MLX-DUMP][DCQCN-NOTES]; the Azure interop fix sets 0 [AZURE 7.2].",
            TimeValue(d.decrease.interval),
            Knob<TimeValue>([](P& p) -> Time& { return p.decrease.interval; }),
            MakeTimeChecker(Time(0)))
        .AddAttribute(
            "RateDecreaseTiming",
            "When a flagged decrease is applied (RateDecreaseInterval > 0). PeriodicCheck "
            "(default): at the next tick of a check every RateDecreaseInterval on a clock "
            "started by the QP's first CNP, so the first cut comes one interval after the "
            "first CNP, as the HPCC simulator's DCQCN [HPCC-RDMA]; SinceLastCut (the firmware "
            "default): at once if the last cut is at least one interval old, else at the end "
            "of that interval (the reading of rate_reduce_monitor_period [MLX-DUMP]).",
            EnumValue(d.decrease.timing),
            Knob<EnumValue>([](P& p) -> Clock::Timing& { return p.decrease.timing; }),
            MakeEnumChecker(Clock::PERIODIC_CHECK, "PeriodicCheck", Clock::SINCE_LAST_CUT,
                            "SinceLastCut"))
        .AddAttribute(
            "AlphaUpdate",
            "When alpha rises towards 1. AtCut (default): alpha <- (1 - g) alpha + g at each "
            "rate cut, and the alpha timer (restarted by each cut) only decays it, the "
            "paper's eq. (1) [DCQCN15]. CnpPeriods: the HPCC simulator's DCQCN [HPCC-RDMA]: "
            "every AlphaUpdatePeriod on a clock started by the QP's first CNP (which sets "
            "alpha to InitialAlpha), alpha <- (1 - g) alpha + g if a CNP arrived in the "
            "period, else (1 - g) alpha; a cut uses alpha as it stands and does not change "
            "it. ActivePeriods (the firmware default, dce_tcp_g per dce_tcp_rtt [MLX-DUMP]): "
            "as CnpPeriods, but a stopped clock restarts one period after the CNP that wakes "
            "it, and runs on while CNPs arrive.",
            EnumValue(d.alpha.update),
            Knob<EnumValue>([](P& p) -> Alpha::Update& { return p.alpha.update; }),
            MakeEnumChecker(Alpha::ALPHA_AT_CUT, "AtCut", Alpha::ALPHA_CNP_PERIODS, "CnpPeriods",
                            Alpha::ALPHA_ACTIVE, "ActivePeriods"))
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
            EnumValue(d.increase.stages),
            Knob<EnumValue>([](P& p) -> Increase::Stages& { return p.increase.stages; }),
            MakeEnumChecker(Increase::STAGES_PAPER, "Paper", Increase::STAGES_TIMER, "TimerOnly"))
        .AddAttribute(
            "CnpDelivery",
            "How the notification point's CNP reaches the reaction point. Packet "
            "(default): a RoCEv2 CNP packet (BTH opcode 0x81, in RdmaNic::CnpDscp's class), "
            "what RoCEv2 NICs send [IBTA A17]; the reaction point ignores "
            "BECN in ACKs. AckBecn: the HPCC simulator's DCQCN [HPCC-RDMA]: no CNP packet; "
            "the ACK (or NAK) of the CE-marked packet, sent at once whatever AckInterval, "
            "sets the BTH BECN bit, InfiniBand's backward congestion notification "
            "[IBTA 9.2, A10], and the reaction point takes every ACK/NAK with BECN "
            "as one CNP (CNP packets too). A marked READ request or READ response, which "
            "draws no ACK of its own, still gets a CNP packet. CnpInterval applies to both.",
            EnumValue(d.cnp.delivery),
            Knob<EnumValue>([](P& p) -> Cnp::Delivery& { return p.cnp.delivery; }),
            MakeEnumChecker(Cnp::CNP_PACKET, "Packet", Cnp::CNP_ACK_BECN, "AckBecn"))
        .AddTraceSource("RateChange", "The sending rate R_C changed (old rate, new rate).",
                        MakeTraceSourceAccessor(&RdmaDcqcn::m_rateChangeTrace),
                        "ns3::RdmaDcqcn::RateChangeTracedCallback");
}

TypeId
RdmaDcqcnAttributes::AddNicKnobs(TypeId tid, const RdmaDcqcnParams& d)
{
    using P = RdmaDcqcnParams;
    return tid
        .AddAttribute(
            "BurstBytes",
            "Per-burst rate limiting: the QP sends up to this many wire bytes back-to-back "
            "at line rate, then waits BurstBytes/R_C from the burst start; 0 = per-packet "
            "pacing (the Gen2/Gen3 firmware). Gen1 ('from a single packet to a burst of "
            "packets' [AZURE 7.2], no value given): 16 KB, an assumption inside the 4-64 KB "
            "test range of spec section 4; the Azure interop fix sets the Gen1 burst on "
            "Gen2/Gen3. Handed to the queue pair's pacer through "
            "RdmaCcState::m_pacingBurstBytes.",
            UintegerValue(d.burstBytes),
            Knob<UintegerValue>([](P& p) -> uint32_t& { return p.burstBytes; }),
            MakeUintegerChecker<uint32_t>())
        .AddAttribute(
            "FirmwareCnpTime",
            "Firmware time to generate one CNP, NIC-wide (the NP runs in firmware with "
            "'limited processing capacity' [AZURE 7.2]): the NIC sends at most one CNP per "
            "FirmwareCnpTime over all its QPs (RdmaFirmwareCnpQueue). Gen1: 5 us: the "
            "ConnectX-3 Pro NP generates one CNP per 1-5 us, about 10-20 congested flows "
            "at a 50 us window [DCQCN15, spec section 4 NpCnpCapacity]; 5 us is the slow end "
            "of that range, and that Azure's Gen1 is this NIC is an assumption. 0 = no "
            "limit (CNPs leave when decided, as on Gen2/Gen3).",
            TimeValue(d.cnp.firmwareTime),
            Knob<TimeValue>([](P& p) -> Time& { return p.cnp.firmwareTime; }),
            MakeTimeChecker(Time(0)))
        .AddAttribute("FirmwareCnpQueue",
                      "CNP requests (count) that wait while the firmware is generating a CNP; a "
                      "request that finds them all taken is lost, and its QP's coalescing window "
                      "still runs. No published value: default 16 is an assumption (a request then "
                      "waits at most 16 x 5 us = 80 us, under two 50 us windows). 0 = requests "
                      "that find the firmware busy are lost.",
                      UintegerValue(d.cnp.firmwareQueue),
                      Knob<UintegerValue>([](P& p) -> uint32_t& { return p.cnp.firmwareQueue; }),
                      MakeUintegerChecker<uint32_t>());
}

TypeId
RdmaDcqcnAttributes::AddFirstCnpRate(TypeId tid, const RdmaDcqcnParams& d)
{
    using P = RdmaDcqcnParams;
    return tid.AddAttribute(
        "RateOnFirstCnp",
        "Firmware rate_to_set_on_first_cnp: R_C = R_T set when the rate limiter is allocated "
        "on the QP's first CNP, before that CNP's cut; 0 keeps the port speed. Default 0 "
        "[MLX-DUMP].",
        DataRateValue(d.rateOnFirstCnp),
        Knob<DataRateValue>([](P& p) -> DataRate& { return p.rateOnFirstCnp; }),
        MakeDataRateChecker());
}

} // namespace ns3
