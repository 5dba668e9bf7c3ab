/*
 * The output files of a run that are not a monitor's: config.json, flows.csv,
 * trace.csv, pfc.csv, summary.json and README.
 */
#ifndef EXPERIMENT_OUTPUT_WRITER_H
#define EXPERIMENT_OUTPUT_WRITER_H

#include "experiment-monitor.h"
#include "experiment-result-merge.h"
#include "experiment-workload.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Writes, on the writing rank once the results are merged, each registered in the
 * run's README:
 *
 * - config.json: ExperimentConfig::EffectiveJson() plus "non_default_attributes":
 *   every attribute of the run's objects that differs from its TypeId default
 *   (NonDefaultAttributes)
 * - flows.csv: one row per flow (COLUMNS; finish/fct/slowdown empty for flows that
 *   did not finish)
 * - trace.csv: the flows in FlowTrace's CSV format, for replay
 * - pfc.csv: PFC counters of every port and class with PFC activity (PFC_COLUMNS)
 * - summary.json: flow counts, FCT and slowdown statistics (overall and by size
 *   bucket), retransmissions, PFC totals and drops by reason, then each monitor's
 *   keys (ExperimentMonitor::AddToSummary), in list order
 * - README (RunReadmeWriter), last
 *
 * Numbers have fixed formats and no wall-clock time appears, so the same
 * configuration and seed give byte-identical files.
 */
class ExperimentOutputWriter
{
  public:
    static constexpr const char* COLUMNS =
        "id,src,dst,bytes,start_us,finish_us,fct_us,ideal_fct_us,"
        "slowdown,retransmitted_packets,verb,priority,delivered_bytes";
    /** flows.csv's last columns when a switch balances load ("load_balancing"). */
    static constexpr const char* REORDER_COLUMNS = ",reordered_packets,max_reorder_distance";
    static constexpr const char* PFC_COLUMNS =
        "node,port,class,xoff_sent,xon_sent,xoff_received,paused_us";

    /** Both must outlive the writer; \p totals merged. */
    ExperimentOutputWriter(const ExperimentRunContext& context,
                           const ExperimentResultMerge& totals);

    /** config.json. */
    void WriteConfig() const;
    /** flows.csv. */
    void WriteFlows() const;
    /** trace.csv. */
    void WriteTrace() const;
    /** pfc.csv. */
    void WritePfc() const;
    /** summary.json, with the keys each of \p monitors then each of \p workloads adds. */
    void WriteSummary(const std::vector<ExperimentMonitor*>& monitors,
                      const std::vector<ExperimentWorkload*>& workloads) const;
    /** README: what each file of the output directory is. */
    void WriteReadme() const;

  private:
    const ExperimentRunContext& m_context;
    const ExperimentResultMerge& m_totals;
};

} // namespace ns3

#endif /* EXPERIMENT_OUTPUT_WRITER_H */
