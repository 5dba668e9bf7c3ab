/*
 * Runs the "collectives" section of an experiment: ring collectives over Maestro
 * endpoints or over one queue pair per ring hop, and writes collectives.csv.
 */
#ifndef COLLECTIVE_WORKLOAD_H
#define COLLECTIVE_WORKLOAD_H

#include "dfabric-rack-set.h"
#include "experiment-workload.h"
#include "maestro-path-sampler.h"
#include "topology-builder.h"

#include "ns3/cxl-reduce-gate.h"
#include "ns3/experiment-config.h"
#include "ns3/maestro-message-stream.h"
#include "ns3/maestro-ring-link.h"
#include "ns3/maestro-token-ring.h"
#include "ns3/ring-allreduce.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The collectives of an experiment (ExperimentConfig::GetCollectives). Each is one
 * RingAllreduce (contrib/host: ring allreduce or allgather, its iterations and compute
 * phase) whose ring hop k goes from host k to host k + 1 over a MaestroRingLink: with
 * "over": "maestro" a MaestroEndpoint (its QP manager opens the virtual paths as QPs on
 * the two hosts' RdmaNics, its load balancer spreads the chunks), with "over": "qps" one
 * connected QP pair whose requester posts each step as one WRITE. Both ride on the
 * hosts' NICs as composed by "nodes" (profile, on-chip memory, host model) and share
 * the fabric with the flows. The QPs are created at set-up, after the flows' QP numbers
 * are reserved, so that a flow's QP numbers (and its ECMP path) are those of the same
 * run without collectives.
 *
 * A "token_ring" is a MaestroTokenRing over receiver-notified ring links (each hop
 * done when the successor learns of the token): one iteration per round. A
 * "message_stream" is a MaestroMessageStream on one endpoint from the first host to
 * the second: one row per message (kind "message") and one iteration, from its start
 * until its last message completed. With "probe", each endpoint probes its paths when
 * it is set up (latency samples for MaestroMinLatency); with "path_interval", a
 * MaestroPathSampler writes each endpoint's per-path throughput to paths.csv.
 *
 * collectives.csv has one row per completed step (kind "step": every worker has sent
 * its segment of that step) and one per iteration (kind "iteration": from the end of
 * the compute phase until every worker has sent and received every step); an
 * iteration that did not finish by the end of the run has an empty end_us. summary.json
 * gets "collectives": per collective, its iterations finished and their times.
 *
 * A collective "over": "dfabric" is the same RingAllreduce in Lockstep steps over
 * DfabricRackHops between the DFabric racks "nodes" composed (DfabricRackSet), with no
 * packets and no QPs; its rows and summary entry are the same, the summary adding
 * "optimal_us" and "normalized".
 *
 * As an ExperimentWorkload it builds the rings at Start (after the flows' SetUp and the
 * monitors' Install), is done when every collective has run all its iterations, and
 * reports its rows (Write) and summary key.
 */
class CollectiveWorkload : public ExperimentWorkload
{
  public:
    CollectiveWorkload(const ExperimentConfig& config, const TopologyBuilder& topology);
    ~CollectiveWorkload();

    /** \return true when the experiment has collectives. */
    bool IsActive() const;

    /** \throw ExperimentConfigError in a distributed run (a ring spans the ranks) */
    void CheckConfig(const ExperimentRunContext& context) override;
    /** Build the rings and schedule each collective's start (the flows are set up). */
    void Start(ExperimentRunContext& context) override;
    /** Write collectives.csv (and paths.csv) and register them (with collectives only). */
    void Write(ExperimentRunContext& context) override;
    /** "collectives": per collective, name, iterations finished, communication times (us). */
    void AddToSummary(const ExperimentRunContext& context,
                      nlohmann::ordered_json& summary) const override;

    /** \return true when every collective has run all its iterations (or there are none). */
    bool IsDone() const override;

    /** \return the communication time of each finished iteration of collective \p c. */
    const std::vector<Time>& GetCommunicationTimes(uint32_t c) const;

    /** Header row of collectives.csv. */
    static constexpr const char* COLUMNS =
        "collective,type,over,ranks,kind,iteration,step,bytes,start_us,end_us,duration_us,"
        "failed_messages";

  private:
    /** One row of collectives.csv. */
    struct Row
    {
        uint32_t collective;
        uint32_t iteration;
        int64_t step; //!< -1: the iteration's row; MESSAGE_ROW: a stream's message
        uint64_t bytes;
        Time start;
        Time end;
        bool finished;
        uint64_t failed; //!< iteration rows: messages completed with an error so far
    };

    static constexpr int64_t MESSAGE_ROW = -2;

    /** A ring of \p e's size, iterations and compute phase over \p hops, not yet started. */
    static Ptr<RingAllreduce> MakeRing(const ExperimentCollective& e,
                                       std::vector<Ptr<RingHop>> hops);
    /** Connect collective \p i's traces to \p ring, schedule its start and keep it. */
    void StartRing(uint32_t i, Ptr<RingAllreduce> ring);
    void OnStep(uint32_t c, uint32_t iteration, uint32_t step, Time sinceStart);
    void OnIteration(uint32_t c, uint32_t iteration, Time communication);
    void OnMessage(uint32_t c, const MaestroMessageCompletion& m);
    void OnStreamDone(uint32_t c);
    uint64_t FailedMessages(uint32_t c) const;
    /** Bytes each rank sent in a step (the segment). */
    uint64_t SegmentBytes(uint32_t c) const;
    /** Bytes of an iteration row: the model, a token ring's token, a stream's bytes so far. */
    uint64_t IterationBytes(uint32_t c) const;
    /** A Maestro endpoint of collective \p c as its entry configures it. */
    Ptr<MaestroEndpoint> MakeEndpoint(const ExperimentCollective& e, Ptr<RdmaNic> from,
                                      Ptr<RdmaNic> to) const;

    const ExperimentConfig& m_config;
    const TopologyBuilder& m_topology;
    std::vector<Ptr<RingAllreduce>> m_collectives;    //!< null for the types below
    std::vector<Ptr<MaestroTokenRing>> m_tokenRings;  //!< "token_ring" (else null)
    std::vector<Ptr<MaestroMessageStream>> m_streams; //!< "message_stream" (else null)
    std::vector<double> m_optimalUs; //!< "over": "dfabric": DFabric Fig. 2's optimal (else 0)
    std::unique_ptr<DfabricRackSet> m_racks; //!< built for the first "over": "dfabric"
    /** "over": "dfabric" rings whose racks have CPUs: their CXL.mem loads gate each hop. */
    std::vector<Ptr<CxlReduceGate>> m_reduceGates;
    std::vector<std::vector<Ptr<MaestroRingLink>>> m_links;
    std::vector<std::vector<Time>> m_times; //!< per collective: finished iterations' times
    MaestroPathSampler m_paths;
    std::vector<Time> m_stepEnd; //!< per collective: end of its last step (or comm start)
    std::vector<Time> m_lastEnd; //!< per collective: end of its last iteration (or its start)
    std::vector<Row> m_rows;
    uint32_t m_done{0};
};

} // namespace ns3

#endif /* COLLECTIVE_WORKLOAD_H */
