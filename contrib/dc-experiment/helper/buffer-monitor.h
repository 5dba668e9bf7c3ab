/*
 * The buffer monitor: every switch's buffer occupancy and watermarks, every
 * monitors/buffer_interval, and its drops by reason at the end.
 */
#ifndef BUFFER_MONITOR_H
#define BUFFER_MONITOR_H

#include "periodic-csv-monitor.h"

#include "ns3/buffer-manager.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * With monitors/buffer_interval above 0, buffers.csv
 * (`time_us,node,object,name,port,index,bytes,watermark_bytes`) gets, every interval,
 * each switch's BufferManager::ReportOccupancy figures (a SONiC manager's pools, PGs
 * and queues, a deep-buffer chassis' OCB and DRAM, or the total occupancy), then the
 * watermarks are cleared unless monitors/watermark_mode is "persistent"; at the end,
 * buffer_drops.csv (`node,reason,packets`) gets each switch's buffer-manager drops
 * per reason, where above zero. In a distributed run each rank writes its own
 * switches' rows into buffers-rank<R>.csv and buffer_drops-rank<R>.csv.
 */
class BufferMonitor : public PeriodicCsvMonitor
{
  public:
    static constexpr const char* COLUMNS =
        "time_us,node,object,name,port,index,bytes,watermark_bytes";
    static constexpr const char* DROPS_COLUMNS = "node,reason,packets";

    BufferMonitor();

    void Collect(ExperimentRunContext& context) override;

  private:
    Time GetInterval(const ExperimentMonitors& monitors) const override;
    void WriteRows(const ExperimentRunContext& context, const std::string& now,
                   std::ostream& out) override;
    void WriteDrops(ExperimentRunContext& context) const;

    std::vector<BufferOccupancy> m_report; //!< one switch's figures (reused)
};

} // namespace ns3

#endif /* BUFFER_MONITOR_H */
