/*
 * The "flows" (and "flow_sets", "trace") of an experiment as traffic: each flow's QP
 * pair, its work requests from its start to its completion, and its result.
 */
#ifndef FLOW_WORKLOAD_H
#define FLOW_WORKLOAD_H

#include "experiment-workload.h"

#include "ns3/closed-loop-window.h"
#include "ns3/rdma-queue-pair.h"

#include <memory>
#include <vector>

namespace ns3
{

class DeliveryChecker;
class ExperimentResultMerge;
class FlowQueuePairs;

/**
 * \ingroup dc-experiment
 * Drives the configuration's flows (ExperimentConfig::GetFlows). Each flow gets its own
 * connected QP pair (FlowQueuePairs: created at its start time and released after its
 * completion); its work request is posted at its start time and its finish time is the
 * requester's completion. A message stream (ExperimentFlow::IsStream) posts its first
 * `outstanding` messages at its start time and a new one at each successful completion
 * (a ClosedLoopWindow),
 * and finishes at the completion of its last message (for SEND the responder keeps
 * `outstanding` receives posted, reposting one at each receive completion: a second
 * ClosedLoopWindow).
 *
 * SetUp reserves every flow's QP numbers in flow order (before any other workload's
 * QPs), computes each flow's ideal FCT, hands the pairs and results to the run context
 * and schedules the starts: in a distributed run only on the rank that owns the
 * requester, and IsDone is then this rank's part. Collect takes each flow's
 * retransmissions, placement counts and stalled state into its result; Merge totals
 * them over the ranks. The flows' files (flows.csv, trace.csv, summary.json's flow
 * keys) are ExperimentOutputWriter's.
 */
class FlowWorkload : public ExperimentWorkload
{
  public:
    FlowWorkload(const ExperimentConfig& config, TopologyBuilder& topology);
    ~FlowWorkload() override;

    /** See ExperimentRunner::SetQueuePairLifetimes (default true). Call before SetUp. */
    void SetQueuePairLifetimes(bool lifetimes);

    void SetUp(ExperimentRunContext& context) override;
    /** \return true when every flow this rank starts has completed. */
    bool IsDone() const override;
    void Collect(ExperimentRunContext& context) override;

    /** Total the results over the ranks (every rank calls it after Collect). */
    void Merge(ExperimentResultMerge& merge, Time& endTime);
    const std::vector<ExperimentFlowResult>& GetResults() const;
    /** \return the flows that completed successfully. */
    uint32_t GetFinished() const;
    /** \return the flows left stalled (ExperimentFlowResult::stalled; after Collect). */
    uint32_t GetStalled() const;
    /** \return the flows whose bytes were not placed exactly once (after Merge). */
    uint64_t GetExactlyOnceViolations() const;
    /** \return the per-flow placement digests. */
    const DeliveryChecker& GetDeliveryChecker() const;

  private:
    struct FlowState
    {
        ClosedLoopWindow messages; //!< the flow's messages: `outstanding` in flight
        ClosedLoopWindow receives; //!< SEND: the responder's receives, `outstanding` posted
    };

    void StartFlow(uint32_t id);
    /** Create the flow's QP pair if it does not exist (SEND: and post its receives). */
    void OpenFlow(uint32_t id);
    /** Post the flow's message \p k (its only one, 0, unless the flow is a message stream). */
    void PostMessage(uint32_t id, uint64_t k);
    /** SEND: post the responder's first `outstanding` receives (its receive window). */
    void StartReceives(uint32_t id);
    /** SEND: post the responder's receive for the flow's message \p k. */
    void PostReceive(uint32_t id, uint64_t k);
    /** A completion at host \p host's NIC (the workload's only if on a flow's QP). */
    void OnCompletion(uint32_t host, const RdmaCompletion& completion);

    const ExperimentConfig& m_config;
    TopologyBuilder& m_topology;
    bool m_lifetimes{true};
    std::vector<FlowState> m_state;
    std::unique_ptr<FlowQueuePairs> m_qps;       //!< each flow's QP pair, start to completion
    std::unique_ptr<DeliveryChecker> m_delivery; //!< delivered bytes, exactly-once
    std::vector<ExperimentFlowResult> m_results;
    uint32_t m_started{0}; //!< flows this rank starts
    uint32_t m_completed{0};
    uint32_t m_finished{0};
    Time m_lastCompletion;
};

} // namespace ns3

#endif /* FLOW_WORKLOAD_H */
