#include "goal-rdma-transport.h"

#include "ns3/abort.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-qp-counters.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(GoalRdmaTransport);

TypeId
GoalRdmaTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GoalRdmaTransport")
            .SetParent<GoalTransport>()
            .SetGroupName("DcExperiment")
            .AddConstructor<GoalRdmaTransport>()
            .AddAttribute("MaxWriteBytes",
                          "Largest RDMA WRITE a message is posted as; a larger message goes as "
                          "several. Default 1 GiB: a message may span at most 2^23 packets "
                          "(half the 24-bit PSN space, IBTA), which 1 GiB stays below for any "
                          "path MTU from 256 B.",
                          UintegerValue(uint64_t{1} << 30),
                          MakeUintegerAccessor(&GoalRdmaTransport::m_maxWriteBytes),
                          MakeUintegerChecker<uint64_t>(1));
    return tid;
}

GoalRdmaTransport::GoalRdmaTransport()
    : m_maxWriteBytes(uint64_t{1} << 30)
{
}

void
GoalRdmaTransport::Setup(std::vector<Ptr<RdmaNic>> nics)
{
    NS_ABORT_MSG_IF(!m_nics.empty(), "GoalRdmaTransport::Setup called twice");
    m_nics = std::move(nics);
    m_outgoing.assign(m_nics.size(), {});
    m_connectionOfQpn.assign(m_nics.size(), {});
    for (uint32_t h = 0; h < m_nics.size(); ++h)
    {
        m_nics[h]->TraceConnectWithoutContext(
            "Completion", MakeBoundCallback(&GoalRdmaTransport::CompletionAt, this, h));
        m_nics[h]->TraceConnectWithoutContext(
            "MessageReceived", MakeBoundCallback(&GoalRdmaTransport::MessageReceivedAt, this, h));
    }
}

void
GoalRdmaTransport::DoDispose()
{
    for (uint32_t h = 0; h < m_nics.size(); ++h)
    {
        m_nics[h]->TraceDisconnectWithoutContext(
            "Completion", MakeBoundCallback(&GoalRdmaTransport::CompletionAt, this, h));
        m_nics[h]->TraceDisconnectWithoutContext(
            "MessageReceived", MakeBoundCallback(&GoalRdmaTransport::MessageReceivedAt, this, h));
    }
    m_nics.clear();
    m_connections.clear();
    GoalTransport::DoDispose();
}

uint32_t
GoalRdmaTransport::GetNConnections() const
{
    return static_cast<uint32_t>(m_connections.size());
}

uint64_t
GoalRdmaTransport::GetNFailed() const
{
    return m_failed;
}

uint64_t
GoalRdmaTransport::GetRetransmittedPackets() const
{
    uint64_t n = 0;
    for (const Connection& c : m_connections)
    {
        n += c.requester->GetCounters().retransmittedPackets +
             c.responder->GetCounters().retransmittedPackets;
    }
    return n;
}

uint64_t
GoalRdmaTransport::GetTimeouts() const
{
    uint64_t n = 0;
    for (const Connection& c : m_connections)
    {
        n += c.requester->GetCounters().timeouts + c.responder->GetCounters().timeouts;
    }
    return n;
}

void
GoalRdmaTransport::Register(uint32_t host, uint32_t qpn, uint32_t connection)
{
    NS_ABORT_MSG_IF(qpn < RdmaNic::FIRST_QPN, "QP number below the first one");
    std::vector<uint32_t>& table = m_connectionOfQpn[host];
    const uint32_t slot = qpn - RdmaNic::FIRST_QPN;
    if (slot >= table.size())
    {
        table.resize(slot + 1, UINT32_MAX);
    }
    table[slot] = connection;
}

uint32_t
GoalRdmaTransport::Lookup(uint32_t host, uint32_t qpn) const
{
    const std::vector<uint32_t>& table = m_connectionOfQpn[host];
    const uint32_t slot = qpn - RdmaNic::FIRST_QPN; // wraps to a large value below FIRST_QPN
    return slot < table.size() ? table[slot] : UINT32_MAX;
}

uint32_t
GoalRdmaTransport::ConnectionOf(uint32_t src, uint32_t dst)
{
    std::vector<std::pair<uint32_t, uint32_t>>& out = m_outgoing[src];
    auto it = std::lower_bound(out.begin(), out.end(), std::make_pair(dst, uint32_t{0}));
    if (it != out.end() && it->first == dst)
    {
        return it->second;
    }
    const auto id = static_cast<uint32_t>(m_connections.size());
    const auto [requester, responder] = RdmaHelper::Connect(m_nics[src], m_nics[dst]);
    Connection c;
    c.src = src;
    c.dst = dst;
    c.requester = requester;
    c.responder = responder;
    m_connections.push_back(std::move(c));
    Register(src, requester->GetQpn(), id);
    Register(dst, responder->GetQpn(), id);
    out.insert(it, std::make_pair(dst, id));
    return id;
}

void
GoalRdmaTransport::DoPost(const GoalMessage& message)
{
    NS_ABORT_MSG_IF(message.srcHost >= m_nics.size() || message.dstHost >= m_nics.size(),
                    "GoalRdmaTransport: host " << std::max(message.srcHost, message.dstHost)
                                               << " has no NIC (" << m_nics.size() << ")");
    Connection& c = m_connections[ConnectionOf(message.srcHost, message.dstHost)];
    uint64_t left = message.bytes;
    do
    {
        RdmaWorkRequest wr;
        wr.wrId = message.id;
        wr.verb = RdmaVerb::Write;
        wr.length = std::min(left, m_maxWriteBytes);
        left -= wr.length;
        c.writes.push_back(Write{message.id, left == 0});
        c.requester->PostSend(wr);
    } while (left > 0);
}

void
GoalRdmaTransport::Compact(Connection& c)
{
    if (c.completedHead == c.writes.size() && c.arrivedHead == c.writes.size())
    {
        c.writes.clear();
        c.completedHead = 0;
        c.arrivedHead = 0;
    }
}

void
GoalRdmaTransport::CompletionAt(GoalRdmaTransport* self, uint32_t host, const RdmaCompletion& wc)
{
    if (wc.receive)
    {
        return;
    }
    const uint32_t id = self->Lookup(host, wc.qpn);
    if (id == UINT32_MAX || self->m_connections[id].src != host)
    {
        return; // another QP of this NIC
    }
    Connection& c = self->m_connections[id];
    NS_ABORT_MSG_IF(c.completedHead >= c.writes.size(), "a completion with no WRITE posted");
    const Write w = c.writes[c.completedHead++];
    NS_ABORT_MSG_IF(w.id != wc.wrId, "completions out of post order");
    if (wc.status != RdmaWcStatus::Success)
    {
        ++self->m_failed;
    }
    else if (w.last)
    {
        self->NotifySent(w.id);
    }
    Compact(c);
}

void
GoalRdmaTransport::MessageReceivedAt(GoalRdmaTransport* self, uint32_t host, uint32_t qpn,
                                     uint64_t /* bytes */)
{
    const uint32_t id = self->Lookup(host, qpn);
    if (id == UINT32_MAX || self->m_connections[id].dst != host)
    {
        return;
    }
    Connection& c = self->m_connections[id];
    NS_ABORT_MSG_IF(c.arrivedHead >= c.writes.size(), "a message received with no WRITE posted");
    const Write w = c.writes[c.arrivedHead++];
    if (w.last)
    {
        self->NotifyArrived(w.id);
    }
    Compact(c);
}

} // namespace ns3
