/*
 * The null congestion-control algorithm: queue pairs send at line rate.
 */
#include "rdma-no-congestion-control.h"

#include <limits>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaNoCongestionControl);

TypeId
RdmaNoCongestionControl::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaNoCongestionControl")
                            .SetParent<RdmaCongestionOps>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RdmaNoCongestionControl>();
    return tid;
}

RdmaNoCongestionControl::RdmaNoCongestionControl() = default;

RdmaNoCongestionControl::~RdmaNoCongestionControl() = default;

std::string
RdmaNoCongestionControl::GetName() const
{
    return "NoCongestionControl";
}

Ptr<RdmaCongestionOps>
RdmaNoCongestionControl::Fork() const
{
    return CopyObject<RdmaNoCongestionControl>(this);
}

void
RdmaNoCongestionControl::Init(RdmaCcState* state)
{
    NS_ASSERT_MSG(state != nullptr, "RdmaNoCongestionControl::Init needs a state");
    state->m_rate = state->m_lineRate;
    state->m_targetRate = state->m_lineRate;
    state->m_window = std::numeric_limits<uint64_t>::max();
}

void
RdmaNoCongestionControl::OnCnp()
{
}

void
RdmaNoCongestionControl::OnDataSent(uint32_t bytes)
{
}

void
RdmaNoCongestionControl::OnAck(const RdmaAckSample& /*ack*/)
{
}

bool
RdmaNoCongestionControl::OnDataReceived(bool ceMarked)
{
    return false;
}

} // namespace ns3
