/*
 * DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments",
 * SIGCOMM 2015): the paper's reaction-point rate state machine and its
 * notification-point CNP pacing, as one RdmaCongestionOps per queue pair.
 * Specification: design/spec-buffers-pfc-dcqcn.md sections 3.3, 3.4 and 4.
 */
#ifndef RDMA_DCQCN_H
#define RDMA_DCQCN_H

#include "movable-timer.h"
#include "rdma-congestion-ops.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <optional>

namespace ns3
{

/**
 * \ingroup rdma
 * DCQCN as published (SIGCOMM'15, the "paper" variant of spec section 3.4).
 *
 * Reaction point (sender), per queue pair:
 * - on a CNP (or, with RateDecreaseInterval > 0, at most once per interval, see
 *   below): optional target clamp, R_C <- max(R_min, R_C (1 - alpha/2)),
 *   alpha <- (1 - g) alpha + g (order selectable by AlphaCutOrder), then the
 *   stage counters T and BC, the byte counter and both timers restart;
 * - alpha timer (period K): alpha <- (1 - g) alpha;
 * - rate-increase events from the rate timer (period T_inc) and the byte
 *   counter (B bytes sent): T or BC is incremented, then the event is a fast
 *   recovery (stage FR and the fired counter < F), an additive increase
 *   (min(T, BC) < F) or a hyper increase (i = min(T, BC) - F + 1). Once the
 *   stage is hyper increase, the timer period is T_inc/2 and the byte count B/2.
 *   Every increase ends with R_C <- (R_T + R_C)/2; R_C and R_T are capped at
 *   the line rate.
 *
 * Rate-decrease coalescing (RateDecreaseInterval > 0): a CNP only flags a pending
 * decrease, and the cut is made once per interval at most, when the flag is
 * set. RateDecreaseTiming chooses when: PeriodicCheck (the HPCC simulator's
 * DCQCN): a check every interval on a clock started by the first CNP of the
 * queue pair, so the first cut comes one interval after the first CNP;
 * SinceLastCut (the ConnectX firmware profile, RdmaDcqcnFirmware): at once if
 * the last cut is at least one interval old, else at the end of that interval.
 * The periodic check stops at a tick with no pending flag and resumes on the
 * same clock (the next tick after the CNP) with the next CNP.
 *
 * The HPCC simulator's DCQCN (the hpcc-dcqcn NIC profile) differs in two more
 * rules, chosen by attributes: AlphaUpdate CnpPeriods (alpha rises once per alpha
 * period in which a CNP arrived, on a clock started by the first CNP, and a cut
 * leaves it unchanged) and IncreaseStages TimerOnly (increase events from the rate
 * timer alone; the stage is the count of earlier expiries since the cut: fast
 * recovery below F, additive at F, one RateHAI per event above F; no halved period).
 *
 * The timers stop when they have nothing left to do (R_C = R_T = line rate,
 * alpha below AlphaStopThreshold()) and restart on the next CNP, so that a
 * simulation that runs until no events remain ends.
 *
 * Notification point (receiver), per queue pair: the first CE-marked packet
 * after at least CnpInterval without a CNP triggers one immediately; hence at
 * most one CNP per CnpInterval. CnpDelivery says how it travels: a RoCEv2 CNP
 * packet (Packet, default), or the BECN bit of the marked packet's ACK, sent at
 * once (AckBecn, the HPCC simulator's NP); with AckBecn the reaction point also
 * takes each ACK/NAK with BECN as a CNP (RdmaCongestionOps::WantsCnpInAckBecn). The decision is the
 * virtual ShouldSendCnp(), which the firmware (per-marked-packet) variants override. CNPs are sent
 * only on packet arrivals (OnDataReceived returns the decision), so a window whose marked packets
 * all arrived before its end yields its CNP at the next marked arrival rather than at the end of
 * the window as the reference code's periodic check does; under a continuous marked stream the two
 * coincide.
 *
 * Rates are held in the bound RdmaCcState (m_rate = R_C, m_targetRate = R_T,
 * m_alpha = alpha), which is the single copy of them.
 */
class RdmaDcqcn : public RdmaCongestionOps
{
  public:
    /** Rate-increase stage of the reaction point. */
    enum Stage
    {
        FAST_RECOVERY,     //!< R_C moves half-way to R_T
        ADDITIVE_INCREASE, //!< R_T grows by RateAI per event
        HYPER_INCREASE     //!< R_T grows by i * RateHAI per event
    };

    /** Order of the two updates made on a CNP (spec section 7, item 8). */
    enum AlphaCutOrder
    {
        CUT_THEN_UPDATE, //!< paper eq. (1): cut with the old alpha, then update alpha
        UPDATE_THEN_CUT  //!< authors' ns-3 code: update alpha, then cut with the new one
    };

    /** When a pending rate decrease is applied (RateDecreaseInterval > 0). */
    enum RateDecreaseTiming
    {
        PERIODIC_CHECK, //!< HPCC simulator: every interval from the first CNP of the QP
        SINCE_LAST_CUT  //!< firmware model: at once if the last cut is >= one interval old
    };

    /** When alpha rises towards 1 (AlphaUpdate). */
    enum AlphaUpdate
    {
        ALPHA_AT_CUT,     //!< paper eq. (1): alpha <- (1 - g) alpha + g at each cut
        ALPHA_CNP_PERIODS //!< HPCC simulator: per alpha period, + g if a CNP arrived in it
    };

    /** How rate-increase events are staged (IncreaseStages). */
    enum IncreaseStages
    {
        STAGES_PAPER, //!< stage from min(T, BC) after the increment; HAI x i; T_inc/2 in HAI
        STAGES_TIMER  //!< HPCC simulator: stage = timer expiries before this one; fixed HAI
    };

    /** How a congestion notification travels from NP to RP (CnpDelivery). */
    enum CnpDelivery
    {
        CNP_PACKET,  //!< RoCEv2 CNP packet (IBTA Vol. 1 Annex A17), as RoCEv2 NICs send
        CNP_ACK_BECN //!< HPCC simulator: BECN in the BTH of the marked packet's ACK/NAK
    };

    /**
     * TracedCallback signature for sending-rate changes.
     * \param oldRate R_C before the change
     * \param newRate R_C after the change
     */
    typedef void (*RateChangeTracedCallback)(DataRate oldRate, DataRate newRate);

    static TypeId GetTypeId();

    RdmaDcqcn();
    /**
     * Copy the attribute values only: per-QP state, timers and trace sinks are
     * not copied (used by Fork()).
     * \param other the instance to copy
     */
    RdmaDcqcn(const RdmaDcqcn& other);
    ~RdmaDcqcn() override;

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() const override;
    void Init(RdmaCcState* state) override;
    bool CheckAttributes(DataRate lineRate, std::string& attribute,
                         std::string& reason) const override;
    void OnCnp() override;
    void OnDataSent(uint32_t bytes) override;
    void OnAck(const RdmaAckSample& ack) override;
    bool OnDataReceived(bool ceMarked) override;
    bool WantsCnpInAckBecn() const override;
    void Stop() override;

    /** \return the current rate-increase stage */
    Stage GetStage() const;
    /** \return T, the rate-timer expiries since the last cut */
    uint32_t GetTimerStageCount() const;
    /** \return BC, the byte-counter expiries since the last cut */
    uint32_t GetByteStageCount() const;
    /** \return true while the rate timer is scheduled */
    bool IsRateTimerRunning() const;
    /** \return true while the alpha timer is scheduled */
    bool IsAlphaTimerRunning() const;
    /** \return true while a CNP waits for its rate decrease (RateDecreaseInterval > 0) */
    bool IsRateDecreasePending() const;

    /**
     * The alpha timer stops once alpha falls below this value (and restarts on
     * the next CNP). At 1e-6 the next cut would differ from a cut with alpha = 0
     * by less than 5e-7 of the rate; with g = 1/256 it is reached after 3530
     * periods (194 ms at K = 55 us).
     * \return the threshold
     */
    static constexpr double AlphaStopThreshold() { return 1e-6; }

    /**
     * The clocks of PeriodicCheck and CnpPeriods tick every \p period from \p origin (the
     * QP's first CNP).
     * \return the first tick strictly after \p now (a tick at \p now has run already)
     */
    static Time NextTick(Time origin, Time period, Time now);

  protected:
    void DoDispose() override;

    /**
     * Notification-point decision for one arriving data packet.
     * Paper variant: send if the packet is CE-marked and no CNP was sent for
     * this queue pair in the last CnpInterval.
     * \param ceMarked the packet carried ECN CE
     * \param now the current simulation time
     * \return true if a CNP must be sent now
     */
    virtual bool ShouldSendCnp(bool ceMarked, Time now);

    /** \return true once a CNP arrived since Init (RequestRateDecrease notes each) */
    bool HasReceivedCnp() const;
    /** \return true if this queue pair has sent a CNP */
    bool HasSentCnp() const;
    /** \return the time of the last CNP sent (meaningful if HasSentCnp()) */
    Time GetLastCnpTime() const;

    /**
     * Reaction-point rate cut with target clamp and alpha update, resetting the
     * stage and restarting the timers. OnCnp() calls it; variants that coalesce
     * CNPs at the reaction point call it from their own reduction schedule.
     */
    void ReduceRate();

    /**
     * Reaction-point response to one CNP: the rate decrease now
     * (RateDecreaseInterval 0) or a pending one at the time RateDecreaseTiming
     * gives. OnCnp() calls it; variants that override OnCnp() call it for the cut.
     */
    void RequestRateDecrease();

    /**
     * One rate decrease (RequestRateDecrease decided it is due now). Default:
     * ReduceRate(); variants with their own alpha override it.
     */
    virtual void ApplyRateDecrease();

    /** \return the bound per-QP state (null before Init) */
    RdmaCcState* GetState() const;

  private:
    /** The configuration must be usable (CheckAttributes); aborts naming the attribute. */
    void CheckConfig() const;
    /** Rate timer expiry: T <- T + 1 and one increase event. */
    void RateTimerExpired();
    /**
     * Alpha timer expiry: alpha <- (1 - g) alpha, + g under AlphaUpdate CnpPeriods if a CNP
     * arrived in the period.
     */
    void AlphaTimerExpired();
    /** \return alpha after one EWMA step: (1 - g) \p alpha, + g if \p cnp. */
    double AlphaStep(double alpha, bool cnp) const;
    /**
     * Note a CNP arriving now; the QP's first starts its CNP clocks (m_firstCnp).
     * \return true for the first CNP
     */
    bool NoteCnp();
    /**
     * AlphaUpdate CnpPeriods: note a CNP for the alpha clock (starting it on the first).
     * OnCnp calls it before RequestRateDecrease, which notes the CNP too.
     */
    void NoteCnpForAlpha();
    /** Rate-decrease check: apply the pending decrease, if any. */
    void RateDecreaseCheck();
    /** Apply one rate decrease now and note its time. */
    void DecreaseNow();
    /**
     * One rate-increase event whose counter has just been incremented.
     * \param firedCount the new value of the counter that fired (T or BC)
     */
    void IncreaseEvent(uint32_t firedCount);
    /** \return the current rate-timer period (halved in hyper increase) */
    Time RateTimerPeriod() const;
    /** \return the current byte-counter period (halved in hyper increase) */
    uint64_t ByteCounterPeriod() const;
    /** \return true when R_C = R_T = line rate (nothing left to recover) */
    bool AtLineRate() const;
    /**
     * Write R_C into the state and fire the RateChange trace if it changed.
     * \param rate the new R_C
     */
    void SetRate(DataRate rate);

    // Attributes
    double m_g;                              //!< alpha EWMA gain g
    Time m_alphaUpdatePeriod;                //!< K
    Time m_rateIncreaseTimer;                //!< T_inc
    uint64_t m_byteCounter;                  //!< B in bytes (0 disables the byte counter)
    uint32_t m_fastRecoveryTimes;            //!< F
    DataRate m_rateAi;                       //!< R_AI
    DataRate m_rateHai;                      //!< R_HAI
    DataRate m_minRate;                      //!< R_min
    double m_initialAlpha;                   //!< alpha of a new queue pair
    Time m_cnpInterval;                      //!< N, NP window
    bool m_clampTargetRate;                  //!< R_T <- R_C on every CNP
    bool m_clampTargetRateAfterTimeInc;      //!< clamp also after timer-only increases
    bool m_qcnTargetRateQuirk;               //!< QCN "R_T > 10 R_C -> R_T/8" on the first increase
    AlphaCutOrder m_alphaCutOrder;           //!< order of the cut and the alpha update
    Time m_rateDecreaseInterval;             //!< RP: at most one cut per interval (0: every CNP)
    RateDecreaseTiming m_rateDecreaseTiming; //!< when a pending decrease is applied
    AlphaUpdate m_alphaUpdate;               //!< when alpha rises
    IncreaseStages m_increaseStages;         //!< how increase events are staged
    CnpDelivery m_cnpDelivery;               //!< CNP packet or BECN of the ACK

    // Per-QP state (not copied by Fork)
    RdmaCcState* m_state{nullptr};  //!< bound state (owned by the queue pair)
    Stage m_stage{FAST_RECOVERY};   //!< rate-increase stage
    uint32_t m_timerCount{0};       //!< T
    uint32_t m_byteCount{0};        //!< BC
    uint64_t m_bytesLeft{0};        //!< bytes until the next byte-counter event
    bool m_recovering{false};       //!< a cut happened and R_C/R_T are not back at line rate
    MovableTimer m_rateTimer;       //!< rate-increase timer, restarted by each CNP
    MovableTimer m_alphaTimer;      //!< alpha decay timer, restarted by each CNP
    bool m_cnpSent{false};          //!< NP: a CNP has been sent for this QP
    Time m_lastCnpTime;             //!< NP: time of the last CNP sent
    bool m_decreasePending{false};  //!< RP: a CNP arrived and its decrease is not applied yet
    bool m_hasCut{false};           //!< RP: a decrease happened since Init
    Time m_lastCut;                 //!< RP: time of the last decrease
    std::optional<Time> m_firstCnp; //!< RP: time of the first CNP, origin of the PeriodicCheck
                                    //!< and CnpPeriods clocks (none before it)
    bool m_alphaCnpFlag{false};     //!< AlphaUpdate CnpPeriods: a CNP arrived in this period
    EventId m_decreaseEvent;        //!< RP: next rate-decrease check

    TracedCallback<DataRate, DataRate> m_rateChangeTrace; //!< R_C changes
};

} // namespace ns3

#endif /* RDMA_DCQCN_H */
