#include "maestro-ring-link.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MaestroRingLink);

TypeId
MaestroRingLink::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MaestroRingLink")
            .SetParent<RingHop>()
            .SetGroupName("Multipath")
            .AddAttribute(
                "MaxMessageBytes",
                "Largest work request a link over a single queue pair posts, in bytes: a "
                "larger message goes as consecutive WRITEs of at most this size, as NCCL and "
                "MPI split a transfer above the NIC's max_msg_sz. Default 1 GiB: below "
                "ConnectX's 2 GiB max_msg_sz (ibv_query_port) and, at the smallest MTU of "
                "256 B, 2^22 packets, half the 24-bit PSN space a message may span (IBTA "
                "9.7.1; RdmaRequester refuses more).",
                UintegerValue(uint64_t(1) << 30),
                MakeUintegerAccessor(&MaestroRingLink::m_maxMessageBytes),
                MakeUintegerChecker<uint64_t>(1, uint64_t(1) << 30));
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
    else
    {
        // One queue pair: consecutive WRITEs of at most MaxMessageBytes (a message must
        // fit the PSN window); the last carries the immediate of a receiver-notified link.
        // They complete in order: the message is done at the last one's completion.
        const uint64_t parts =
            std::max<uint64_t>(1, (bytes + m_maxMessageBytes - 1) / m_maxMessageBytes);
        m_partsLeft = parts;
        m_partFailed = false;
        for (uint64_t k = 0; k < parts; ++k)
        {
            RdmaWorkRequest part = wr;
            part.length = std::min(m_maxMessageBytes, bytes - k * m_maxMessageBytes);
            part.remoteAddr = remoteAddr + k * m_maxMessageBytes;
            part.localAddr = wr.localAddr + k * m_maxMessageBytes;
            part.hasImm = m_notifyReceiver && k + 1 == parts;
            m_qp->PostSend(part);
        }
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
    if (c.receive || !m_qp || c.qpn != m_qp->GetQpn() || m_partsLeft == 0)
    {
        return;
    }
    m_partFailed = m_partFailed || c.status != RdmaWcStatus::Success;
    if (--m_partsLeft > 0)
    {
        return; // the message's later parts are still on their way
    }
    if (!m_notifyReceiver || (m_partFailed && IsBusy()))
    {
        Finish(!m_partFailed);
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
