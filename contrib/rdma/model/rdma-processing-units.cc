/*
 * Husky's processing units in the receive path. Specification: Husky (Kong et al.,
 * OSDI'23) §3.3, Fig. 4; contrib/host/doc/host.md "Contention sources".
 */
#include "rdma-processing-units.h"

#include "rdma-nic.h"

#include "ns3/callback.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaProcessingUnits);

TypeId
RdmaProcessingUnits::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaProcessingUnits")
                            .SetParent<Object>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaProcessingUnits>();
    return tid;
}

RdmaProcessingUnits::RdmaProcessingUnits() = default;

RdmaProcessingUnits::~RdmaProcessingUnits() = default;

void
RdmaProcessingUnits::DoDispose()
{
    m_lanes.clear();
    m_nic = nullptr;
    m_units = nullptr;
    Object::DoDispose();
}

std::string
RdmaProcessingUnits::Install(Ptr<RdmaNic> nic, Ptr<NicProcessingUnits> units)
{
    if (!nic || !units)
    {
        return "RdmaProcessingUnits: needs a NIC and its processing units";
    }
    if (m_nic)
    {
        return "RdmaProcessingUnits: already installed on a NIC";
    }
    m_nic = nic;
    m_units = units;
    // The NIC holds this object through the gate until it is disposed.
    nic->SetRequestGate(MakeCallback(&RdmaProcessingUnits::Arrive, Ptr<RdmaProcessingUnits>(this)));
    return "";
}

Ptr<NicProcessingUnits>
RdmaProcessingUnits::GetUnits() const
{
    return m_units;
}

uint64_t
RdmaProcessingUnits::GetRequests() const
{
    return m_requests;
}

uint64_t
RdmaProcessingUnits::GetFollowers() const
{
    return m_followers;
}

void
RdmaProcessingUnits::Arrive(const RdmaInboundRequest& request)
{
    NicProcessingUnits::Verb verb = NicProcessingUnits::N_VERBS; // none: a later packet
    switch (request.op)
    {
        case RoceOpcode::ReadRequest:
            verb = NicProcessingUnits::READ;
            break;
        case RoceOpcode::WriteFirst:
        case RoceOpcode::WriteOnly:
        case RoceOpcode::WriteOnlyImm:
            verb = NicProcessingUnits::WRITE;
            break;
        case RoceOpcode::SendFirst:
        case RoceOpcode::SendOnly:
        case RoceOpcode::SendOnlyImm:
            verb = NicProcessingUnits::SEND;
            break;
        default:
            break;
    }
    const uint32_t lane = request.qpn - RdmaNic::FIRST_QPN;
    if (lane >= m_lanes.size())
    {
        m_lanes.resize(lane + 1); // once per new QP
    }
    QpLane& q = m_lanes[lane];
    if (verb == NicProcessingUnits::N_VERBS)
    {
        if (q.held.empty())
        {
            m_nic->DeliverRequest(request);
            return;
        }
        m_followers++;
        q.held.push_back({request, true});
        return;
    }
    const uint64_t seq = q.front + q.held.size();
    q.held.push_back({request, false});
    m_units->Submit(verb, lane,
                    MakeBoundCallback(&RdmaProcessingUnits::Processed, this, lane, seq));
}

void
RdmaProcessingUnits::Processed(RdmaProcessingUnits* self, uint32_t lane, uint64_t seq)
{
    QpLane& q = self->m_lanes[lane];
    q.held[seq - q.front].done = true;
    self->m_requests++;
    self->Release(lane);
}

void
RdmaProcessingUnits::Release(uint32_t lane)
{
    QpLane& q = m_lanes[lane];
    while (!q.held.empty() && q.held.front().done)
    {
        const RdmaInboundRequest request = q.held.front().request;
        q.held.pop_front();
        q.front++;
        m_nic->DeliverRequest(request); // may send a response: the lane is consistent first
    }
}

} // namespace ns3
