/*
 * What the parts of an experiment run (composers, workloads, monitors, output
 * writers, the result merge) share: the configuration, the built network, the output directory and
 * README, the rank of a distributed run and, once the run is over, its results.
 */
#ifndef EXPERIMENT_RUN_CONTEXT_H
#define EXPERIMENT_RUN_CONTEXT_H

#include "experiment-partition.h"
#include "run-readme-writer.h"
#include "topology-builder.h"

#include "ns3/callback.h"
#include "ns3/experiment-config.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/rdma-queue-pair.h"

#include <string>
#include <vector>

namespace ns3
{

class FlowQueuePairs;

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
    uint64_t reorderedPackets{0};     //!< arrived after a packet of higher PSN (responders)
    uint64_t maxReorderDistance{0};   //!< the largest such PSN distance, packets
    uint64_t deliveredBytes{0};       //!< distinct payload bytes placed at the receiver
    uint64_t duplicateBytes{0};       //!< bytes placed again over bytes already placed
    uint64_t outsideBytes{0};         //!< bytes placed outside the flow
    uint64_t firstDuplicateOffset{0}; //!< of the first byte placed twice (0: none)
    /** Not completed, and its requester can never progress by itself (no timer pending). */
    bool stalled{false};
};

/**
 * \ingroup dc-experiment
 * One run's shared state, owned by ExperimentRunner and handed to each experiment
 * part (ExperimentComposer, ExperimentWorkload, ExperimentMonitor). FlowWorkload
 * fills in the flows' QPs and results when it sets them up, the runner the end time
 * after the run (the results merged over the ranks on rank 0 before
 * ExperimentMonitor::Write).
 */
class ExperimentRunContext
{
  public:
    /** The configuration, network and README must outlive the context. */
    ExperimentRunContext(const ExperimentConfig& config, TopologyBuilder& topology,
                         const std::string& outputDirectory, RunReadmeWriter& readme);

    const ExperimentConfig& GetConfig() const;
    TopologyBuilder& GetTopology() const;
    RunReadmeWriter& GetReadme() const;
    const std::string& GetOutputDirectory() const;
    /** \return \p name in the output directory. */
    std::string OutputPath(const std::string& name) const;

    /** See ExperimentRunner::SetPartition (nullptr: sequential). */
    void SetPartition(const ExperimentPartition* partition);
    const ExperimentPartition* GetPartition() const;
    /**
     * In a distributed run, split the network over the ranks (FabricPartitioner) before
     * it is built; nothing in a sequential one.
     * \throw ExperimentConfigError at /topology when it cannot be split
     */
    void AssignSystemIds();
    /** \return true when the run spans more than one rank. */
    bool IsDistributed() const;
    /** \return true when this rank simulates \p node (always in a sequential run). */
    bool IsLocal(Ptr<Node> node) const;
    /** \return true when this rank writes the merged outputs (rank 0, or sequential). */
    bool IsWritingRank() const;
    /**
     * A per-rank monitor file's name, "<stem>.csv"; in a distributed run
     * "<stem>-rank<R>.csv" with this rank's number, or with a literal "<R>" when
     * \p forReadme.
     */
    std::string MonitorFileName(const std::string& stem, bool forReadme) const;
    /** What a README entry of a per-rank monitor file adds (empty unless distributed). */
    std::string PerRankNote() const;

    /**
     * The flows' QP pairs, and FlowWorkload's way to open a flow's pair before its
     * start event (a monitor that samples QPs; a no-op when it is open).
     */
    void SetFlows(FlowQueuePairs* flowQps, Callback<void, uint32_t> openFlow);
    FlowQueuePairs& GetFlowQueuePairs() const;
    /** Create flow \p id's QP pair if it does not exist yet. */
    void OpenFlow(uint32_t id) const;

    /** The flows' results (filled during and after the run). */
    void SetResults(const std::vector<ExperimentFlowResult>* results);
    const std::vector<ExperimentFlowResult>& GetResults() const;
    void SetEndTime(Time end);
    /** \return the simulated time at which the run stopped (after the run). */
    Time GetEndTime() const;

  private:
    const ExperimentConfig& m_config;
    TopologyBuilder& m_topology;
    std::string m_outputDirectory;
    RunReadmeWriter& m_readme;
    const ExperimentPartition* m_partition{nullptr};
    FlowQueuePairs* m_flowQps{nullptr};
    Callback<void, uint32_t> m_openFlow;
    const std::vector<ExperimentFlowResult>* m_results{nullptr};
    Time m_endTime;
};

} // namespace ns3

#endif /* EXPERIMENT_RUN_CONTEXT_H */
