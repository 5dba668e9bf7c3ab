/*
 * A monitor that appends rows to one CSV file every interval of the "monitors" section.
 */
#ifndef PERIODIC_CSV_MONITOR_H
#define PERIODIC_CSV_MONITOR_H

#include "experiment-monitor.h"

#include "ns3/nstime.h"

#include <fstream>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The part the queue, rate and buffer monitors share: with its interval above 0, the
 * file NAME.csv (NAME-rank<R>.csv per rank in a distributed run) gets its header at
 * Install, the subclass's rows at every interval from then (or within the subclass's
 * window), and is closed with its README entry at Collect.
 */
class PeriodicCsvMonitor : public ExperimentMonitor
{
  public:
    void Install(ExperimentRunContext& context) override;
    void Collect(ExperimentRunContext& context) override;

  protected:
    /**
     * \param name the file's name without ".csv"
     * \param columns its header line
     * \param readme what the README says of it (the per-rank note is added)
     */
    PeriodicCsvMonitor(std::string name, std::string columns, std::string readme);

    /** \return the sampling interval the "monitors" section gives (0: off). */
    virtual Time GetInterval(const ExperimentMonitors& monitors) const = 0;
    /**
     * The window in which to sample: from \p start (the first sample one interval after
     * it) to \p end (0: the end of the run). The default is the whole run.
     */
    virtual void GetWindow(const ExperimentMonitors& monitors, Time& start, Time& end) const;
    /** Write this interval's rows, each starting with \p now (microseconds). */
    virtual void WriteRows(const ExperimentRunContext& context, const std::string& now,
                           std::ostream& out) = 0;

  private:
    void Sample();

    std::string m_name;
    std::string m_columns;
    std::string m_readme;
    Time m_interval;
    Time m_end; //!< the last sample's time at the latest (0: none)
    const ExperimentRunContext* m_context{nullptr};
    std::ofstream m_file;
};

} // namespace ns3

#endif /* PERIODIC_CSV_MONITOR_H */
