/*
 * DCQCN rule family "rate-decrease clock": whether the reaction point cuts on every CNP
 * or at most once per interval, and when a pending cut is made.
 * Specification: design/spec-buffers-pfc-dcqcn.md sections 3.4 and 3.5.
 */
#ifndef RDMA_DCQCN_RATE_DECREASE_CLOCK_H
#define RDMA_DCQCN_RATE_DECREASE_CLOCK_H

#include "ns3/nstime.h"

namespace ns3
{

/**
 * \ingroup rdma
 * The rate-decrease clock of one DCQCN configuration (a value type; the pending flag and
 * the check event are RdmaDcqcn's per-QP state).
 *
 * Interval 0 cuts on every CNP (the paper's RP [DCQCN15]). With Interval > 0 a CNP only
 * flags a pending decrease and the rate is cut at most once per interval, when the flag
 * is set. PeriodicCheck (HPCC simulator [HPCC-RDMA]): a check every Interval on a clock
 * started by the QP's first CNP, so the first cut comes one interval after the first CNP;
 * the check stops at a tick with no pending flag and resumes on the same clock with the
 * next CNP. SinceLastCut (ConnectX firmware rate_reduce_monitor_period [MLX-DUMP]): at
 * once if the last cut is at least one interval old, else at the end of that interval.
 */
struct RdmaDcqcnRateDecreaseClock
{
    /** When a pending rate decrease is applied (attribute RateDecreaseTiming). */
    enum Timing
    {
        PERIODIC_CHECK, //!< HPCC simulator: every interval from the first CNP of the QP
        SINCE_LAST_CUT  //!< firmware: at once if the last cut is >= one interval old
    };

    Time interval{0};              //!< RateDecreaseInterval (0: cut on every CNP)
    Timing timing{PERIODIC_CHECK}; //!< RateDecreaseTiming

    /**
     * \param hasCut a cut happened since the QP started
     * \param lastCut the time of the last cut (if \p hasCut)
     * \param now the time of the CNP
     * \return true if the CNP arriving now is cut at once
     */
    bool CutsNow(bool hasCut, Time lastCut, Time now) const;
    /**
     * \param lastCut the time of the last cut
     * \param firstCnp the time of the QP's first CNP
     * \param now the time of the CNP that flagged a pending decrease
     * \return when the pending decrease is checked
     */
    Time NextCheck(Time lastCut, Time firstCnp, Time now) const;
};

} // namespace ns3

#endif /* RDMA_DCQCN_RATE_DECREASE_CLOCK_H */
