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
        TypeId("ns3::MaestroRingLink").SetParent<Object>().SetGroupName("Multipath");
    return tid;
}

Ptr<MaestroRingLink>
MaestroRingLink::OverEndpoint(Ptr<MaestroEndpoint> endpoint)
{
    Ptr<MaestroRingLink> link = CreateObject<MaestroRingLink>();
    link->m_endpoint = endpoint;
    endpoint->TraceConnectWithoutContext("MessageCompleted",
                                         MakeCallback(&MaestroRingLink::OnMessage, link));
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
    m_done = Callback<void, Time>();
    Object::DoDispose();
}

void
MaestroRingLink::SetDoneCallback(Callback<void, Time> done)
{
    m_done = done;
}

void
MaestroRingLink::Send(uint64_t bytes, uint64_t remoteAddr)
{
    NS_ABORT_MSG_IF(m_busy, "MaestroRingLink::Send: a message is already in flight");
    m_busy = true;
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Write;
    wr.length = bytes;
    wr.remoteAddr = remoteAddr;
    if (m_endpoint)
    {
        m_endpoint->PostSend(wr);
    }
    else
    {
        m_qp->PostSend(wr);
    }
}

bool
MaestroRingLink::IsBusy() const
{
    return m_busy;
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
    Finish(c.status == RdmaWcStatus::Success);
}

void
MaestroRingLink::OnCompletion(const RdmaCompletion& c)
{
    if (!c.receive && m_qp && c.qpn == m_qp->GetQpn())
    {
        Finish(c.status == RdmaWcStatus::Success);
    }
}

void
MaestroRingLink::Finish(bool success)
{
    m_failed += success ? 0 : 1;
    m_busy = false;
    if (!m_done.IsNull())
    {
        m_done(Simulator::Now());
    }
}

} // namespace ns3
