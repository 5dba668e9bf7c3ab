#include "goal-transport.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(GoalTransport);

TypeId
GoalTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GoalTransport").SetParent<Object>().SetGroupName("DcExperiment");
    return tid;
}

void
GoalTransport::SetNotifications(Callback<void, uint32_t> sent, Callback<void, uint32_t> arrived)
{
    m_sent = sent;
    m_arrived = arrived;
}

void
GoalTransport::Post(const GoalMessage& message)
{
    DoPost(message);
}

void
GoalTransport::DoDispose()
{
    m_sent = MakeNullCallback<void, uint32_t>();
    m_arrived = MakeNullCallback<void, uint32_t>();
    Object::DoDispose();
}

void
GoalTransport::NotifySent(uint32_t id)
{
    m_sent(id);
}

void
GoalTransport::NotifyArrived(uint32_t id)
{
    m_arrived(id);
}

} // namespace ns3
