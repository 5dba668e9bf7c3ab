/*
 * Runs an experiment: builds the network, composes it, drives the workloads, calls
 * the monitors and writes the output directory.
 */
#ifndef EXPERIMENT_RUNNER_H
#define EXPERIMENT_RUNNER_H

#include "experiment-composer.h"
#include "experiment-monitor.h"
#include "experiment-partition.h"
#include "experiment-result-merge.h"
#include "experiment-run-context.h"
#include "experiment-workload.h"
#include "run-readme-writer.h"
#include "standard-parts.h"
#include "topology-builder.h"

#include "ns3/experiment-config.h"
#include "ns3/nstime.h"

#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class DeliveryChecker;
class FlowWorkload;

/**
 * \ingroup dc-experiment
 * Runs one experiment and writes its output directory. The runner holds three lists
 * of experiment parts and calls each at its steps (doc/architecture.md):
 *
 * - composers (ExperimentComposer) change the model before the run;
 * - workloads (ExperimentWorkload) make traffic: FlowWorkload (the flows), then the
 *   configuration's other workloads (StandardParts), then those added with AddWorkload;
 * - monitors (ExperimentMonitor) observe and write files: the StandardParts monitors
 *   the configuration asks for, then those added with AddMonitor.
 *
 * The order of a run: every part's CheckConfig; TopologyBuilder::Build; the composers'
 * Compose; the monitors' Prepare; the workloads' SetUp; the composers' and monitors'
 * Install; the workloads' Start; the simulation, which stops when every workload is
 * done (ExperimentWorkload::IsDone) or at stop_time; the workloads' Collect;
 * ExperimentResultMerge totals (and in a distributed run merges) the results; the
 * monitors' Collect; then on the writing rank ExperimentOutputWriter writes config.json,
 * flows.csv, trace.csv and pfc.csv, the monitors then the workloads Write, and
 * summary.json (the runner's keys, then the monitors', then the workloads') and the
 * README, which lists every file the run wrote with its columns (doc/dc-experiment.md
 * describes each file). Files depend only on the configuration (fixed number
 * formats, no wall-clock times), so a configuration and seed always give
 * byte-identical outputs.
 *
 * The configuration must outlive the runner. Simulator::Destroy() is left to
 * the caller, after the runner's results have been read.
 */
class ExperimentRunner
{
  public:
    ExperimentRunner(const ExperimentConfig& config, const std::string& outputDirectory);
    ~ExperimentRunner();

    /**
     * Simulate only this rank's part of a distributed run (see doc/mpi.md): the
     * network is split by FabricPartitioner, every rank builds all of it but
     * starts only the flows whose requester it owns, and the results are merged
     * over the ranks before rank 0 writes the output files (the monitors,
     * queues.csv and rates.csv, are written per rank as queues-rank<R>.csv, ...).
     * Without it, or with one rank, the run is sequential. Call before Run; \p
     * partition must outlive the runner.
     */
    void SetPartition(const ExperimentPartition* partition);

    /**
     * A caller that reports progress itself (roce-run's RunProgress: one updating
     * line on a terminal, periodic lines in logs) turns off the runner's own
     * ShowProgress lines, so that each run prints one progress report.
     */
    void SetExternalProgress(bool external);

    /**
     * With \p lifetimes (the default) a flow's QP pair exists from its start to its
     * completion (FlowQueuePairs); without, every pair is created at set-up and kept to
     * the end, for callers that read QPs through the NICs during or after the run. The
     * outputs are the same either way. Call before Run.
     */
    void SetQueuePairLifetimes(bool lifetimes);

    /**
     * Add \p composer after the runner's own (it composes after them). The caller keeps
     * it; it must outlive Run. Call before Run.
     */
    void AddComposer(ExperimentComposer* composer);
    /**
     * Add \p workload after the runner's own (its files and summary keys come after
     * theirs); the run waits for it to be done. The caller keeps it; it must outlive
     * Run. Call before Run.
     */
    void AddWorkload(ExperimentWorkload* workload);
    /**
     * Add \p monitor after the runner's own (its files and summary keys come after
     * theirs). The caller keeps it; it must outlive Run. Call before Run.
     */
    void AddMonitor(ExperimentMonitor* monitor);

    /** The command line that started the run, for the README (as typed). */
    void SetCommandLine(const std::string& commandLine);

    /**
     * Add a line "<label>: <value>" to the README after the command (e.g. fat-tree-fct's
     * "nic profile").
     */
    void SetReadmeDetail(const std::string& label, const std::string& value);

    /**
     * Build, simulate and write the outputs. Call once.
     * \throw std::runtime_error if the output directory or a file cannot be written
     */
    void Run();

    /**
     * What roce-run --check does instead of Run(): every step before the simulation that
     * writes nothing (every part's CheckConfig, the fabric built, the composers' Compose:
     * node composition and faults, the workloads' SetUp: the flows' queue pairs) and the
     * output directory
     * inspected (OutputDirectory::Inspect); then what a run would do is printed to \p out
     * (ExperimentCheckReport). Call once, instead of Run().
     * \throw ExperimentConfigError, std::runtime_error where Run() would, before simulating
     */
    void Check(std::ostream& out);

    const std::vector<ExperimentFlowResult>& GetFlowResults() const;
    uint32_t GetFinishedFlows() const;
    /**
     * \return flows left stalled (after Run): not completed, and their requester QP can
     * never progress by itself (RdmaQueuePair::IsStalled: work outstanding, no timer).
     */
    uint32_t GetStalledFlows() const;
    /**
     * \return flows whose bytes were not placed exactly once (after Run; summary.json's
     * "exactly_once" "violation_count").
     */
    uint64_t GetExactlyOnceViolations() const;
    /** \return the simulated time at which the run stopped. */
    Time GetEndTime() const;
    /** \return wall-clock seconds spent building the network and flows (not in outputs). */
    double GetSetupWallSeconds() const;
    /** \return wall-clock seconds spent in Simulator::Run (not in outputs). */
    double GetEventLoopWallSeconds() const;
    /** \return events executed (including progress and monitor events). */
    uint64_t GetEventCount() const;
    const TopologyBuilder& GetTopology() const;
    /** \return the per-flow placement digests (after Run). */
    const DeliveryChecker& GetDeliveryChecker() const;

  private:
    /** Run()'s and Check()'s steps from CheckConfig to the workloads' SetUp. */
    void SetUp();
    /** Simulator::Run, timed, with progress lines unless reported elsewhere. */
    void Simulate();
    /** A workload became done: stop a sequential run once every workload is done. */
    void OnWorkloadDone();
    /** \return the workloads of this rank not done yet. */
    int64_t CountPending() const;
    /** Stop every rank once every workload of every rank is done. */
    void CheckGlobalCompletion();

    const ExperimentConfig& m_config;
    TopologyBuilder m_topology;
    /** Files written so far; the writers register theirs as they finish. */
    RunReadmeWriter m_readme;
    ExperimentRunContext m_context;
    ExperimentResultMerge m_merge;
    std::unique_ptr<FlowWorkload> m_flows; //!< the first workload; its results are flows.csv's
    StandardParts m_own;                   //!< the configuration's other parts
    std::vector<ExperimentComposer*> m_composers;
    std::vector<ExperimentWorkload*> m_workloads;
    std::vector<ExperimentMonitor*> m_monitors;
    Time m_endTime;
    uint64_t m_events{0};
    double m_setupWallSeconds{0};
    double m_eventLoopWallSeconds{0};
    bool m_externalProgress{false};
};

} // namespace ns3

#endif /* EXPERIMENT_RUNNER_H */
