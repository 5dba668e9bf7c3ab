#include "flow-workload.h"

#include "delivery-checker.h"
#include "experiment-result-merge.h"
#include "flow-queue-pairs.h"

#include "ns3/ideal-fct-calculator.h"
#include "ns3/int-trailer.h"
#include "ns3/roce-bth-header.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

FlowWorkload::FlowWorkload(const ExperimentConfig& config, TopologyBuilder& topology)
    : m_config(config)
    , m_topology(topology)
{
}

FlowWorkload::~FlowWorkload() = default;

void
FlowWorkload::SetQueuePairLifetimes(bool lifetimes)
{
    m_lifetimes = lifetimes;
}

void
FlowWorkload::SetUp(ExperimentRunContext& context)
{
    const auto& flows = m_config.GetFlows();
    const uint32_t headerBytes =
        m_topology.GetNic(0)->GetEncapsulationBytes() + RoceBthHeader().GetSerializedSize();
    const IdealFctCalculator ideal(m_config.GetTopology(), headerBytes);
    m_results.resize(flows.size());
    m_state.resize(flows.size());
    m_delivery = std::make_unique<DeliveryChecker>(m_config, m_topology);
    for (uint32_t hostIndex = 0; hostIndex < m_topology.GetNHosts(); ++hostIndex)
    {
        m_topology.GetNic(hostIndex)->TraceConnectWithoutContext(
            "Completion", MakeCallback(&FlowWorkload::OnCompletion, this).Bind(hostIndex));
    }
    // A distributed run's ranks each see one end of a flow: its pairs live from set-up.
    m_qps = std::make_unique<FlowQueuePairs>(m_config, m_topology,
                                             m_lifetimes && !context.IsDistributed());
    context.SetFlows(m_qps.get(), MakeCallback(&FlowWorkload::OpenFlow, this));
    context.SetResults(&m_results);
    for (const ExperimentFlow& f : flows)
    {
        const bool read = f.verb == RdmaVerb::Read;
        m_qps->Reserve(f);
        if (context.IsLocal(m_topology.GetHost(f.dst)))
        {
            m_delivery->AddFlow(f.id, m_qps->GetPlacingQpn(f.id));
        }
        if (f.verb == RdmaVerb::Send && m_qps->GetRequester(f.id))
        {
            StartReceives(f.id);
        }
        ExperimentFlowResult& r = m_results[f.id];
        r.start = f.start;
        // HPCC's INT trailer rides on SEND/WRITE data (not on READ responses).
        const uint8_t intHops = read ? 0 : m_qps->GetRequesterIntHops(f.id);
        r.idealFct = ideal.GetIdealFct(f.src, f.dst, f.bytes, m_qps->GetDataSenderMtu(f.id),
                                       intHops ? IntTrailer::SizeFor(intHops) : 0);
        // In a distributed run only the rank owning the requester starts the flow.
        if (context.IsLocal(m_topology.GetHost(read ? f.dst : f.src)))
        {
            Simulator::Schedule(f.start, &FlowWorkload::StartFlow, this, f.id);
            ++m_started;
        }
    }
    m_delivery->Connect();
}

bool
FlowWorkload::IsDone() const
{
    return m_completed >= m_started;
}

void
FlowWorkload::Collect(ExperimentRunContext& context)
{
    m_qps->TallyUnopened();
    for (uint32_t id = 0; id < m_results.size(); ++id)
    {
        ExperimentFlowResult& r = m_results[id];
        // A QP on another rank's node is a shadow there: its counters stay zero.
        r.retransmittedPackets = m_qps->GetRetransmittedPackets(id);
        r.reorderedPackets = m_qps->GetReorderedPackets(id, r.maxReorderDistance);
        // A flow that did not complete must still have something pending (a timer, or
        // a packet to send); one that cannot progress by itself is reported as stalled.
        const Ptr<RdmaQueuePair> requester = m_qps->GetRequester(id);
        const ExperimentFlow& f = m_config.GetFlows()[id];
        r.stalled = !r.completed && requester &&
                    context.IsLocal(m_topology.GetHost(f.verb == RdmaVerb::Read ? f.dst : f.src)) &&
                    requester->IsStalled();
        const PlacementDigest& digest = m_delivery->GetDigest(id);
        r.deliveredBytes = digest.GetCoveredBytes();
        r.duplicateBytes = digest.GetDuplicateBytes();
        r.outsideBytes = digest.GetOutsideBytes();
        r.firstDuplicateOffset =
            digest.GetDuplicateBytes() > 0 ? digest.GetFirstDuplicateOffset() : 0;
    }
}

void
FlowWorkload::Merge(ExperimentResultMerge& merge, Time& endTime)
{
    merge.Merge(m_results, m_completed, m_finished, m_lastCompletion, endTime);
}

const std::vector<ExperimentFlowResult>&
FlowWorkload::GetResults() const
{
    return m_results;
}

uint32_t
FlowWorkload::GetFinished() const
{
    return m_finished;
}

uint32_t
FlowWorkload::GetStalled() const
{
    uint32_t stalled = 0;
    for (const ExperimentFlowResult& r : m_results)
    {
        stalled += r.stalled ? 1 : 0;
    }
    return stalled;
}

uint64_t
FlowWorkload::GetExactlyOnceViolations() const
{
    return DeliveryChecker::Summarize(m_config.GetFlows(), m_results, 0)["violation_count"]
        .get<uint64_t>();
}

const DeliveryChecker&
FlowWorkload::GetDeliveryChecker() const
{
    return *m_delivery;
}

void
FlowWorkload::StartFlow(uint32_t id)
{
    const ExperimentFlow& f = m_config.GetFlows()[id];
    OpenFlow(id);
    m_state[id].messages =
        ClosedLoopWindow(f.outstanding, f.GetMessageCount(),
                         MakeCallback(&FlowWorkload::PostMessage, this).Bind(id));
    m_state[id].messages.Start();
}

void
FlowWorkload::OpenFlow(uint32_t id)
{
    const ExperimentFlow& f = m_config.GetFlows()[id];
    if (m_qps->Open(id) && f.verb == RdmaVerb::Send)
    {
        StartReceives(id);
    }
}

void
FlowWorkload::StartReceives(uint32_t id)
{
    const ExperimentFlow& f = m_config.GetFlows()[id];
    m_state[id].receives =
        ClosedLoopWindow(f.outstanding, f.GetMessageCount(),
                         MakeCallback(&FlowWorkload::PostReceive, this).Bind(id));
    m_state[id].receives.Start();
}

void
FlowWorkload::PostMessage(uint32_t id, uint64_t k)
{
    const ExperimentFlow& f = m_config.GetFlows()[id];
    RdmaWorkRequest wr;
    wr.wrId = id; // every message of a flow: its completions are counted per flow
    wr.verb = f.verb;
    wr.length = f.GetMessageBytes(k);
    // Message k of a stream goes to offset k x message_bytes of the flow's buffer, so
    // that a placement address is the flow offset (DeliveryChecker).
    wr.remoteAddr = k * f.messageBytes;
    wr.localAddr = wr.remoteAddr;
    m_qps->GetRequester(id)->PostSend(wr);
}

void
FlowWorkload::PostReceive(uint32_t id, uint64_t k)
{
    const ExperimentFlow& f = m_config.GetFlows()[id];
    RdmaRecvRequest rr;
    rr.wrId = id;
    rr.length = f.GetMessageBytes(k);
    m_qps->GetResponder(id)->PostRecv(rr);
}

void
FlowWorkload::OnCompletion(uint32_t host, const RdmaCompletion& completion)
{
    if (completion.wrId >= m_results.size() ||
        !m_qps->IsFlowCompletion(static_cast<uint32_t>(completion.wrId), host, completion))
    {
        return;
    }
    const ExperimentFlow& f = m_config.GetFlows()[completion.wrId];
    FlowState& s = m_state[completion.wrId];
    // Receive completions (SEND arrived at dst) are not the flow's end; a stream's
    // responder reposts one so that `outstanding` stay posted.
    if (completion.receive)
    {
        if (completion.status == RdmaWcStatus::Success)
        {
            s.receives.Complete(); // posts the next receive, if any is left
        }
        return;
    }
    ExperimentFlowResult& r = m_results[completion.wrId];
    if (r.completed)
    {
        return;
    }
    if (f.IsStream() && completion.status == RdmaWcStatus::Success && s.messages.Complete())
    {
        return; // Complete posted the next message, if any is left
    }
    r.completed = true;
    r.status = completion.status;
    m_qps->Close(completion.wrId);
    ++m_completed;
    m_lastCompletion = Simulator::Now();
    if (completion.status == RdmaWcStatus::Success)
    {
        r.finished = true;
        r.finish = completion.completionTime;
        ++m_finished;
    }
    if (IsDone())
    {
        NotifyDone();
    }
}

} // namespace ns3
