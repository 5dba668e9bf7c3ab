#include "run-progress.h"

#include "wall-duration.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <cstdio>
#include <unistd.h>

namespace ns3
{

namespace
{
constexpr double SAMPLE_SECONDS = 0.25; //!< target wall time between samples
constexpr double TERMINAL_PRINT_SECONDS = 0.5;

} // namespace

RunProgress::RunProgress(const ExperimentRunner& runner, Time stopTime, double logPeriod)
    : m_runner(runner)
    , m_stopTime(stopTime)
    , m_interval(MicroSeconds(1))
    , m_logPeriod(logPeriod)
    , m_terminal(isatty(STDERR_FILENO) == 1)
{
}

RunProgress::~RunProgress()
{
    if (m_printed && m_terminal)
    {
        std::fputc('\n', stderr);
    }
}

void
RunProgress::SetFirstFlowStart(Time firstStart)
{
    m_firstStart = std::min(firstStart, m_stopTime);
}

Time
RunProgress::GetFirstFlowStart(const ExperimentConfig& config)
{
    const std::vector<ExperimentFlow>& flows = config.GetFlows();
    Time first = flows.empty() ? Time(0) : flows.front().start;
    for (const ExperimentFlow& f : flows)
    {
        first = std::min(first, f.start);
    }
    return first;
}

void
RunProgress::Start()
{
    // The clocks start at the first flow's start: the time before it (2 s in an HPCC
    // simulator's trace) would give an ETA of hours and, once the sampling interval had
    // grown to cross it, no line for minutes.
    First();
    if (m_firstStart > Simulator::Now())
    {
        Simulator::Schedule(m_firstStart - Simulator::Now(), &RunProgress::First, this);
    }
}

void
RunProgress::First()
{
    m_start = Clock::now();
    m_lastSample = m_start;
    m_lastPrint = m_start;
    m_lastEvents = Simulator::GetEventCount();
    if (Simulator::Now() >= m_firstStart)
    {
        Simulator::Schedule(m_interval, &RunProgress::Sample, this);
    }
}

std::string
RunProgress::Line(double wall) const
{
    const auto& flows = m_runner.GetFlowResults();
    const uint32_t finished = m_runner.GetFinishedFlows();
    const double now = Simulator::Now().GetSeconds();
    const double stop = m_stopTime.GetSeconds();
    const double done = (Simulator::Now() - m_firstStart).GetSeconds(); // since the first flow
    // Two estimates: the rest of the simulated time at the current pace (an upper bound,
    // since the run stops when every flow has completed) and the unfinished flows at
    // the pace flows have finished so far. The smaller is shown.
    double eta = done > 0 ? (stop - now) * wall / done : -1;
    if (finished > 0 && finished < flows.size())
    {
        eta = std::min(eta, (flows.size() - finished) * wall / finished);
    }
    char buf[200];
    std::snprintf(buf, sizeof(buf),
                  "progress: %.3f / %.3f ms simulated, %u / %zu flows finished, %.0f k events/s, "
                  "%s elapsed, ETA %s",
                  now * 1e3, stop * 1e3, finished, flows.size(), m_eventRate / 1e3,
                  FormatWallDuration(wall).c_str(),
                  eta >= 0 ? FormatWallDuration(eta).c_str() : "?");
    return buf;
}

void
RunProgress::Sample()
{
    const Clock::time_point now = Clock::now();
    const double sinceSample = std::chrono::duration<double>(now - m_lastSample).count();
    const uint64_t events = Simulator::GetEventCount();
    if (sinceSample > 0)
    {
        m_eventRate = (events - m_lastEvents) / sinceSample;
        // Aim at SAMPLE_SECONDS of wall time per sample, changing by at most 2x a step.
        const double factor = std::clamp(SAMPLE_SECONDS / sinceSample, 0.5, 2.0);
        m_interval =
            std::max(PicoSeconds(1000),
                     PicoSeconds(static_cast<int64_t>(m_interval.GetPicoSeconds() * factor)));
    }
    m_lastSample = now;
    m_lastEvents = events;

    const double wall = std::chrono::duration<double>(now - m_start).count();
    const double sincePrint = std::chrono::duration<double>(now - m_lastPrint).count();
    const double period = m_terminal ? TERMINAL_PRINT_SECONDS : m_logPeriod;
    if (wall >= std::min(PROGRESS_QUIET_SECONDS, m_logPeriod) &&
        (sincePrint >= period || !m_printed))
    {
        const std::string line = Line(wall);
        if (m_terminal)
        {
            std::fprintf(stderr, "\r%s\033[K", line.c_str());
        }
        else
        {
            std::fprintf(stderr, "%s\n", line.c_str());
        }
        std::fflush(stderr);
        m_printed = true;
        m_lastPrint = now;
    }
    Simulator::Schedule(m_interval, &RunProgress::Sample, this);
}

} // namespace ns3
