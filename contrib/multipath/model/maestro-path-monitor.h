/*
 * Maestro path monitor: per-virtual-path measurements from completions and QP counters.
 */
#ifndef MAESTRO_PATH_MONITOR_H
#define MAESTRO_PATH_MONITOR_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/** \ingroup multipath What the path monitor knows about one virtual path. */
struct MaestroPathState
{
    bool usable{true};   //!< false once failed (completion error or chunk timeout)
    uint32_t liveWrs{0}; //!< chunks posted and not yet completed
    uint64_t outstandingBytes{0};
    uint64_t bytesCompleted{0}; //!< successfully completed chunk bytes
    uint64_t chunksCompleted{0};
    uint64_t cnps{0};     //!< CNPs received by the VP's QP (DCQCN RP counter)
    uint64_t errors{0};   //!< completions with an error status
    uint64_t timeouts{0}; //!< chunks that exceeded the chunk timeout
    DataRate rate;        //!< estimated available bandwidth
    Time latency;         //!< estimated small-message latency (zero: not measured)
    Time lastCompletion;  //!< time of the latest completion on this path
};

/**
 * \ingroup multipath
 * Tracks, per virtual path, live work requests, delivered bytes, CNP counts (read
 * from the QP's counters, as Maestro reads DCQCN counters), completion errors and
 * two estimates:
 *  - available bandwidth: an EWMA of the rate at which the path's QP drains its
 *    chunks, bytes / (completion − max(post, previous completion)); while the QP is
 *    backlogged this is the rate DCQCN grants on the path, i.e. its available
 *    bandwidth;
 *  - latency: an EWMA of post-to-completion times of chunks no larger than the
 *    small-message threshold that were posted on an idle path (probes).
 * Only what the verbs interface shows is used: post times, completions, counters.
 */
class MaestroPathMonitor : public Object
{
  public:
    static TypeId GetTypeId();
    MaestroPathMonitor();

    /** Add a path whose bandwidth estimate starts at \p initialRate. \return its id */
    uint32_t AddPath(DataRate initialRate);
    uint32_t GetNPaths() const;
    const MaestroPathState& Get(uint32_t vp) const;
    uint32_t GetNUsable() const;

    void NotifyPosted(uint32_t vp, uint64_t bytes);
    /**
     * A chunk of \p bytes posted at \p postTime completed at \p now; \p cnps is the
     * QP's CNP counter now, \p wasIdle whether the path had nothing live at post.
     */
    void NotifyCompleted(uint32_t vp, uint64_t bytes, Time postTime, Time now, bool success,
                         uint64_t cnps, bool wasIdle);
    void NotifyTimeout(uint32_t vp);
    /** Take a path out of use (error, timeout or operator decision). */
    void MarkFailed(uint32_t vp);
    /** Put a path back (after a reconnect); its estimates restart from \p rate. */
    void Restore(uint32_t vp, DataRate rate);
    /** The path's QP was replaced: its live work requests will never complete. */
    void ForgetLive(uint32_t vp);

    uint64_t GetSmallMessageThreshold() const;

  private:
    std::vector<MaestroPathState> m_paths;
    double m_rateGain;
    double m_latencyGain;
    uint64_t m_smallThreshold;
    TracedCallback<uint32_t> m_pathFailedTrace;
    TracedCallback<uint32_t, double> m_rateEstimateTrace;
};

} // namespace ns3

#endif /* MAESTRO_PATH_MONITOR_H */
