/*
 * Speed and size of a finished run, for benchmarks (never written into outputs).
 */
#ifndef RUN_STATISTICS_H
#define RUN_STATISTICS_H

#include <cstdint>
#include <ostream>

namespace ns3
{

class ExperimentRunner;

/**
 * \ingroup dc-experiment
 * Whole-run figures a benchmark reports: simulated packets (frames serialized by
 * every DcbNetDevice, data and control), events, wall-clock time split into set-up
 * and event loop, the process's CPU time (user + system, whole process so far)
 * and its peak resident memory. On a shared machine the wall-clock rates
 * depend on the other load; the CPU-time rate much less so.
 */
struct RunStatistics
{
    uint64_t framesSent{0};
    uint64_t events{0};
    double simulatedSeconds{0};
    double setupWallSeconds{0};
    double eventLoopWallSeconds{0};
    double processCpuSeconds{0};
    uint64_t peakRssBytes{0};

    /** Collect from \p runner after Run() and before Simulator::Destroy(). */
    static RunStatistics Collect(const ExperimentRunner& runner);

    /** Print the figures, one "name: value" per line. */
    void Print(std::ostream& os) const;
};

} // namespace ns3

#endif /* RUN_STATISTICS_H */
