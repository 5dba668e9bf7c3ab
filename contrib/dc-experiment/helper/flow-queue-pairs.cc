#include "flow-queue-pairs.h"

#include "ns3/rdma-helper.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

namespace
{

/**
 * Retries of a release that found the pair busy (in the scheduler, a firmware CNP
 * waiting, a packet of it in the NIC's receive pipeline): at once, then after 1, 2, 4 ... us,
 * at most RELEASE_RETRY_MAX apart. Not an output: a release only frees memory.
 */
const Time RELEASE_RETRY_MAX = MilliSeconds(1);

} // namespace

FlowQueuePairs::FlowQueuePairs(const ExperimentConfig& config, TopologyBuilder& topology,
                               bool lifetimes)
    : m_config(config)
    , m_topology(topology)
    , m_lifetimes(lifetimes)
    , m_slots(config.GetFlows().size())
    , m_requesters(config.GetFlows().size())
    , m_responders(config.GetFlows().size())
    , m_mtu(topology.GetNHosts(), 0)
    , m_intHops(topology.GetNHosts(), -1)
{
}

Ptr<RdmaNic>
FlowQueuePairs::RequesterNic(uint32_t id) const
{
    const ExperimentFlow& f = m_config.GetFlows()[id];
    return m_topology.GetNic(f.verb == RdmaVerb::Read ? f.dst : f.src);
}

Ptr<RdmaNic>
FlowQueuePairs::ResponderNic(uint32_t id) const
{
    const ExperimentFlow& f = m_config.GetFlows()[id];
    return m_topology.GetNic(f.verb == RdmaVerb::Read ? f.src : f.dst);
}

bool
FlowQueuePairs::IsFlowCompletion(uint32_t id, uint32_t host, const RdmaCompletion& completion) const
{
    const ExperimentFlow& f = m_config.GetFlows()[id];
    const bool read = f.verb == RdmaVerb::Read;
    if (completion.receive)
    {
        return host == (read ? f.src : f.dst) && completion.qpn == m_slots[id].responderQpn;
    }
    return host == (read ? f.dst : f.src) && completion.qpn == m_slots[id].requesterQpn;
}

void
FlowQueuePairs::Reserve(const ExperimentFlow& flow)
{
    Slot& slot = m_slots[flow.id];
    // The order of RdmaHelper::Connect: the requester's number, then the responder's.
    slot.requesterQpn = RequesterNic(flow.id)->ReserveQpn();
    slot.responderQpn = ResponderNic(flow.id)->ReserveQpn();
    if (!m_lifetimes)
    {
        Connect(flow.id);
    }
}

void
FlowQueuePairs::Connect(uint32_t id)
{
    const ExperimentFlow& f = m_config.GetFlows()[id];
    Ptr<RdmaNic> requesterNic = RequesterNic(id);
    Ptr<RdmaNic> responderNic = ResponderNic(id);
    const Slot& slot = m_slots[id];
    auto [requester, responder] =
        RdmaHelper::Connect(requesterNic, requesterNic->GetAddress(), slot.requesterQpn,
                            responderNic, responderNic->GetAddress(), slot.responderQpn);
    const UintegerValue dscp(f.priority * 8u + 2u);
    requester->SetAttribute("Dscp", dscp);
    responder->SetAttribute("Dscp", dscp);
    m_requesters[id] = requester;
    m_responders[id] = responder;
    ++m_open;
}

bool
FlowQueuePairs::Open(uint32_t id)
{
    if (m_requesters[id] || m_slots[id].released)
    {
        return false;
    }
    Connect(id);
    return true;
}

void
FlowQueuePairs::Close(uint32_t id)
{
    Slot& slot = m_slots[id];
    if (!m_lifetimes || slot.closed)
    {
        return;
    }
    slot.closed = true;
    // Not now: the completion is reported from inside the requester.
    Simulator::ScheduleNow(&FlowQueuePairs::TryRelease, this, id);
}

void
FlowQueuePairs::TryRelease(uint32_t id)
{
    Slot& slot = m_slots[id];
    Ptr<RdmaQueuePair> requester = m_requesters[id];
    Ptr<RdmaQueuePair> responder = m_responders[id];
    if (!requester || slot.released)
    {
        return;
    }
    const RdmaQpCounters& rc = requester->GetCounters();
    const RdmaQpCounters& sc = responder->GetCounters();
    const uint64_t troubles = rc.retransmittedPackets + sc.retransmittedPackets + rc.timeouts +
                              sc.timeouts + rc.naksSent + sc.naksSent + rc.naksReceived +
                              sc.naksReceived + rc.duplicatesReceived + sc.duplicatesReceived +
                              rc.outOfOrderDropped + sc.outOfOrderDropped;
    if (troubles > 0 || requester->IsInError() || responder->IsInError())
    {
        return; // a packet of this connection may still be in flight: kept to the end
    }
    Ptr<RdmaNic> requesterNic = RequesterNic(id);
    Ptr<RdmaNic> responderNic = ResponderNic(id);
    // Held by the NIC, this object and the local above, and by nobody else (the receive
    // pipeline holds the QP of a packet it has not delivered yet).
    const uint32_t held = 3;
    if (!requester->IsQuiescent() || !responder->IsQuiescent() ||
        !requesterNic->IsCnpIdle(slot.requesterQpn) ||
        !responderNic->IsCnpIdle(slot.responderQpn) || requester->GetReferenceCount() != held ||
        responder->GetReferenceCount() != held)
    {
        const uint32_t doublings = std::min<uint32_t>(slot.releaseTries, 10);
        const Time delay =
            slot.releaseTries == 0
                ? Time(0)
                : std::min(RELEASE_RETRY_MAX, MicroSeconds(int64_t{1} << (doublings - 1)));
        slot.releaseTries = static_cast<uint8_t>(std::min(slot.releaseTries + 1, 255));
        Simulator::Schedule(delay, &FlowQueuePairs::TryRelease, this, id);
        return;
    }
    slot.retransmitted = rc.retransmittedPackets + sc.retransmittedPackets;
    slot.reordered = rc.reorderedPackets + sc.reorderedPackets;
    slot.maxReorder = std::max(rc.maxReorderDistance, sc.maxReorderDistance);
    slot.released = true;
    for (const Ptr<RdmaQueuePair>& qp : {requester, responder})
    {
        m_releasedAttributes.AddTransient(qp);
        m_releasedAttributes.AddTransient(qp->GetCongestionOps());
        m_releasedAttributes.AddTransient(qp->GetLossRecovery());
    }
    m_requesters[id] = nullptr;
    m_responders[id] = nullptr;
    requester = nullptr;
    responder = nullptr;
    requesterNic->ReleaseQueuePair(slot.requesterQpn);
    responderNic->ReleaseQueuePair(slot.responderQpn);
    --m_open;
}

Ptr<RdmaQueuePair>
FlowQueuePairs::GetRequester(uint32_t id) const
{
    return m_requesters[id];
}

Ptr<RdmaQueuePair>
FlowQueuePairs::GetResponder(uint32_t id) const
{
    return m_responders[id];
}

Ptr<RdmaQueuePair>
FlowQueuePairs::GetDataSender(uint32_t id) const
{
    return m_config.GetFlows()[id].verb == RdmaVerb::Read ? m_responders[id] : m_requesters[id];
}

uint32_t
FlowQueuePairs::GetPlacingQpn(uint32_t id) const
{
    // The data is placed at dst: by the responder (WRITE, SEND), the requester (READ).
    return m_config.GetFlows()[id].verb == RdmaVerb::Read ? m_slots[id].requesterQpn
                                                          : m_slots[id].responderQpn;
}

uint32_t
FlowQueuePairs::GetDataSenderMtu(uint32_t id)
{
    if (Ptr<RdmaQueuePair> sender = GetDataSender(id))
    {
        return sender->GetMtu();
    }
    const uint32_t src = m_config.GetFlows()[id].src;
    if (m_mtu[src] == 0)
    {
        m_mtu[src] = m_topology.GetNic(src)->GetQueuePairMtu();
    }
    return m_mtu[src];
}

uint8_t
FlowQueuePairs::GetRequesterIntHops(uint32_t id)
{
    if (Ptr<RdmaQueuePair> requester = m_requesters[id])
    {
        return requester->GetCongestionOps()->GetIntHops();
    }
    const ExperimentFlow& f = m_config.GetFlows()[id];
    const uint32_t host = f.verb == RdmaVerb::Read ? f.dst : f.src;
    if (m_intHops[host] < 0)
    {
        // Each QP's congestion control is a fork of the NIC's prototype.
        m_intHops[host] = RequesterNic(id)->GetCongestionControl()->GetIntHops();
    }
    return static_cast<uint8_t>(m_intHops[host]);
}

uint64_t
FlowQueuePairs::GetRetransmittedPackets(uint32_t id) const
{
    if (!m_requesters[id])
    {
        return m_slots[id].retransmitted;
    }
    // A QP on another rank's node is a shadow there: its counters stay zero.
    return m_requesters[id]->GetCounters().retransmittedPackets +
           m_responders[id]->GetCounters().retransmittedPackets;
}

uint64_t
FlowQueuePairs::GetReorderedPackets(uint32_t id, uint64_t& maxDistance) const
{
    if (!m_requesters[id])
    {
        maxDistance = m_slots[id].maxReorder;
        return m_slots[id].reordered;
    }
    const RdmaQpCounters& rc = m_requesters[id]->GetCounters();
    const RdmaQpCounters& sc = m_responders[id]->GetCounters();
    maxDistance = std::max(rc.maxReorderDistance, sc.maxReorderDistance);
    return rc.reorderedPackets + sc.reorderedPackets;
}

uint32_t
FlowQueuePairs::GetNOpen() const
{
    return m_open;
}

void
FlowQueuePairs::TallyUnopened()
{
    if (!m_lifetimes)
    {
        return;
    }
    for (uint32_t id = 0; id < m_slots.size(); ++id)
    {
        if (m_requesters[id] || m_slots[id].released)
        {
            continue;
        }
        // The pair a run that connects every flow at set-up would have: tallied, not kept.
        Connect(id);
        for (const Ptr<RdmaQueuePair>& qp : {m_requesters[id], m_responders[id]})
        {
            m_releasedAttributes.AddTransient(qp);
            m_releasedAttributes.AddTransient(qp->GetCongestionOps());
            m_releasedAttributes.AddTransient(qp->GetLossRecovery());
        }
        m_requesters[id] = nullptr;
        m_responders[id] = nullptr;
        RequesterNic(id)->ReleaseQueuePair(m_slots[id].requesterQpn);
        ResponderNic(id)->ReleaseQueuePair(m_slots[id].responderQpn);
        m_slots[id].released = true;
        --m_open;
    }
}

void
FlowQueuePairs::AddAttributes(NonDefaultAttributes& out) const
{
    out.Merge(m_releasedAttributes);
    for (uint32_t id = 0; id < m_requesters.size(); ++id)
    {
        for (const Ptr<RdmaQueuePair>& qp : {m_requesters[id], m_responders[id]})
        {
            if (qp)
            {
                out.Add(qp);
                out.Add(qp->GetCongestionOps());
                out.Add(qp->GetLossRecovery());
            }
        }
    }
}

} // namespace ns3
