/*
 * DCQCN as run by NVIDIA ConnectX-4 and later firmware/hardware ("Gen2/Gen3"
 * in Azure, NSDI'23, section 7.2), with the Azure interoperability fix as
 * attributes. Specification: design/spec-buffers-pfc-dcqcn.md sections 3.5,
 * 3.6 (knob table) and 4.
 */
#ifndef RDMA_DCQCN_FIRMWARE_H
#define RDMA_DCQCN_FIRMWARE_H

#include "rdma-dcqcn.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * Gen2/Gen3 (firmware) DCQCN profile.
 *
 * - Notification point: a CNP for every CE-marked packet, subject only to
 *   MinTimeBetweenCnps (np_min_time_between_cnps) and, with the Azure fix, to
 *   the per-QP CNP rate limiter InteropCnpInterval. Both gaps are per queue
 *   pair in this model (firmware applies min_time_between_cnps per port).
 * - Reaction point: RP-side coalescing. A CNP marks the current
 *   RateDecreasePeriod (rate_reduce_monitor_period) window; the rate is cut at
 *   most once per window, at once if the previous cut is at least one period
 *   old, else at the end of that period. RateDecreasePeriod = 0 cuts on every
 *   CNP (the Azure fix "minimises" this window). This is RdmaDcqcn's
 *   rate-decrease coalescing: RateDecreasePeriod sets the inherited
 *   RateDecreaseInterval, with RateDecreaseTiming SinceLastCut.
 * - alpha: every AlphaUpdatePeriodFw (dce_tcp_rtt) while active,
 *   alpha <- g * cnp_received + (1 - g) * alpha with g = DceTcpG (1/256); on the first
 *   CNP of the QP alpha <- InitialAlphaValue and, if RateOnFirstCnp > 0,
 *   R_C = R_T <- RateOnFirstCnp. The cut uses this alpha: R_C(1 - alpha/2),
 *   which is rpg_gd = 11 with alpha in 2^10 units.
 * - Rate increase: the inherited state machine, with the firmware knob values
 *   (RpgTimeReset, RpgByteReset, RpgThreshold, RpgAiRate, RpgHaiRate,
 *   RpgMinRate, ClampTgtRate, ClampTgtRateAfterTimeInc) written into the
 *   inherited attributes (RateIncreaseTimer, ByteCounter, FastRecoveryTimes,
 *   RateAI, RateHAI, MinRate, ClampTargetRate, ClampTargetRateAfterTimeInc),
 *   which they override for this class. Mixed-generation experiments can then
 *   set ns3::RdmaDcqcn::* for Gen1 and ns3::RdmaDcqcnFirmware::* for Gen2/3.
 * - Rate limiter: per packet; BurstBytes > 0 asks for per-burst pacing (the
 *   Azure fix), handed to the queue pair's pacer in RdmaCcState.
 *
 * Not modelled: rpg_gd other than 11, rpg_min_dec_fac (with alpha <= 1 the cut
 * never exceeds the default 50 %), rpg_max_rate, CNP moderation per port, the
 * shaper key (one rate limiter per QP).
 */
class RdmaDcqcnFirmware : public RdmaDcqcn
{
  public:
    static TypeId GetTypeId();

    RdmaDcqcnFirmware();
    /**
     * Copy the attribute values only (used by Fork()).
     * \param other the instance to copy
     */
    RdmaDcqcnFirmware(const RdmaDcqcnFirmware& other);
    ~RdmaDcqcnFirmware() override;

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() const override;
    void Init(RdmaCcState* state) override;
    /** Also names RpgMinRate and RpgTimeReset, which set MinRate and RateIncreaseTimer. */
    bool CheckAttributes(DataRate lineRate, std::string& attribute,
                         std::string& reason) const override;
    void OnCnp() override;
    void Stop() override;

    /**
     * Azure section 7.2 fix on this instance: per-QP CNP rate limiter at the
     * Gen1 coalescing interval, RP reduction window 0 (cut on every CNP) and
     * per-burst pacing at the Gen1 burst size.
     * \param gen1CnpInterval the Gen1 NP coalescing window
     * \param gen1BurstBytes the Gen1 rate-limiter burst
     */
    void ApplyInteropPreset(Time gen1CnpInterval, uint32_t gen1BurstBytes);

    /** \return rate cuts applied by the reaction point since Init */
    uint64_t GetRateCuts() const;
    /** \return CNPs received by the reaction point since Init */
    uint64_t GetCnpsReceived() const;
    /**
     * \return the firmware alpha. RdmaCcState::m_alpha holds the same value after
     * each update and cut, but the inherited alpha timer (restarted by every cut)
     * also decays it between updates until RdmaDcqcn lets a variant disable it.
     */
    double GetAlpha() const;
    /** \return the bytes of one pacing burst (0: per packet) */
    uint32_t GetPacingBurstBytes() const;

  protected:
    void NotifyConstructionCompleted() override;
    void DoDispose() override;
    bool ShouldSendCnp(bool ceMarked, Time now) override;
    /** Apply one rate cut with the firmware alpha. */
    void ApplyRateDecrease() override;

  private:
    /** Write the firmware-named rate-increase knobs into the inherited attributes. */
    void ForwardKnobs();
    /** alpha update (dce_tcp_rtt period). */
    void AlphaPeriodExpired();

    // Setters that forward to the inherited attributes.
    void SetRpgTimeReset(Time t);
    Time GetRpgTimeReset() const;
    void SetRpgByteReset(uint64_t b);
    uint64_t GetRpgByteReset() const;
    void SetRpgThreshold(uint32_t f);
    uint32_t GetRpgThreshold() const;
    void SetRpgAiRate(DataRate r);
    DataRate GetRpgAiRate() const;
    void SetRpgHaiRate(DataRate r);
    DataRate GetRpgHaiRate() const;
    void SetRpgMinRate(DataRate r);
    DataRate GetRpgMinRate() const;
    void SetClampTgtRate(bool b);
    bool GetClampTgtRate() const;
    void SetClampTgtRateAfterTimeInc(bool b);
    bool GetClampTgtRateAfterTimeInc() const;
    void SetRateDecreasePeriod(Time t);
    Time GetRateDecreasePeriod() const;

    // Attributes (ConnectX knob in the help strings)
    Time m_rpgTimeReset;             //!< rpg_time_reset
    uint64_t m_rpgByteReset;         //!< rpg_byte_reset
    uint32_t m_rpgThreshold;         //!< rpg_threshold
    DataRate m_rpgAiRate;            //!< rpg_ai_rate
    DataRate m_rpgHaiRate;           //!< rpg_hai_rate
    DataRate m_rpgMinRate;           //!< rpg_min_rate
    bool m_clampTgtRate;             //!< clamp_tgt_rate
    bool m_clampTgtRateAfterTimeInc; //!< clamp_tgt_rate_after_time_inc
    double m_dceTcpG;                //!< dce_tcp_g / 1024
    Time m_dceTcpRtt;                //!< dce_tcp_rtt
    Time m_rateDecreasePeriod;       //!< rate_reduce_monitor_period
    double m_initialAlphaValue;      //!< initial_alpha_value / 1024
    DataRate m_rateOnFirstCnp;       //!< rate_to_set_on_first_cnp (0: keep line rate)
    Time m_minTimeBetweenCnps;       //!< np_min_time_between_cnps
    Time m_interopCnpInterval;       //!< Azure fix: per-QP CNP rate limiter (0: off)
    uint32_t m_burstBytes;           //!< per-burst pacing (0: per packet)

    // Per-QP state
    double m_fwAlpha;        //!< firmware alpha
    bool m_cnpSinceAlpha;    //!< cnp_received for the alpha update
    uint64_t m_cuts;         //!< cuts since Init
    uint64_t m_cnpsReceived; //!< CNPs since Init
    EventId m_alphaEvent;    //!< next alpha update
};

} // namespace ns3

#endif /* RDMA_DCQCN_FIRMWARE_H */
