/*
 * The kind of experiment part that observes a run: samplers, recorders, output
 * writers, each adding its files and summary.json figures.
 */
#ifndef EXPERIMENT_MONITOR_H
#define EXPERIMENT_MONITOR_H

#include "experiment-run-context.h"

#include <nlohmann/json.hpp>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * A part of a run that watches the network and reports on it. It neither changes the
 * model (that is an ExperimentComposer) nor makes traffic (an ExperimentWorkload).
 * ExperimentRunner holds a list of them, its own (StandardParts: queue, rate and
 * buffer samplers, PFC safety, exactly-once, the fault log, HPCC-format files, port
 * map, nodes.csv, hostping, PFC events, packet captures) then those a caller adds
 * (ExperimentRunner::AddMonitor), and calls each step on every monitor in list order:
 *
 * 1. CheckConfig: refuse what the run cannot do (ExperimentConfigError), before
 *    the network is built.
 * 2. Prepare: the network is built and composed (ExperimentComposer::Compose), no
 *    workload is set up and no QP exists yet: connect to what must be seen from
 *    set-up on.
 * 3. Install: the workloads are set up (the flows' results exist): connect traces and
 *    schedule samples.
 * 4. Collect: the run is over, on every rank of a distributed run: write per-rank
 *    files (ExperimentRunContext::MonitorFileName).
 * 5. Write: on the writing rank only, with the results merged over the ranks:
 *    write the monitor's files.
 * 6. AddToSummary: add its top-level keys to summary.json.
 *
 * A monitor registers each file it writes in the run's README
 * (ExperimentRunContext::GetReadme) as it writes it, so the README lists the
 * files in the order of the list (then the workloads' files). Every step does nothing
 * unless overridden.
 */
class ExperimentMonitor
{
  public:
    virtual ~ExperimentMonitor() = default;

    /** \throw ExperimentConfigError for a setting this monitor cannot honour in this run */
    virtual void CheckConfig(const ExperimentRunContext& context);
    virtual void Prepare(ExperimentRunContext& context);
    virtual void Install(ExperimentRunContext& context);
    /** \throw std::runtime_error if a file cannot be written */
    virtual void Collect(ExperimentRunContext& context);
    /** \throw std::runtime_error if a file cannot be written */
    virtual void Write(ExperimentRunContext& context);
    virtual void AddToSummary(const ExperimentRunContext& context,
                              nlohmann::ordered_json& summary) const;
};

} // namespace ns3

#endif /* EXPERIMENT_MONITOR_H */
