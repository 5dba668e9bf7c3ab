/*
 * What the progress reports share (RunProgress, PointProgress and ExperimentRunner's
 * ShowProgress): wall time as their lines print it ("42 s", "3.5 min", "2.1 h") and how
 * long a run stays silent before its first line.
 */
#ifndef WALL_DURATION_H
#define WALL_DURATION_H

#include <cstdio>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Wall-clock seconds before a run's first progress line (ShowProgress's interval in
 * ExperimentRunner): runs shorter than this print none.
 */
constexpr double PROGRESS_QUIET_SECONDS = 2.0;

/**
 * \ingroup dc-experiment
 * \return \p seconds of wall time for a progress line: whole seconds below 2 min, minutes
 * with one decimal below 2 h, hours beyond (used by RunProgress and PointProgress).
 */
inline std::string
FormatWallDuration(double seconds)
{
    char buf[32];
    if (seconds < 120)
    {
        std::snprintf(buf, sizeof(buf), "%.0f s", seconds);
    }
    else if (seconds < 7200)
    {
        std::snprintf(buf, sizeof(buf), "%.1f min", seconds / 60);
    }
    else
    {
        std::snprintf(buf, sizeof(buf), "%.1f h", seconds / 3600);
    }
    return buf;
}

} // namespace ns3

#endif /* WALL_DURATION_H */
