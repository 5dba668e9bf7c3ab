/*
 * Runs an experiment: builds the network, starts the flows, samples the
 * monitors and writes the output directory.
 */
#ifndef EXPERIMENT_RUNNER_H
#define EXPERIMENT_RUNNER_H

#include "experiment-partition.h"
#include "run-readme-writer.h"
#include "topology-builder.h"

#include "ns3/event-id.h"
#include "ns3/experiment-config.h"
#include "ns3/ideal-fct-calculator.h"
#include "ns3/nstime.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rdma-work-request.h"

#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class HpccOutputWriter;
class PfcSafetyOutputWriter;
class FaultInjector;
class DeliveryChecker;
class PfcEventWriter;
class NodeComposer;
class FlowQueuePairs;
class CollectiveWorkload;

/** \ingroup dc-experiment What happened to one flow. */
struct ExperimentFlowResult
{
    Time start;
    Time finish;           //!< completion time (valid when finished)
    Time idealFct;         //!< see IdealFctCalculator
    bool completed{false}; //!< a completion arrived (successful or not)
    bool finished{false};  //!< completed successfully
    RdmaWcStatus status{RdmaWcStatus::Success};
    uint64_t retransmittedPackets{0}; //!< both QPs of the flow
    uint64_t deliveredBytes{0};       //!< distinct payload bytes placed at the receiver
    uint64_t duplicateBytes{0};       //!< bytes placed again over bytes already placed
    uint64_t outsideBytes{0};         //!< bytes placed outside the flow
    uint64_t firstDuplicateOffset{0}; //!< of the first byte placed twice (0: none)
};

/**
 * \ingroup dc-experiment
 * Runs one experiment and writes its output directory:
 *
 * - config.json: ExperimentConfig::EffectiveJson() plus "non_default_attributes":
 *   every attribute of the run's objects that differs from its TypeId default
 *   (NonDefaultAttributes)
 * - flows.csv: id,src,dst,bytes,start_us,finish_us,fct_us,ideal_fct_us,slowdown,
 *   retransmitted_packets,verb,priority (finish/fct/slowdown empty for flows
 *   that did not finish)
 * - pfc.csv: node,port,class,xoff_sent,xon_sent,xoff_received,paused_us for
 *   every port and class with PFC activity
 * - summary.json: counts, FCT and slowdown statistics, PFC totals, drops
 * - queues.csv (time_us,node,port,class,bytes; switch queues holding data) and
 *   rates.csv (time_us,flow,rate_gbps; flows in progress) when the monitors ask
 * - buffers.csv (time_us,node,object,name,port,index,bytes,watermark_bytes) every
 *   buffer_interval: per switch the SONiC pools (object pool_shared, pool_headroom;
 *   name = pool), PGs (pg_shared, pg_headroom; index = PG), queues (queue; index =
 *   queue) whose watermark is above 0, the chassis OCB and DRAM (ocb, dram), or the
 *   total occupancy (buffer) for other buffer managers; watermarks are cleared
 *   after each sample unless watermark_mode is "persistent" (SONiC's periodic and
 *   persistent watermarks); and buffer_drops.csv (node,reason,packets) at the end
 * - fct.txt and pfc.txt in the HPCC simulator's columns when "outputs": {"hpcc": true}
 *   (HpccOutputWriter)
 * - README: each file above that this run wrote, with its columns (RunReadmeWriter)
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

    const std::vector<ExperimentFlowResult>& GetFlowResults() const;
    uint32_t GetFinishedFlows() const;
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
    void SampleQueues();
    void SampleRates();
    void SampleBuffers();
    /** buffer_drops.csv: node,reason,packets (written with the buffer monitor). */
    void WriteBufferDrops() const;

    void WriteConfig() const;
    void WriteFlows() const;
    /** trace.csv: every flow in FlowTrace's CSV format, for replay. */
    void WriteTrace() const;
    void WritePfc() const;
    void WriteSummary() const;
    /** README: what each file of the output directory is. */
    void WriteReadme() const;
    std::string OutputPath(const std::string& name) const;

    // Distributed runs (SetPartition; experiment-runner-distributed.cc)
    bool IsDistributed() const;
    bool IsLocal(Ptr<Node> node) const;
    /**
     * A monitor file's name, "<stem>.csv"; in a distributed run "<stem>-rank<R>.csv" with
     * this rank's number, or with a literal "<R>" when \p forReadme.
     */
    std::string MonitorFileName(const std::string& stem, bool forReadme) const;
    /** What a README entry of a per-rank monitor file adds (empty unless distributed). */
    std::string PerRankNote() const;
    /** Stop every rank once all flows of all ranks have completed. */
    void CheckGlobalCompletion();
    /** Combine the flow results, PFC counters and drops of all ranks. */
    void MergeResults();
    /** Per node, device and class: xoff sent, xon sent, xoff received, paused ps. */
    std::vector<int64_t> CollectPfcCounters() const;
    /** Buffer-manager drops per reason, then switch drops per reason, over all switches. */
    std::vector<int64_t> CollectDrops() const;

    const ExperimentConfig& m_config;
    std::string m_outputDirectory;
    TopologyBuilder m_topology;
    std::unique_ptr<IdealFctCalculator> m_ideal;
    std::vector<FlowState> m_flowState;
    std::unique_ptr<FlowQueuePairs> m_flowQps; //!< each flow's QP pair, from start to completion
    std::vector<ExperimentFlowResult> m_results;
    uint32_t m_completed{0};
    uint32_t m_finished{0};
    Time m_endTime;
    uint64_t m_events{0};
    double m_setupWallSeconds{0};
    double m_eventLoopWallSeconds{0};
    std::ofstream m_queueFile;
    std::ofstream m_rateFile;
    std::ofstream m_bufferFile;
    const ExperimentPartition* m_partition{nullptr};
    std::vector<int64_t> m_pfcCounters; //!< CollectPfcCounters, merged over the ranks
    std::vector<int64_t> m_drops;       //!< CollectDrops, merged over the ranks
    Time m_lastCompletion;
    bool m_externalProgress{false};
    bool m_qpLifetimes{true};                           //!< SetQueuePairLifetimes
    std::unique_ptr<HpccOutputWriter> m_hpccOutput;     //!< "outputs": {"hpcc": true}
    std::unique_ptr<PfcEventWriter> m_pfcEvents;        //!< "outputs": {"pfc_events": true}
    std::unique_ptr<PfcSafetyOutputWriter> m_pfcSafety; //!< deadlock monitor, PFC watchdog
    std::unique_ptr<FaultInjector> m_faults;            //!< "faults"
    std::unique_ptr<NodeComposer> m_nodes;              //!< "nodes"
    std::unique_ptr<CollectiveWorkload> m_collectives;  //!< "collectives"
    std::unique_ptr<DeliveryChecker> m_delivery;        //!< delivered bytes, exactly-once
    /** Files written so far; the (const) writers register theirs as they finish. */
    mutable RunReadmeWriter m_readme;
};

} // namespace ns3

#endif /* EXPERIMENT_RUNNER_H */
