/*
 * DCQCN rule family "increase stages": how rate-increase events are counted and staged,
 * and how the target rate is clamped at a cut.
 * Specification: design/spec-buffers-pfc-dcqcn.md sections 3.4 and 3.5.
 */
#ifndef RDMA_DCQCN_INCREASE_RULE_H
#define RDMA_DCQCN_INCREASE_RULE_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * The rate-increase rule of one DCQCN configuration (a value type; the counters T and BC
 * and the timer are RdmaDcqcn's per-QP state).
 *
 * Paper stages [DCQCN15][DCQCN-NOTES]: events from the rate timer (period Timer) and the
 * byte counter (ByteCounter bytes sent); the event is a fast recovery (stage FR and the
 * fired counter < F), an additive increase (min(T, BC) < F) or a hyper increase
 * (i = min(T, BC) - F + 1 times RateHAI), with the timer period and byte count halved in
 * hyper increase. TimerOnly (HPCC simulator [HPCC-RDMA]): events from the rate timer
 * alone; the stage is the count of earlier expiries since the cut: fast recovery below F,
 * additive at F, one RateHAI per event above F; no halved period.
 */
struct RdmaDcqcnIncreaseRule
{
    /** How rate-increase events are staged (attribute IncreaseStages). */
    enum Stages
    {
        STAGES_PAPER, //!< stage from min(T, BC) after the increment; HAI x i; T_inc/2 in HAI
        STAGES_TIMER  //!< HPCC simulator: stage = timer expiries before this one; fixed HAI
    };

    /** Rate-increase stage of the reaction point. */
    enum Stage
    {
        FAST_RECOVERY,     //!< R_C moves half-way to R_T
        ADDITIVE_INCREASE, //!< R_T grows by RateAI per event
        HYPER_INCREASE     //!< R_T grows by i * RateHAI per event
    };

    /** The outcome of one increase event. */
    struct Event
    {
        Stage stage;       //!< the stage after the event
        uint64_t increase; //!< R_T increase in bit/s
    };

    Stages stages{STAGES_PAPER};            //!< IncreaseStages
    Time timer{MicroSeconds(55)};           //!< RateIncreaseTimer, T_inc
    uint64_t byteCounter{10000000};         //!< ByteCounter, B (0: no byte counter)
    uint32_t fastRecoveryTimes{5};          //!< FastRecoveryTimes, F
    DataRate rateAi{"40Mbps"};              //!< RateAI
    DataRate rateHai{"200Mbps"};            //!< RateHAI
    bool clampTargetRate{false};            //!< ClampTargetRate
    bool clampTargetRateAfterTimeInc{true}; //!< ClampTargetRateAfterTimeInc
    bool qcnTargetRateQuirk{false};         //!< QcnTargetRateQuirk

    /**
     * Stage one event whose counter has just been incremented.
     * \param stage the stage before the event
     * \param timerCount T, \param byteCount BC (after the increment)
     * \param firedCount the new value of the counter that fired
     */
    Event Increase(Stage stage, uint32_t timerCount, uint32_t byteCount, uint32_t firedCount) const;
    /** \return true if byte-counter events count (B > 0 and paper stages) */
    bool CountsBytes() const;
    /** \return the rate-timer period in \p stage */
    Time TimerPeriod(Stage stage) const;
    /** \return the byte-counter period in \p stage */
    uint64_t BytePeriod(Stage stage) const;
    /** \return true if a cut after these increases sets R_T <- R_C */
    bool ClampsAtCut(uint32_t timerCount, uint32_t byteCount) const;
};

} // namespace ns3

#endif /* RDMA_DCQCN_INCREASE_RULE_H */
