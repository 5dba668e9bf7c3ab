/*
 * faults.csv, the README's fault lines and summary.json's "faults": what the
 * FaultInjector did.
 */
#ifndef FAULT_LOG_WRITER_H
#define FAULT_LOG_WRITER_H

#include "experiment-monitor.h"
#include "fault-injector.h"

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Reports what a run's FaultInjector (a composer) did, when the experiment gives any
 * fault: faults.csv has one row per lossy link (time 0; frames of the selected
 * classes seen and lost, both directions) then one per timed fault that happened, in
 * time order; the README lists each under "Faults injected:"; summary.json gets
 * "faults": {"events", "random_loss_frames"}.
 */
class FaultLogWriter : public ExperimentMonitor
{
  public:
    /** faults.csv header row. */
    static constexpr const char* COLUMNS = "time_ns,kind,target,detail";

    /** \p faults must outlive the writer. */
    explicit FaultLogWriter(const FaultInjector& faults);

    /**
     * Write faults.csv and register it and the README's fault lines.
     * \throw std::runtime_error if it cannot be written
     */
    void Write(ExperimentRunContext& context) override;
    void AddToSummary(const ExperimentRunContext& context,
                      nlohmann::ordered_json& summary) const override;

  private:
    const FaultInjector& m_faults;
};

} // namespace ns3

#endif /* FAULT_LOG_WRITER_H */
