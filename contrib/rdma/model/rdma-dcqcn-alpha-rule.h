/*
 * DCQCN rule family "alpha": when the congestion estimate alpha rises and decays,
 * and which alpha a rate cut uses. Specification: design/spec-buffers-pfc-dcqcn.md
 * sections 3.4 (paper), 3.5 (firmware) and 7 items 7-9.
 */
#ifndef RDMA_DCQCN_ALPHA_RULE_H
#define RDMA_DCQCN_ALPHA_RULE_H

#include "ns3/nstime.h"

namespace ns3
{

/**
 * \ingroup rdma
 * The alpha rule of one DCQCN configuration: a small value type (knobs and pure
 * functions; the per-QP alpha is RdmaCcState::m_alpha and the timer is RdmaDcqcn's).
 *
 * - AtCut (paper eq. (1) [DCQCN15]): each cut makes alpha <- (1 - g) alpha + g (the cut
 *   uses the alpha before or after, CutOrder); a timer restarted by each cut decays it
 *   every Period.
 * - CnpPeriods (HPCC simulator [HPCC-RDMA]): the QP's first CNP sets alpha to Initial and
 *   starts a clock of Period; each period ends with alpha <- (1 - g) alpha + g if a CNP
 *   arrived in it, else (1 - g) alpha; a cut leaves alpha unchanged. A stopped clock
 *   resumes at its next tick.
 * - ActivePeriods (ConnectX firmware dce_tcp_g / dce_tcp_rtt [MLX-DUMP]): as CnpPeriods,
 *   but a stopped clock restarts one Period after the CNP that wakes it, and it keeps
 *   running while CNPs arrive whatever alpha.
 */
struct RdmaDcqcnAlphaRule
{
    /** When alpha rises towards 1 (attribute AlphaUpdate). */
    enum Update
    {
        ALPHA_AT_CUT,      //!< paper eq. (1): alpha <- (1 - g) alpha + g at each cut
        ALPHA_CNP_PERIODS, //!< HPCC simulator: per period on the first CNP's clock
        ALPHA_ACTIVE       //!< firmware: per period while active, restarted by a CNP
    };

    /** Order of the two updates made on a cut under AtCut (spec section 7, item 8). */
    enum CutOrder
    {
        CUT_THEN_UPDATE, //!< paper eq. (1): cut with the old alpha, then update alpha
        UPDATE_THEN_CUT  //!< authors' ns-3 code: update alpha, then cut with the new one
    };

    /** The alpha a cut uses and the alpha it leaves. */
    struct Cut
    {
        double used;  //!< alpha of R_C (1 - alpha/2)
        double after; //!< alpha after the cut
    };

    Update update{ALPHA_AT_CUT};     //!< AlphaUpdate
    CutOrder order{CUT_THEN_UPDATE}; //!< AlphaCutOrder
    double g{1.0 / 256.0};           //!< G
    Time period{MicroSeconds(55)};   //!< AlphaUpdatePeriod
    double initial{1.0};             //!< InitialAlpha

    /**
     * The alpha timer stops once alpha falls below this value (and restarts on the next
     * CNP). At 1e-6 the next cut would differ from a cut with alpha = 0 by less than 5e-7
     * of the rate; with g = 1/256 it is reached after 3530 periods (194 ms at 55 us).
     * \return the threshold
     */
    static constexpr double StopThreshold() { return 1e-6; }

    /** \return true if alpha moves on the clock of CNP periods (not AtCut) */
    bool PerPeriod() const { return update != ALPHA_AT_CUT; }
    /** \return alpha after one EWMA step: (1 - g) \p alpha, + g if \p cnp */
    double Step(double alpha, bool cnp) const;
    /** \return the alpha used by a cut with \p alpha before it, and the alpha after */
    Cut AtCut(double alpha) const;
    /**
     * \return the delay from \p now to the restart of a stopped period clock whose origin
     * (the QP's first CNP) is \p origin
     */
    Time Resume(Time origin, Time now) const;
    /** \return true if the period clock runs on after a period ending at \p alpha */
    bool RunsOn(double alpha, bool cnpInPeriod) const;
};

/**
 * The periodic clocks of DCQCN (alpha periods, rate-decrease checks) tick every
 * \p period from \p origin (the QP's first CNP).
 * \return the first tick strictly after \p now (a tick at \p now has run already)
 */
Time RdmaDcqcnNextTick(Time origin, Time period, Time now);

} // namespace ns3

#endif /* RDMA_DCQCN_ALPHA_RULE_H */
