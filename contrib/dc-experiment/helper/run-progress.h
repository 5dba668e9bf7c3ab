/*
 * roce-run's progress report: simulated time / stop time, flows finished / total,
 * events per wall-second and an ETA, from ExperimentRunner's public getters.
 */
#ifndef RUN_PROGRESS_H
#define RUN_PROGRESS_H

#include "experiment-runner.h"

#include "ns3/nstime.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Samples the run from a self-rescheduling simulator event whose simulated
 * interval adapts so that it fires about four times per wall-second. Progress,
 * elapsed time and ETA count from the first flow's start (an HPCC-simulator
 * trace starts at 2 s; nothing is simulated before it): the first sample is
 * taken one interval after it. Silent for the first two wall-seconds (or one log
 * period, if shorter). On a
 * terminal it keeps one updating line (carriage return); otherwise (logs,
 * SLURM) it prints a full line every log period (ten seconds by default). It only reads the runner
 * and the simulator, so outputs do not change; the run's event count includes its few events.
 */
class RunProgress
{
  public:
    static constexpr double DEFAULT_LOG_PERIOD_SECONDS = 10.0;

    /** \param logPeriod wall-clock seconds between lines when stderr is not a terminal */
    RunProgress(const ExperimentRunner& runner, Time stopTime,
                double logPeriod = DEFAULT_LOG_PERIOD_SECONDS);
    /** Count progress and ETA from \p firstStart, the first flow's start (default 0). */
    void SetFirstFlowStart(Time firstStart);
    /** \return the earliest start of \p config's flows (0 if it has none). */
    static Time GetFirstFlowStart(const ExperimentConfig& config);
    ~RunProgress();
    /** Schedule the first sample; call before ExperimentRunner::Run. */
    void Start();

  private:
    using Clock = std::chrono::steady_clock;
    void First();
    void Sample();
    std::string Line(double wall) const;

    const ExperimentRunner& m_runner;
    Time m_stopTime;
    Time m_firstStart{0};
    Time m_interval;
    double m_logPeriod;
    bool m_terminal;
    bool m_printed{false};
    Clock::time_point m_start;
    Clock::time_point m_lastSample;
    Clock::time_point m_lastPrint;
    uint64_t m_lastEvents{0};
    double m_eventRate{0};
};

} // namespace ns3

#endif /* RUN_PROGRESS_H */
