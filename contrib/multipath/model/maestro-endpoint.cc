#include "maestro-endpoint.h"

#include "maestro-proportional.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MaestroEndpoint");
NS_OBJECT_ENSURE_REGISTERED(MaestroEndpoint);

TypeId
MaestroEndpoint::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MaestroEndpoint")
            .SetParent<Object>()
            .SetGroupName("Multipath")
            .AddConstructor<MaestroEndpoint>()
            .AddAttribute("LiveWrsPerQp",
                          "Most chunks live (posted, not completed) on one QP. Default 8: "
                          "Maestro's limit, \"sufficient for pipeline optimization\" "
                          "(SOSR'21 §6.3).",
                          UintegerValue(8), MakeUintegerAccessor(&MaestroEndpoint::m_liveLimit),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("ChunkTimeout",
                          "A path whose oldest live chunk is older than this is declared "
                          "failed and its chunks are posted elsewhere. Default 10 ms: well "
                          "below the RNIC's local ACK timeout (67 ms at perftest's exponent "
                          "14, × 7 retries), so Maestro fails over before the QP gives up.",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&MaestroEndpoint::m_chunkTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("LoadBalancerType",
                          "TypeId of the load balancer. Default proportional to available "
                          "bandwidth, the policy of SOSR'21 §6.2.",
                          StringValue("ns3::MaestroProportional"),
                          MakeStringAccessor(&MaestroEndpoint::m_balancerType), MakeStringChecker())
            .AddAttribute("ProbeSize",
                          "Bytes of a probe WRITE. Default 2 B, Maestro's probe and token "
                          "size (SOSR'21 §4.1, §6.2).",
                          UintegerValue(2), MakeUintegerAccessor(&MaestroEndpoint::m_probeSize),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("ReprobeInterval",
                          "Period of the probes that look for failed paths coming back; 0 "
                          "disables them. Default 1 s: finds a path enabled in the paper's "
                          "30-s steps (SOSR'21 Fig. 12d) within 1/30 of a step.",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&MaestroEndpoint::m_reprobeInterval),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("MessageCompleted",
                            "Every chunk of a message has completed (once per message).",
                            MakeTraceSourceAccessor(&MaestroEndpoint::m_messageCompletedTrace),
                            "ns3::MaestroEndpoint::MessageCompletedCallback")
            .AddTraceSource("MessageReceived",
                            "Receiver side: the immediate of a SEND message's last chunk "
                            "arrived (once per message; argument: the message id mod 2^32).",
                            MakeTraceSourceAccessor(&MaestroEndpoint::m_messageReceivedTrace),
                            "ns3::MaestroEndpoint::MessageReceivedCallback")
            .AddTraceSource("ChunkPosted", "A chunk was posted to a virtual path.",
                            MakeTraceSourceAccessor(&MaestroEndpoint::m_chunkPostedTrace),
                            "ns3::MaestroEndpoint::ChunkPostedCallback");
    return tid;
}

MaestroEndpoint::MaestroEndpoint()
    : m_decomposer(CreateObject<MaestroDecomposer>())
    , m_monitor(CreateObject<MaestroPathMonitor>())
    , m_qpManager(CreateObject<MaestroQpManager>())
    , m_liveLimit(8)
    , m_chunkTimeout(MilliSeconds(10))
    , m_probeSize(2)
    , m_reprobeInterval(Seconds(1))
{
    m_qpManager->SetCompletionSink(MakeCallback(&MaestroEndpoint::OnCompletion, this));
    m_qpManager->SetReceiveSink(MakeCallback(&MaestroEndpoint::OnReceive, this));
    m_qpManager->SetReconnectCallback(MakeCallback(&MaestroEndpoint::OnReconnected, this));
    m_qpManager->SetReadyCallback(MakeCallback(&MaestroEndpoint::OnPathsReady, this));
}

void
MaestroEndpoint::DoDispose()
{
    m_watchdog.Cancel();
    m_reprobeEvent.Cancel();
    m_qpManager->Dispose();
    m_decomposer = nullptr;
    m_monitor = nullptr;
    m_qpManager = nullptr;
    m_balancer = nullptr;
    m_messages.clear();
    m_pending.clear();
    m_slots.clear();
    Object::DoDispose();
}

void
MaestroEndpoint::DoInitialize()
{
    EnsureBalancer();
    Object::DoInitialize();
}

void
MaestroEndpoint::EnsureBalancer()
{
    if (!m_balancer)
    {
        TypeId tid;
        NS_ABORT_MSG_UNLESS(TypeId::LookupByNameFailSafe(m_balancerType, &tid) &&
                                tid.IsChildOf(MaestroLoadBalancer::GetTypeId()),
                            "MaestroEndpoint::LoadBalancerType: \""
                                << m_balancerType
                                << "\" is not a MaestroLoadBalancer (allowed: "
                                   "ns3::MaestroRoundRobin, ns3::MaestroProportional, "
                                   "ns3::MaestroMinLatency)");
        ObjectFactory f(m_balancerType);
        m_balancer = f.Create<MaestroLoadBalancer>();
    }
}

void
MaestroEndpoint::SetLoadBalancer(Ptr<MaestroLoadBalancer> balancer)
{
    m_balancer = balancer;
}

uint32_t
MaestroEndpoint::Connect(Ptr<RdmaNic> local, Ptr<RdmaNic> remote)
{
    return m_qpManager->Connect(local, remote);
}

void
MaestroEndpoint::OnPathsReady(uint32_t n)
{
    for (uint32_t vp = 0; vp < n; ++vp)
    {
        m_monitor->AddPath(m_qpManager->GetLocalNic()->GetLineRate());
    }
    m_probeSlot.assign(n, -1);
    for (uint32_t vp = 0; vp < n; ++vp)
    {
        PostReceives(vp, m_liveLimit);
    }
    if (!m_pending.empty())
    {
        Simulator::ScheduleNow(&MaestroEndpoint::Pump, this); // messages posted while probing
    }
}

void
MaestroEndpoint::OnReconnected(uint32_t vp)
{
    PostReceives(vp, m_liveLimit);
}

void
MaestroEndpoint::PostReceives(uint32_t vp, uint32_t count)
{
    // The peer keeps LiveWrsPerQp receives posted on each of its QPs: at most that
    // many WRITEs with immediate can be live on a path.
    for (uint32_t k = 0; k < count; ++k)
    {
        RdmaRecvRequest rr;
        rr.wrId = vp;
        m_qpManager->GetPath(vp).peer->PostRecv(rr);
    }
}

void
MaestroEndpoint::OnReceive(uint32_t vp, const RdmaCompletion& c)
{
    if (c.status != RdmaWcStatus::Success || !c.hasImm)
    {
        return;
    }
    PostReceives(vp, 1); // replace the consumed receive
    if (c.imm >= m_received.size())
    {
        m_received.resize(static_cast<std::size_t>(c.imm) + 1, false);
    }
    if (m_received[c.imm])
    {
        return; // a reposted last chunk whose first copy arrived as well
    }
    m_received[c.imm] = true;
    ++m_receivedMessages;
    m_messageReceivedTrace(c.imm);
}

uint64_t
MaestroEndpoint::GetNReceivedMessages() const
{
    return m_receivedMessages;
}

uint64_t
MaestroEndpoint::PostSend(const RdmaWorkRequest& wr)
{
    NS_ABORT_MSG_IF(wr.verb == RdmaVerb::Read,
                    "MaestroEndpoint::PostSend: READ is not supported by the multipath model");
    return Submit(wr, false, -1);
}

void
MaestroEndpoint::Probe()
{
    for (uint32_t vp = 0; vp < m_monitor->GetNPaths(); ++vp)
    {
        if (m_monitor->Get(vp).usable)
        {
            RdmaWorkRequest wr;
            wr.verb = RdmaVerb::Write;
            wr.length = m_probeSize;
            Submit(wr, true, vp);
        }
    }
}

uint64_t
MaestroEndpoint::Submit(const RdmaWorkRequest& wr, bool probe, int64_t vp)
{
    NS_ABORT_MSG_IF(!m_qpManager->GetLocalNic(), "MaestroEndpoint: Connect before PostSend");
    EnsureBalancer();
    const uint64_t id = m_nextMessageId++;
    Message& m = m_messages[id];
    m.wr = wr;
    m.chunks = m_decomposer->Decompose(wr, id);
    m.notify = wr.verb == RdmaVerb::Send;
    m.othersLeft = m.chunks.empty() ? 0 : static_cast<uint32_t>(m.chunks.size()) - 1;
    m.probe = probe;
    m.pinnedVp = vp;
    m.copies.assign(m.chunks.size(), 1);
    m_reassembler.Add(id, wr, static_cast<uint32_t>(m.chunks.size()), Simulator::Now());
    if (m.chunks.empty())
    {
        m_reassembler.Complete(id, 0);
        MaestroMessageCompletion c;
        c.wrId = wr.wrId;
        c.messageId = id;
        c.verb = wr.verb;
        c.postTime = c.completionTime = Simulator::Now();
        m_messages.erase(id);
        m_messageCompletedTrace(c);
        return id;
    }
    // A SEND's last chunk (the one with the immediate) waits for the others.
    const uint32_t queued = m.notify ? m.othersLeft : static_cast<uint32_t>(m.chunks.size());
    for (uint32_t k = 0; k < queued; ++k)
    {
        m_pending.emplace_back(id, k);
    }
    if (m.notify && m.othersLeft == 0)
    {
        m_pending.emplace_back(id, m.othersLeft);
    }
    if (m_monitor->GetNUsable() < m_monitor->GetNPaths())
    {
        ScheduleReprobe();
    }
    Pump();
    return id;
}

void
MaestroEndpoint::Pump()
{
    while (!m_pending.empty())
    {
        const auto [messageId, chunkId] = m_pending.front();
        auto it = m_messages.find(messageId);
        if (it == m_messages.end() || m_reassembler.IsChunkDone(messageId, chunkId))
        {
            m_pending.pop_front(); // completed meanwhile by another copy
            if (it != m_messages.end())
            {
                --it->second.copies[chunkId];
            }
            continue;
        }
        Message& m = it->second;
        int64_t vp = m.pinnedVp;
        if (vp >= 0)
        {
            if (!m_monitor->Get(vp).usable)
            {
                m.pinnedVp = -1; // its path failed: any path will do
                vp = m_balancer->SelectPath(*m_monitor, m.chunks[chunkId].length, m.wr.length,
                                            m_liveLimit);
            }
            else if (!MaestroLoadBalancer::Eligible(m_monitor->Get(vp), m_liveLimit))
            {
                vp = -1;
            }
        }
        else
        {
            vp = m_balancer->SelectPath(*m_monitor, m.chunks[chunkId].length, m.wr.length,
                                        m_liveLimit);
        }
        if (vp < 0)
        {
            return; // wait for a completion
        }
        m_pending.pop_front();
        PostChunk(static_cast<uint32_t>(vp), m, chunkId);
    }
}

uint32_t
MaestroEndpoint::AllocateSlot()
{
    uint32_t slot;
    if (m_freeSlots.empty())
    {
        slot = static_cast<uint32_t>(m_slots.size());
        m_slots.emplace_back();
    }
    else
    {
        slot = m_freeSlots.back();
        m_freeSlots.pop_back();
    }
    ++m_liveSlots;
    return slot;
}

void
MaestroEndpoint::PostChunk(uint32_t vp, Message& message, uint32_t chunkId)
{
    const uint32_t slot = AllocateSlot();
    Slot& s = m_slots[slot];
    s.chunk = message.chunks[chunkId];
    s.chunk.vpId = vp;
    s.chunk.postTime = Simulator::Now();
    s.inUse = true;
    s.abandoned = false;
    s.reprobe = false;
    s.wasIdle = m_monitor->Get(vp).liveWrs == 0;
    m_monitor->NotifyPosted(vp, s.chunk.length);
    m_chunkPostedTrace(s.chunk);
    RdmaWorkRequest wr = MaestroDecomposer::ChunkRequest(message.wr, s.chunk, slot, false);
    if (message.notify && chunkId + 1 == message.chunks.size())
    {
        wr.hasImm = true;
        wr.imm = static_cast<uint32_t>(s.chunk.messageId);
    }
    m_qpManager->GetPath(vp).qp->PostSend(wr);
    if (!m_watchdog.IsRunning())
    {
        m_watchdog = Simulator::Schedule(m_chunkTimeout / 4, &MaestroEndpoint::CheckTimeouts, this);
    }
}

void
MaestroEndpoint::Requeue(uint64_t messageId, uint32_t chunkId, bool front)
{
    auto it = m_messages.find(messageId);
    if (it == m_messages.end() || m_reassembler.IsChunkDone(messageId, chunkId))
    {
        return;
    }
    ++it->second.copies[chunkId];
    ++m_reposts;
    m_reassembler.NoteRepost(messageId);
    if (front)
    {
        m_pending.emplace_front(messageId, chunkId);
    }
    else
    {
        m_pending.emplace_back(messageId, chunkId);
    }
}

void
MaestroEndpoint::OnCompletion(uint32_t vp, const RdmaCompletion& c)
{
    if (c.wrId >= m_slots.size() || !m_slots[c.wrId].inUse)
    {
        return;
    }
    Slot& s = m_slots[c.wrId];
    const MaestroWrDescriptor d = s.chunk;
    const bool wasIdle = s.wasIdle;
    s.inUse = false;
    m_freeSlots.push_back(static_cast<uint32_t>(c.wrId));
    --m_liveSlots;
    const bool success = c.status == RdmaWcStatus::Success;
    if (s.reprobe)
    {
        m_probeSlot[vp] = -1;
        if (success && !m_monitor->Get(vp).usable)
        {
            NS_LOG_INFO("virtual path " << vp << " is back");
            ++m_restores;
            m_monitor->Restore(vp, m_qpManager->GetLocalNic()->GetLineRate());
        }
        if (!success)
        {
            ReprobeIfNoPathLeft();
        }
        Pump();
        return;
    }
    m_monitor->NotifyCompleted(vp, d.length, d.postTime, Simulator::Now(), success,
                               m_qpManager->GetPath(vp).qp->GetCounters().cnpsReceived, wasIdle);
    auto it = m_messages.find(d.messageId);
    if (it != m_messages.end())
    {
        --it->second.copies[d.chunkId];
    }
    if (success)
    {
        const MaestroReassembler::Result r = m_reassembler.Complete(d.messageId, d.chunkId);
        if (r == MaestroReassembler::CHUNK_DONE && it != m_messages.end() && it->second.notify &&
            --it->second.othersLeft == 0)
        {
            // every other chunk is placed: the immediate may now tell the peer
            m_pending.emplace_front(d.messageId,
                                    static_cast<uint32_t>(it->second.chunks.size() - 1));
        }
        if (r == MaestroReassembler::MESSAGE_DONE)
        {
            MaestroMessageCompletion mc = m_reassembler.Take(d.messageId, Simulator::Now());
            const bool probe = it->second.probe;
            m_messages.erase(it);
            if (!probe)
            {
                m_messageCompletedTrace(mc);
            }
        }
    }
    else
    {
        NS_LOG_INFO("chunk " << d.messageId << "/" << d.chunkId << " failed on path " << vp);
        m_monitor->MarkFailed(vp);
        ScheduleReprobe();
        if (it != m_messages.end() && it->second.copies[d.chunkId] == 0)
        {
            Requeue(d.messageId, d.chunkId, true);
        }
        ReprobeIfNoPathLeft();
    }
    Pump();
}

void
MaestroEndpoint::CheckTimeouts()
{
    const Time now = Simulator::Now();
    std::vector<bool> timedOut(m_monitor->GetNPaths(), false);
    for (const Slot& s : m_slots)
    {
        if (s.inUse && !s.abandoned && now - s.chunk.postTime >= m_chunkTimeout &&
            m_monitor->Get(s.chunk.vpId).usable)
        {
            timedOut[s.chunk.vpId] = true;
        }
    }
    for (uint32_t vp = 0; vp < timedOut.size(); ++vp)
    {
        if (!timedOut[vp])
        {
            continue;
        }
        m_monitor->NotifyTimeout(vp);
        m_monitor->MarkFailed(vp);
        ScheduleReprobe();
        for (Slot& s : m_slots)
        {
            if (s.inUse && !s.abandoned && s.chunk.vpId == vp)
            {
                s.abandoned = true;
                Requeue(s.chunk.messageId, s.chunk.chunkId, false);
            }
        }
        ReprobeIfNoPathLeft();
    }
    bool anyWatched = false;
    for (const Slot& s : m_slots)
    {
        anyWatched = anyWatched || (s.inUse && !s.abandoned && !s.reprobe);
    }
    if (anyWatched)
    {
        m_watchdog = Simulator::Schedule(m_chunkTimeout / 4, &MaestroEndpoint::CheckTimeouts, this);
    }
    Pump();
}

void
MaestroEndpoint::ScheduleReprobe()
{
    if (m_reprobeInterval.IsStrictlyPositive() && !m_reprobeEvent.IsRunning())
    {
        m_reprobeEvent = Simulator::Schedule(m_reprobeInterval, &MaestroEndpoint::Reprobe, this);
    }
}

void
MaestroEndpoint::ReprobeIfNoPathLeft()
{
    // The last usable path just failed with chunks waiting: they have nowhere to go, and
    // waiting a whole ReprobeInterval (1 s) would hold the message that long. Reprobe at
    // once: each failed path gets a fresh QP over the same links and a probe, as below.
    // The failure may be the old QP's alone (its retries spent on a loss burst or behind
    // a slowed link) and the links fine. A probe that fails again comes back here only
    // after its QP's own retries, so this never spins.
    if (m_reprobeInterval.IsStrictlyPositive() && m_monitor->GetNUsable() == 0 &&
        !m_pending.empty())
    {
        m_reprobeEvent.Cancel();
        m_reprobeEvent = Simulator::ScheduleNow(&MaestroEndpoint::Reprobe, this);
    }
}

void
MaestroEndpoint::Reprobe()
{
    const Time now = Simulator::Now();
    bool anyFailed = false;
    for (uint32_t vp = 0; vp < m_monitor->GetNPaths(); ++vp)
    {
        if (m_monitor->Get(vp).usable)
        {
            continue;
        }
        anyFailed = true;
        const int64_t probe = m_probeSlot[vp];
        if (probe >= 0 && now - m_slots[probe].chunk.postTime < m_reprobeInterval)
        {
            continue; // its probe may still come back
        }
        // The old QP may be stuck retrying: move it to the error state and open a
        // fresh one over the same links; any late completion of the old one is
        // dropped by the QP manager, and its leftover chunks are released below.
        m_qpManager->GetPath(vp).qp->SetError(); // stop it retrying; flushes its WRs
        if (!m_qpManager->Reconnect(vp))
        {
            continue;
        }
        for (uint32_t i = 0; i < m_slots.size(); ++i)
        {
            Slot& s = m_slots[i];
            if (!s.inUse || s.chunk.vpId != vp)
            {
                continue;
            }
            s.inUse = false;
            m_freeSlots.push_back(i);
            --m_liveSlots;
            auto it = m_messages.find(s.chunk.messageId);
            if (s.reprobe || it == m_messages.end())
            {
                continue;
            }
            --it->second.copies[s.chunk.chunkId];
            if (!s.abandoned)
            {
                Requeue(s.chunk.messageId, s.chunk.chunkId, true);
            }
        }
        m_monitor->ForgetLive(vp);
        const uint32_t slot = AllocateSlot();
        Slot& s = m_slots[slot];
        s.chunk = MaestroWrDescriptor();
        s.chunk.vpId = vp;
        s.chunk.length = m_probeSize;
        s.chunk.postTime = now;
        s.inUse = true;
        s.abandoned = false;
        s.reprobe = true;
        s.wasIdle = true;
        m_probeSlot[vp] = slot;
        RdmaWorkRequest wr;
        wr.wrId = slot;
        wr.verb = RdmaVerb::Write;
        wr.length = m_probeSize;
        m_qpManager->GetPath(vp).qp->PostSend(wr);
    }
    if (anyFailed && !m_messages.empty())
    {
        ScheduleReprobe(); // an idle endpoint stops probing until the next message
    }
    Pump();
}

uint64_t
MaestroEndpoint::GetNRestores() const
{
    return m_restores;
}

Ptr<MaestroDecomposer>
MaestroEndpoint::GetDecomposer() const
{
    return m_decomposer;
}

Ptr<MaestroPathMonitor>
MaestroEndpoint::GetPathMonitor() const
{
    return m_monitor;
}

Ptr<MaestroQpManager>
MaestroEndpoint::GetQpManager() const
{
    return m_qpManager;
}

Ptr<MaestroLoadBalancer>
MaestroEndpoint::GetLoadBalancer() const
{
    return m_balancer;
}

std::size_t
MaestroEndpoint::GetNPendingMessages() const
{
    return m_messages.size();
}

uint64_t
MaestroEndpoint::GetNReposts() const
{
    return m_reposts;
}

} // namespace ns3
