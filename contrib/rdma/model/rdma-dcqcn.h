/*
 * DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments",
 * SIGCOMM 2015): the reaction-point rate state machine and the notification-point
 * CNP pacing, as one RdmaCongestionOps per queue pair, configured by rules.
 * Specification: design/spec-buffers-pfc-dcqcn.md sections 3.3-3.6 and 4.
 */
#ifndef RDMA_DCQCN_H
#define RDMA_DCQCN_H

#include "movable-timer.h"
#include "rdma-congestion-ops.h"
#include "rdma-dcqcn-attributes.h"
#include "rdma-dcqcn-params.h"

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
 * DCQCN, one class for every variant: the paper's algorithm, the HPCC simulator's, and
 * the NIC generations (Gen1, Gen2/Gen3 firmware, the Azure interop fix) are choices of
 * its four rule families (RdmaDcqcnParams), not subclasses:
 * - alpha (RdmaDcqcnAlphaRule): AtCut (paper eq. (1)), CnpPeriods (HPCC simulator),
 *   ActivePeriods (firmware dce_tcp_g per dce_tcp_rtt);
 * - rate-decrease clock (RdmaDcqcnRateDecreaseClock): a cut per CNP, or at most one per
 *   interval on a periodic check (HPCC simulator) or since the last cut (firmware);
 * - increase stages (RdmaDcqcnIncreaseRule): the paper's timer and byte counter, or the
 *   HPCC simulator's timer-only stages; the target clamp at a cut;
 * - CNP policy (RdmaDcqcnCnpPolicy): the NP window, CNP packet or ACK BECN, and the
 *   NIC-wide firmware CNP capacity (Gen1).
 *
 * Reaction point (sender), per queue pair: on a CNP (or, with a rate-decrease interval,
 * when the clock says) the optional target clamp, R_C <- max(R_min, R_C (1 - alpha/2))
 * with the alpha the alpha rule gives, then the stage counters T and BC, the byte counter
 * and the rate timer restart. Rate-increase events from the rate timer and the byte
 * counter move R_T by the stage's increase and R_C half-way to R_T; R_C and R_T are
 * capped at the line rate. The first CNP of a QP may set R_C = R_T (RateOnFirstCnp).
 * The timers stop when they have nothing left to do (R_C = R_T = line rate, alpha below
 * RdmaDcqcnAlphaRule::StopThreshold()) and restart on the next CNP, so that a simulation
 * that runs until no events remain ends.
 *
 * Notification point (receiver), per queue pair: the first CE-marked packet after at
 * least CnpInterval without a CNP triggers one immediately. CNPs are sent only on packet
 * arrivals (OnDataReceived returns the decision), so a window whose marked packets all
 * arrived before its end yields its CNP at the next marked arrival rather than at the end
 * of the window as the reference code's periodic check does; under a continuous marked
 * stream the two coincide.
 *
 * One TypeId, ns3::RdmaDcqcn, exposes every knob (rule choices, rate machine, NIC knobs)
 * with the paper's defaults; the NIC generations are NIC profiles that set them
 * (configs/nic-profiles/gen1.json, gen2-gen3.json, gen2-gen3-interop.json,
 * hpcc-dcqcn.json; contrib/rdma/doc/dcqcn-generations.md). Rates are held in the bound RdmaCcState
 * (m_rate = R_C, m_targetRate = R_T, m_alpha = alpha), which is the single copy of them.
 */
class RdmaDcqcn : public RdmaCongestionOps
{
  public:
    using Stage = RdmaDcqcnIncreaseRule::Stage;
    using AlphaCutOrder = RdmaDcqcnAlphaRule::CutOrder;
    using AlphaUpdate = RdmaDcqcnAlphaRule::Update;
    using RateDecreaseTiming = RdmaDcqcnRateDecreaseClock::Timing;
    using IncreaseStages = RdmaDcqcnIncreaseRule::Stages;
    using CnpDelivery = RdmaDcqcnCnpPolicy::Delivery;
    static constexpr Stage FAST_RECOVERY = RdmaDcqcnIncreaseRule::FAST_RECOVERY;
    static constexpr Stage ADDITIVE_INCREASE = RdmaDcqcnIncreaseRule::ADDITIVE_INCREASE;
    static constexpr Stage HYPER_INCREASE = RdmaDcqcnIncreaseRule::HYPER_INCREASE;
    static constexpr AlphaCutOrder CUT_THEN_UPDATE = RdmaDcqcnAlphaRule::CUT_THEN_UPDATE;
    static constexpr AlphaCutOrder UPDATE_THEN_CUT = RdmaDcqcnAlphaRule::UPDATE_THEN_CUT;
    static constexpr AlphaUpdate ALPHA_AT_CUT = RdmaDcqcnAlphaRule::ALPHA_AT_CUT;
    static constexpr AlphaUpdate ALPHA_CNP_PERIODS = RdmaDcqcnAlphaRule::ALPHA_CNP_PERIODS;
    static constexpr AlphaUpdate ALPHA_ACTIVE = RdmaDcqcnAlphaRule::ALPHA_ACTIVE;
    static constexpr RateDecreaseTiming PERIODIC_CHECK = RdmaDcqcnRateDecreaseClock::PERIODIC_CHECK;
    static constexpr RateDecreaseTiming SINCE_LAST_CUT = RdmaDcqcnRateDecreaseClock::SINCE_LAST_CUT;
    static constexpr IncreaseStages STAGES_PAPER = RdmaDcqcnIncreaseRule::STAGES_PAPER;
    static constexpr IncreaseStages STAGES_TIMER = RdmaDcqcnIncreaseRule::STAGES_TIMER;
    static constexpr CnpDelivery CNP_PACKET = RdmaDcqcnCnpPolicy::CNP_PACKET;
    static constexpr CnpDelivery CNP_ACK_BECN = RdmaDcqcnCnpPolicy::CNP_ACK_BECN;

    /**
     * TracedCallback signature for sending-rate changes.
     * \param oldRate R_C before the change
     * \param newRate R_C after the change
     */
    typedef void (*RateChangeTracedCallback)(DataRate oldRate, DataRate newRate);

    static TypeId GetTypeId();

    RdmaDcqcn();
    /**
     * Copy the configuration only (the parameters as a whole): per-QP state, timers and
     * trace sinks are not copied (used by Fork()).
     * \param other the instance to copy
     */
    RdmaDcqcn(const RdmaDcqcn& other);
    ~RdmaDcqcn() override;

    /** \return "Dcqcn" (whatever the NIC generation its attributes describe) */
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
    Time GetCnpGenerationTime() const override;
    uint32_t GetCnpGenerationQueue() const override;
    void Stop() override;

    /**
     * Azure section 7.2 fix on this instance: the NP window at least the Gen1 coalescing
     * window (per-QP CNP rate limiter), a cut on every CNP and per-burst pacing at the Gen1
     * burst. The same as the profile configs/nic-profiles/gen2-gen3-interop.json.
     * \param gen1CnpInterval the Gen1 NP coalescing window
     * \param gen1BurstBytes the Gen1 rate-limiter burst
     */
    void ApplyInteropPreset(Time gen1CnpInterval, uint32_t gen1BurstBytes);

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
    /** \return rate cuts applied by the reaction point since Init */
    uint64_t GetRateCuts() const;
    /** \return CNPs received by the reaction point since Init */
    uint64_t GetCnpsReceived() const;
    /** \return alpha (RdmaCcState::m_alpha of the bound state; 0 before Init) */
    double GetAlpha() const;
    /** \return the bytes of one pacing burst (0: per packet) */
    uint32_t GetPacingBurstBytes() const;

    /** \return RdmaDcqcnAlphaRule::StopThreshold() */
    static constexpr double AlphaStopThreshold() { return RdmaDcqcnAlphaRule::StopThreshold(); }

    /** \return RdmaDcqcnNextTick(origin, period, now) */
    static Time NextTick(Time origin, Time period, Time now);

  protected:
    void DoDispose() override;

  private:
    friend struct RdmaDcqcnAttributes;

    /** The configuration must be usable (CheckAttributes); aborts naming the attribute. */
    void CheckConfig() const;
    /** Rate timer expiry: T <- T + 1 and one increase event. */
    void RateTimerExpired();
    /** Alpha timer expiry: one EWMA step (+ g if the rule saw a CNP in the period). */
    void AlphaTimerExpired();
    /** The QP's first CNP (alpha rule, RateOnFirstCnp); later ones flag the alpha period. */
    void NoteCnpForAlpha(bool first);
    /** Reaction-point response to one CNP: a cut now or a pending one (the clock). */
    void RequestRateDecrease();
    /** Rate-decrease check: apply the pending decrease, if any. */
    void RateDecreaseCheck();
    /** Apply one rate decrease now and note its time. */
    void DecreaseNow();
    /** Target clamp, cut with the alpha rule's alpha, stage reset, timers restarted. */
    void ReduceRate();
    /**
     * One rate-increase event whose counter has just been incremented.
     * \param firedCount the new value of the counter that fired (T or BC)
     */
    void IncreaseEvent(uint32_t firedCount);
    /** \return true when R_C = R_T = line rate (nothing left to recover) */
    bool AtLineRate() const;
    /**
     * Write R_C into the state and fire the RateChange trace if it changed.
     * \param rate the new R_C
     */
    void SetRate(DataRate rate);

    RdmaDcqcnParams m_params; //!< the configuration: every attribute (copied by Fork)

    // Per-QP state (not copied by Fork)
    RdmaCcState* m_state{nullptr};  //!< bound state (owned by the queue pair)
    Stage m_stage{FAST_RECOVERY};   //!< rate-increase stage
    uint32_t m_timerCount{0};       //!< T
    uint32_t m_byteCount{0};        //!< BC
    uint64_t m_bytesLeft{0};        //!< bytes until the next byte-counter event
    bool m_recovering{false};       //!< a cut happened and R_C/R_T are not back at line rate
    MovableTimer m_rateTimer;       //!< rate-increase timer, restarted by each cut
    MovableTimer m_alphaTimer;      //!< alpha timer
    bool m_cnpSent{false};          //!< NP: a CNP has been sent for this QP
    Time m_lastCnpTime;             //!< NP: time of the last CNP sent
    bool m_decreasePending{false};  //!< RP: a CNP arrived and its decrease is not applied yet
    bool m_hasCut{false};           //!< RP: a decrease happened since Init
    Time m_lastCut;                 //!< RP: time of the last decrease
    std::optional<Time> m_firstCnp; //!< RP: time of the first CNP, origin of the periodic
                                    //!< clocks (none before it)
    bool m_alphaCnpFlag{false};     //!< a CNP arrived in this alpha period (per-period rules)
    EventId m_decreaseEvent;        //!< RP: next rate-decrease check
    uint64_t m_cuts{0};             //!< RP: cuts since Init
    uint64_t m_cnpsReceived{0};     //!< RP: CNPs since Init

    TracedCallback<DataRate, DataRate> m_rateChangeTrace; //!< R_C changes
};

} // namespace ns3

#endif /* RDMA_DCQCN_H */
