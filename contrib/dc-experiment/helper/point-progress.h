/*
 * Progress of a program that runs a list of short simulations (points of a figure):
 * points done / total, elapsed and ETA, on stderr.
 */
#ifndef POINT_PROGRESS_H
#define POINT_PROGRESS_H

#include <chrono>
#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * For programs whose figure is a list of separate simulations (srnic-scalability):
 * after each point, once two wall-seconds
 * have passed, prints "PROGRAM: progress: i / N points done (LABEL), T elapsed, ETA T'"
 * on stderr (the ETA from the mean time per point so far). It schedules no events, so
 * simulations that end when their events run out are unchanged, and stdout and the output
 * files are not touched. Runs of a few seconds print nothing.
 */
class PointProgress
{
  public:
    /** \param program the program's name; \param total the number of points */
    PointProgress(std::string program, uint32_t total);

    /** Add \p more points to the total (when the count is known only later). */
    void AddPoints(uint32_t more);

    /** One point is done; \p label says which (e.g. "Srnic loss=0.01"). */
    void Done(const std::string& label);

  private:
    std::string m_program;
    uint32_t m_total;
    uint32_t m_done{0};
    std::chrono::steady_clock::time_point m_start;
};

} // namespace ns3

#endif /* POINT_PROGRESS_H */
