#include "qp-scheduler.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(QpScheduler);

TypeId
QpScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::QpScheduler").SetParent<Object>().SetGroupName("Rdma");
    return tid;
}

void
QpScheduler::Attach(RdmaNic* nic)
{
    m_nic = nic;
}

bool
QpScheduler::IsIdle() const
{
    return false;
}

bool
QpScheduler::WqeAlreadyRead(RdmaQueuePair* /* qp */) const
{
    return false;
}

void
QpScheduler::DoDispose()
{
    m_nic = nullptr;
    Object::DoDispose();
}

} // namespace ns3
