/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ring-hop.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RingHop);

TypeId
RingHop::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingHop").SetParent<Object>().SetGroupName("Host");
    return tid;
}

void
RingHop::DoDispose()
{
    m_done = Callback<void, Time>();
    m_doneEvent.Cancel();
    Object::DoDispose();
}

void
RingHop::SetDoneCallback(Callback<void, Time> done)
{
    m_done = done;
}

void
RingHop::Send(uint64_t bytes, uint64_t offset)
{
    NS_ABORT_MSG_IF(m_busy, "RingHop::Send: a message is already in flight");
    m_busy = true;
    m_sending = true;
    DoSend(bytes, offset);
    m_sending = false;
    if (m_doneInSend)
    {
        // Done within DoSend (a work request posted to a QP in the error state completes
        // at once, flushed): report it as its own event, never inside the caller's Send,
        // which may be the done callback of the previous message (the ring's bookkeeping
        // would see the step done twice).
        m_doneInSend = false;
        m_doneEvent = Simulator::ScheduleNow(&RingHop::NotifyDone, this);
    }
}

bool
RingHop::IsBusy() const
{
    return m_busy;
}

void
RingHop::NotifyDone()
{
    if (m_sending)
    {
        m_doneInSend = true;
        return;
    }
    m_busy = false;
    if (!m_done.IsNull())
    {
        m_done(Simulator::Now());
    }
}

} // namespace ns3
