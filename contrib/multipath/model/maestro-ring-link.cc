#include "maestro-ring-link.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MaestroRingLink);

TypeId
MaestroRingLink::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MaestroRingLink").SetParent<RingHop>().SetGroupName("Multipath");
    return tid;
}

Ptr<MaestroRingLink>
MaestroRingLink::OverEndpoint(Ptr<MaestroEndpoint> endpoint, bool notifyReceiver)
{
    Ptr<MaestroRingLink> link = CreateObject<MaestroRingLink>();
    link->m_endpoint = endpoint;
    link->m_notifyReceiver = notifyReceiver;
    endpoint->TraceConnectWithoutContext("MessageCompleted",
                                         MakeCallback(&MaestroRingLink::OnMessage, link));
    if (notifyReceiver)
    {
        endpoint->TraceConnectWithoutContext("MessageReceived",
                                             MakeCallback(&MaestroRingLink::OnReceived, link));
    }
    return link;
}

Ptr<MaestroRingLink>
MaestroRingLink::OverQueuePairNotified(Ptr<RdmaNic> nic,
                                       std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> qps,
                                       Ptr<RdmaNic> peerNic)
{
    Ptr<MaestroRingLink> link = OverQueuePair(nic, qps.first);
    link->m_notifyReceiver = true;
    link->m_peerQp = qps.second;
    peerNic->TraceConnectWithoutContext("Completion",
                                        MakeCallback(&MaestroRingLink::OnPeerCompletion, link));
    qps.second->PostRecv(RdmaRecvRequest()); // one message at a time: one receive
    return link;
}

Ptr<MaestroRingLink>
MaestroRingLink::OverQueuePair(Ptr<RdmaNic> nic, Ptr<RdmaQueuePair> qp)
{
    Ptr<MaestroRingLink> link = CreateObject<MaestroRingLink>();
    link->m_qp = qp;
    nic->TraceConnectWithoutContext("Completion",
                                    MakeCallback(&MaestroRingLink::OnCompletion, link));
    return link;
}

void
MaestroRingLink::DoDispose()
{
    m_endpoint = nullptr;
    m_qp = nullptr;
    m_peerQp = nullptr;
    RingHop::DoDispose();
}

void
MaestroRingLink::DoSend(uint64_t bytes, uint64_t remoteAddr)
{
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Write;
    wr.length = bytes;
    wr.remoteAddr = remoteAddr;
    if (m_endpoint)
    {
        wr.verb = m_notifyReceiver ? RdmaVerb::Send : RdmaVerb::Write;
        m_messageId = m_endpoint->PostSend(wr);
    }
    else if (m_notifyReceiver)
    {
        wr.hasImm = true;
        m_qp->PostSend(wr);
    }
    else
    {
        m_qp->PostSend(wr);
    }
}

uint64_t
MaestroRingLink::GetNFailed() const
{
    return m_failed;
}

Ptr<MaestroEndpoint>
MaestroRingLink::GetEndpoint() const
{
    return m_endpoint;
}

void
MaestroRingLink::OnMessage(const MaestroMessageCompletion& c)
{
    // receiver-notified: the sender's completion only matters if it failed
    if (!m_notifyReceiver ||
        (c.status != RdmaWcStatus::Success && IsBusy() && c.messageId == m_messageId))
    {
        Finish(c.status == RdmaWcStatus::Success);
    }
}

void
MaestroRingLink::OnReceived(uint32_t messageId)
{
    if (IsBusy() && messageId == static_cast<uint32_t>(m_messageId))
    {
        Finish(true);
    }
}

void
MaestroRingLink::OnCompletion(const RdmaCompletion& c)
{
    if (!c.receive && m_qp && c.qpn == m_qp->GetQpn() &&
        (!m_notifyReceiver || (c.status != RdmaWcStatus::Success && IsBusy())))
    {
        Finish(c.status == RdmaWcStatus::Success);
    }
}

void
MaestroRingLink::OnPeerCompletion(const RdmaCompletion& c)
{
    if (c.receive && m_peerQp && c.qpn == m_peerQp->GetQpn())
    {
        m_peerQp->PostRecv(RdmaRecvRequest()); // ready for the next message
        if (IsBusy())
        {
            Finish(c.status == RdmaWcStatus::Success);
        }
    }
}

void
MaestroRingLink::Finish(bool success)
{
    m_failed += success ? 0 : 1;
    NotifyDone();
}

} // namespace ns3
