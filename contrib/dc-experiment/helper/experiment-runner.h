/*
 * Runs an experiment: builds the network, starts the flows, samples the
 * monitors and writes the output directory.
 */
#ifndef EXPERIMENT_RUNNER_H
#define EXPERIMENT_RUNNER_H

#include "experiment-monitor.h"
#include "experiment-partition.h"
#include "experiment-result-merge.h"
#include "experiment-run-context.h"
#include "run-readme-writer.h"
#include "topology-builder.h"

#include "ns3/event-id.h"
#include "ns3/experiment-config.h"
#include "ns3/ideal-fct-calculator.h"
#include "ns3/nstime.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rdma-work-request.h"

#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class DeliveryChecker;
class FlowQueuePairs;
class CollectiveWorkload;

/**
 * \ingroup dc-experiment
 * Runs one experiment and writes its output directory. The runner is the loop
 * that wires the parts together: it builds the network (TopologyBuilder), drives
 * the flows, and calls its monitors (ExperimentMonitor: the StandardMonitors the
 * configuration asks for, then those added with AddMonitor) at each phase of the
 * run; ExperimentResultMerge totals (and in a distributed run merges) the results
 * and ExperimentOutputWriter writes config.json, flows.csv, trace.csv, pfc.csv,
 * summary.json and the README, which lists every file the run wrote with its
 * columns (doc/dc-experiment.md describes each file).
 *
 * Each flow gets its own connected QP pair (FlowQueuePairs: created at its start
 * time and released after its completion); its work request is posted at its
 * start time and its finish time is the requester's completion. A message stream
 * (ExperimentFlow::IsStream) posts its first `outstanding` messages at its start
 * time and a new one at each successful completion, and finishes at the
 * completion of its last message (for SEND the responder keeps `outstanding`
 * receives posted, reposting one at each receive completion). The run stops
 * when every flow has completed or at stop_time. Files depend only on the
 * configuration (fixed number formats, no wall-clock times), so a configuration
 * and seed always give byte-identical outputs.
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
     * writes nothing (the monitors' CheckConfig, the fabric built, the monitors' Prepare:
     * node composition and faults, the flows' queue pairs) and the output directory
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
    struct FlowState
    {
        uint64_t messagesPosted{0}; //!< work requests posted so far (message streams)
        uint64_t messagesDone{0};   //!< successful completions so far (message streams)
        uint64_t receivesPosted{0}; //!< SEND: receives posted at the responder
    };

    /** Run()'s and Check()'s steps from the monitors' CheckConfig to the flows' set-up. */
    void SetUp();
    void SetUpFlows();
    void StartFlow(uint32_t id);
    /** Create the flow's QP pair if it does not exist (SEND: and post its receives). */
    void OpenFlow(uint32_t id);
    /** Post the flow's next message (its only one unless the flow is a message stream). */
    void PostMessage(uint32_t id);
    /** SEND: post the responder's receive for the flow's next message. */
    void PostReceive(uint32_t id);
    /** A completion at host \p host's NIC (the runner's only if on a flow's QP). */
    void OnCompletion(uint32_t host, const RdmaCompletion& completion);
    /** Simulator::Run, timed, with progress lines unless reported elsewhere. */
    void Simulate();
    /** Stop every rank once all flows of all ranks have completed. */
    void CheckGlobalCompletion();

    const ExperimentConfig& m_config;
    TopologyBuilder m_topology;
    /** Files written so far; the writers register theirs as they finish. */
    RunReadmeWriter m_readme;
    ExperimentRunContext m_context;
    ExperimentResultMerge m_merge;
    std::vector<std::unique_ptr<ExperimentMonitor>> m_ownMonitors; //!< StandardMonitors
    std::vector<ExperimentMonitor*> m_addedMonitors;               //!< AddMonitor
    std::vector<ExperimentMonitor*> m_monitors; //!< both, in the order they are called
    std::unique_ptr<IdealFctCalculator> m_ideal;
    std::vector<FlowState> m_flowState;
    std::unique_ptr<FlowQueuePairs> m_flowQps;   //!< each flow's QP pair, from start to completion
    std::unique_ptr<DeliveryChecker> m_delivery; //!< delivered bytes, exactly-once
    std::vector<ExperimentFlowResult> m_results;
    uint32_t m_completed{0};
    uint32_t m_finished{0};
    Time m_endTime;
    Time m_lastCompletion;
    uint64_t m_events{0};
    double m_setupWallSeconds{0};
    double m_eventLoopWallSeconds{0};
    bool m_externalProgress{false};
    bool m_qpLifetimes{true};                   //!< SetQueuePairLifetimes
    CollectiveWorkload* m_collectives{nullptr}; //!< "collectives" (one of m_ownMonitors)
};

} // namespace ns3

#endif /* EXPERIMENT_RUNNER_H */
