#include "point-progress.h"

#include "wall-duration.h"

#include <cstdio>

namespace ns3
{

PointProgress::PointProgress(std::string program, uint32_t total)
    : m_program(std::move(program))
    , m_total(total)
    , m_start(std::chrono::steady_clock::now())
{
}

void
PointProgress::AddPoints(uint32_t more)
{
    m_total += more;
}

void
PointProgress::Done(const std::string& label)
{
    ++m_done;
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    if (wall < PROGRESS_QUIET_SECONDS)
    {
        return;
    }
    const double eta = m_done < m_total ? (m_total - m_done) * wall / m_done : 0;
    std::fprintf(stderr, "%s: progress: %u / %u points done (%s), %s elapsed, ETA %s\n",
                 m_program.c_str(), m_done, m_total, label.c_str(),
                 FormatWallDuration(wall).c_str(), FormatWallDuration(eta).c_str());
    std::fflush(stderr);
}

} // namespace ns3
