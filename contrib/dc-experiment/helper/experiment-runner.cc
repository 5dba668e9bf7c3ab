#include "experiment-runner.h"

#include "collective-workload.h"
#include "deferred-progress-buffer.h"
#include "delivery-checker.h"
#include "experiment-check-report.h"
#include "experiment-output-writer.h"
#include "flow-queue-pairs.h"
#include "host-dma-flow-workload.h"
#include "output-directory.h"
#include "standard-monitors.h"

#include "ns3/experiment-config-error.h"
#include "ns3/fabric-partitioner.h"
#include "ns3/int-trailer.h"
#include "ns3/object-factory.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-bth-header.h"
#include "ns3/show-progress.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <chrono>
#include <iostream>

namespace ns3
{

namespace
{
/**
 * How often the ranks of a distributed run check whether every flow has
 * completed. It changes when the run stops (and so only wall time), never the
 * results: the end time written is the last completion.
 */
const Time GLOBAL_COMPLETION_CHECK = MicroSeconds(10);
} // namespace

ExperimentRunner::ExperimentRunner(const ExperimentConfig& config,
                                   const std::string& outputDirectory)
    : m_config(config)
    , m_topology(config)
    , m_context(config, m_topology, outputDirectory, m_readme)
    , m_merge(m_context)
{
}

ExperimentRunner::~ExperimentRunner() = default;

void
ExperimentRunner::Run()
{
    const bool distributed = m_context.IsDistributed();
    // A used directory is cleared of the previous run's files (OutputDirectory); ranks of a
    // distributed run write concurrently, so they only check and create it.
    OutputDirectory::Prepare(m_context.GetOutputDirectory(),
                             distributed ? "" : m_config.GetSource(), !distributed);

    const auto wallStart = std::chrono::steady_clock::now();
    SetUp();
    for (ExperimentMonitor* monitor : m_monitors)
    {
        monitor->Install(m_context);
    }

    Simulator::Stop(m_config.GetStopTime());
    if (distributed && m_context.GetPartition()->CanReduceDuringRun())
    {
        Simulator::Schedule(Time(0), &ExperimentRunner::CheckGlobalCompletion, this);
    }
    m_setupWallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    Simulate();
    m_endTime = Simulator::Now();
    m_flowQps->TallyUnopened();

    for (uint32_t id = 0; id < m_results.size(); ++id)
    {
        // A QP on another rank's node is a shadow there: its counters stay zero.
        m_results[id].retransmittedPackets = m_flowQps->GetRetransmittedPackets(id);
        // A flow that did not complete must still have something pending (a timer, or
        // a packet to send); one that cannot progress by itself is reported as stalled.
        const Ptr<RdmaQueuePair> requester = m_flowQps->GetRequester(id);
        const ExperimentFlow& f = m_config.GetFlows()[id];
        m_results[id].stalled =
            !m_results[id].completed && requester &&
            m_context.IsLocal(m_topology.GetHost(f.verb == RdmaVerb::Read ? f.dst : f.src)) &&
            requester->IsStalled();
        const PlacementDigest& digest = m_delivery->GetDigest(id);
        m_results[id].deliveredBytes = digest.GetCoveredBytes();
        m_results[id].duplicateBytes = digest.GetDuplicateBytes();
        m_results[id].outsideBytes = digest.GetOutsideBytes();
        m_results[id].firstDuplicateOffset =
            digest.GetDuplicateBytes() > 0 ? digest.GetFirstDuplicateOffset() : 0;
    }
    m_merge.Merge(m_results, m_completed, m_finished, m_lastCompletion, m_endTime);
    m_context.SetEndTime(m_endTime);
    m_readme.SetRun(m_config.GetSource(), m_config.GetSeed());
    for (ExperimentMonitor* monitor : m_monitors)
    {
        monitor->Collect(m_context); // per-rank files
    }
    if (!m_context.IsWritingRank())
    {
        return; // rank 0 writes the merged outputs
    }
    const ExperimentOutputWriter output(m_context, m_merge);
    output.WriteConfig();
    output.WriteFlows();
    output.WriteTrace();
    output.WritePfc();
    for (ExperimentMonitor* monitor : m_monitors)
    {
        monitor->Write(m_context);
    }
    output.WriteSummary(m_monitors);
    output.WriteReadme();
}

void
ExperimentRunner::Check(std::ostream& out)
{
    const OutputDirectory::Plan plan =
        OutputDirectory::Inspect(m_context.GetOutputDirectory(), m_config.GetSource());
    SetUp();
    ExperimentCheckReport::Print(m_config, m_context.GetOutputDirectory(), plan, out);
}

void
ExperimentRunner::SetUp()
{
    const bool distributed = m_context.IsDistributed();
    ObjectFactory scheduler;
    scheduler.SetTypeId(m_config.GetScheduler());
    Simulator::SetScheduler(scheduler);
    RngSeedManager::SetSeed(m_config.GetSeed());
    RngSeedManager::SetRun(1);
    if (distributed)
    {
        const ExperimentPartition& partition = *m_context.GetPartition();
        std::string error;
        std::vector<uint32_t> systemIds = FabricPartitioner::Partition(
            m_config.GetTopology(), partition.GetNRanks(), partition.GetMode(), error);
        if (systemIds.empty())
        {
            throw ExperimentConfigError(m_config.GetSource(), "/topology", error);
        }
        m_topology.SetSystemIds(std::move(systemIds));
    }
    m_ownMonitors = StandardMonitors::Create(m_config, m_topology);
    // "collectives": a workload in the monitors' slot (its rings are built at Install, after
    // the flows reserved their QP numbers); the run ends when flows and collectives are done.
    auto collectives = std::make_unique<CollectiveWorkload>(m_config, m_topology);
    m_collectives = collectives.get();
    m_collectives->SetOnDone(
        [this]()
        {
            if (m_completed == m_results.size())
            {
                Simulator::Stop();
            }
        });
    m_ownMonitors.push_back(std::move(collectives));
    // "host_dma_flows": streams inside the hosts' models, started once "nodes" attached them.
    m_ownMonitors.push_back(std::make_unique<HostDmaFlowWorkload>(m_config, m_topology));
    m_monitors.clear();
    for (const auto& monitor : m_ownMonitors)
    {
        m_monitors.push_back(monitor.get());
    }
    m_monitors.insert(m_monitors.end(), m_addedMonitors.begin(), m_addedMonitors.end());
    for (ExperimentMonitor* monitor : m_monitors)
    {
        monitor->CheckConfig(m_context);
    }

    m_topology.Build();
    m_topology.AssignStreams(0);
    for (ExperimentMonitor* monitor : m_monitors)
    {
        monitor->Prepare(m_context);
    }
    SetUpFlows();
}

void
ExperimentRunner::Simulate()
{
    DeferredProgressBuffer progressBuffer(std::cerr);
    std::ostream progressStream(&progressBuffer);
    std::unique_ptr<ShowProgress> progress;
    if (m_config.GetProgress() && !m_externalProgress && m_context.IsWritingRank())
    {
        progress = std::make_unique<ShowProgress>(Seconds(2), progressStream);
    }
    const uint64_t eventsBefore = Simulator::GetEventCount();
    const auto loopStart = std::chrono::steady_clock::now();
    Simulator::Run();
    m_eventLoopWallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - loopStart).count();
    m_events = Simulator::GetEventCount() - eventsBefore;
    progress.reset();
}

void
ExperimentRunner::CheckGlobalCompletion()
{
    // Every rank runs this event at the same simulated times (granted time window),
    // so the collective Sum matches up across the ranks.
    std::vector<int64_t> completed{static_cast<int64_t>(m_completed)};
    m_context.GetPartition()->Sum(completed);
    if (static_cast<std::size_t>(completed[0]) >= m_results.size())
    {
        Simulator::Stop();
        return;
    }
    Simulator::Schedule(GLOBAL_COMPLETION_CHECK, &ExperimentRunner::CheckGlobalCompletion, this);
}

const DeliveryChecker&
ExperimentRunner::GetDeliveryChecker() const
{
    return *m_delivery;
}

void
ExperimentRunner::SetPartition(const ExperimentPartition* partition)
{
    m_context.SetPartition(partition);
}

void
ExperimentRunner::AddMonitor(ExperimentMonitor* monitor)
{
    m_addedMonitors.push_back(monitor);
}

void
ExperimentRunner::SetQueuePairLifetimes(bool lifetimes)
{
    m_qpLifetimes = lifetimes;
}

void
ExperimentRunner::SetExternalProgress(bool external)
{
    m_externalProgress = external;
}

void
ExperimentRunner::SetReadmeDetail(const std::string& label, const std::string& value)
{
    m_readme.SetDetail(label, value);
}

void
ExperimentRunner::SetCommandLine(const std::string& commandLine)
{
    m_readme.SetCommandLine(commandLine);
}

void
ExperimentRunner::SetUpFlows()
{
    const auto& flows = m_config.GetFlows();
    const uint32_t headerBytes =
        m_topology.GetNic(0)->GetEncapsulationBytes() + RoceBthHeader().GetSerializedSize();
    m_ideal = std::make_unique<IdealFctCalculator>(m_config.GetTopology(), headerBytes);
    m_results.resize(flows.size());
    m_flowState.resize(flows.size());
    m_delivery = std::make_unique<DeliveryChecker>(m_config, m_topology);
    for (uint32_t hostIndex = 0; hostIndex < m_topology.GetNHosts(); ++hostIndex)
    {
        m_topology.GetNic(hostIndex)->TraceConnectWithoutContext(
            "Completion", MakeCallback(&ExperimentRunner::OnCompletion, this).Bind(hostIndex));
    }
    // A distributed run's ranks each see one end of a flow: its pairs live from set-up.
    m_flowQps = std::make_unique<FlowQueuePairs>(m_config, m_topology,
                                                 m_qpLifetimes && !m_context.IsDistributed());
    m_context.SetFlows(m_flowQps.get(), MakeCallback(&ExperimentRunner::OpenFlow, this));
    m_context.SetResults(&m_results);
    for (const ExperimentFlow& f : flows)
    {
        const bool read = f.verb == RdmaVerb::Read;
        m_flowQps->Reserve(f);
        if (m_context.IsLocal(m_topology.GetHost(f.dst)))
        {
            m_delivery->AddFlow(f.id, m_flowQps->GetPlacingQpn(f.id));
        }
        if (f.verb == RdmaVerb::Send && m_flowQps->GetRequester(f.id))
        {
            for (uint64_t k = 0; k < std::min<uint64_t>(f.outstanding, f.GetMessageCount()); ++k)
            {
                PostReceive(f.id);
            }
        }
        ExperimentFlowResult& r = m_results[f.id];
        r.start = f.start;
        // HPCC's INT trailer rides on SEND/WRITE data (not on READ responses).
        const uint8_t intHops = read ? 0 : m_flowQps->GetRequesterIntHops(f.id);
        r.idealFct = m_ideal->GetIdealFct(f.src, f.dst, f.bytes, m_flowQps->GetDataSenderMtu(f.id),
                                          intHops ? IntTrailer::SizeFor(intHops) : 0);
        // In a distributed run only the rank owning the requester starts the flow.
        if (m_context.IsLocal(m_topology.GetHost(read ? f.dst : f.src)))
        {
            Simulator::Schedule(f.start, &ExperimentRunner::StartFlow, this, f.id);
        }
    }
    m_delivery->Connect();
}

void
ExperimentRunner::StartFlow(uint32_t id)
{
    const ExperimentFlow& f = m_config.GetFlows()[id];
    OpenFlow(id);
    for (uint64_t k = 0; k < std::min<uint64_t>(f.outstanding, f.GetMessageCount()); ++k)
    {
        PostMessage(id);
    }
}

void
ExperimentRunner::OpenFlow(uint32_t id)
{
    const ExperimentFlow& f = m_config.GetFlows()[id];
    if (m_flowQps->Open(id) && f.verb == RdmaVerb::Send)
    {
        for (uint64_t k = 0; k < std::min<uint64_t>(f.outstanding, f.GetMessageCount()); ++k)
        {
            PostReceive(id);
        }
    }
}

void
ExperimentRunner::PostMessage(uint32_t id)
{
    const ExperimentFlow& f = m_config.GetFlows()[id];
    FlowState& s = m_flowState[id];
    RdmaWorkRequest wr;
    wr.wrId = id; // every message of a flow: its completions are counted per flow
    wr.verb = f.verb;
    wr.length = f.GetMessageBytes(s.messagesPosted);
    // Message k of a stream goes to offset k x message_bytes of the flow's buffer, so
    // that a placement address is the flow offset (DeliveryChecker).
    wr.remoteAddr = s.messagesPosted * f.messageBytes;
    wr.localAddr = wr.remoteAddr;
    ++s.messagesPosted;
    m_flowQps->GetRequester(id)->PostSend(wr);
}

void
ExperimentRunner::PostReceive(uint32_t id)
{
    const ExperimentFlow& f = m_config.GetFlows()[id];
    FlowState& s = m_flowState[id];
    RdmaRecvRequest rr;
    rr.wrId = id;
    rr.length = f.GetMessageBytes(s.receivesPosted);
    ++s.receivesPosted;
    m_flowQps->GetResponder(id)->PostRecv(rr);
}

void
ExperimentRunner::OnCompletion(uint32_t host, const RdmaCompletion& completion)
{
    if (completion.wrId >= m_results.size() ||
        !m_flowQps->IsFlowCompletion(static_cast<uint32_t>(completion.wrId), host, completion))
    {
        return;
    }
    const ExperimentFlow& f = m_config.GetFlows()[completion.wrId];
    FlowState& s = m_flowState[completion.wrId];
    // Receive completions (SEND arrived at dst) are not the flow's end; a stream's
    // responder reposts one so that `outstanding` stay posted.
    if (completion.receive)
    {
        if (completion.status == RdmaWcStatus::Success && s.receivesPosted < f.GetMessageCount())
        {
            PostReceive(completion.wrId);
        }
        return;
    }
    ExperimentFlowResult& r = m_results[completion.wrId];
    if (r.completed)
    {
        return;
    }
    if (f.IsStream() && completion.status == RdmaWcStatus::Success &&
        ++s.messagesDone < f.GetMessageCount())
    {
        if (s.messagesPosted < f.GetMessageCount())
        {
            PostMessage(completion.wrId);
        }
        return;
    }
    r.completed = true;
    r.status = completion.status;
    m_flowQps->Close(completion.wrId);
    ++m_completed;
    m_lastCompletion = Simulator::Now();
    if (completion.status == RdmaWcStatus::Success)
    {
        r.finished = true;
        r.finish = completion.completionTime;
        ++m_finished;
    }
    if (m_completed == m_results.size() && !m_context.IsDistributed() && m_collectives->IsDone())
    {
        Simulator::Stop();
    }
}

// ------------------------------------------------------------------ results

const std::vector<ExperimentFlowResult>&
ExperimentRunner::GetFlowResults() const
{
    return m_results;
}

uint32_t
ExperimentRunner::GetFinishedFlows() const
{
    return m_finished;
}

uint32_t
ExperimentRunner::GetStalledFlows() const
{
    uint32_t stalled = 0;
    for (const ExperimentFlowResult& r : m_results)
    {
        stalled += r.stalled ? 1 : 0;
    }
    return stalled;
}

uint64_t
ExperimentRunner::GetExactlyOnceViolations() const
{
    return DeliveryChecker::Summarize(m_config.GetFlows(), m_results, 0)["violation_count"]
        .get<uint64_t>();
}

Time
ExperimentRunner::GetEndTime() const
{
    return m_endTime;
}

double
ExperimentRunner::GetSetupWallSeconds() const
{
    return m_setupWallSeconds;
}

double
ExperimentRunner::GetEventLoopWallSeconds() const
{
    return m_eventLoopWallSeconds;
}

uint64_t
ExperimentRunner::GetEventCount() const
{
    return m_events;
}

const TopologyBuilder&
ExperimentRunner::GetTopology() const
{
    return m_topology;
}

} // namespace ns3
