#include "movable-timer.h"

#include "ns3/simulator.h"

namespace ns3
{

MovableTimer::~MovableTimer()
{
    m_event.Cancel();
}

void
MovableTimer::SetFunction(Callback<void> fn)
{
    m_fn = fn;
}

void
MovableTimer::Schedule(Time delay)
{
    const Time now = Simulator::Now();
    m_deadline = now + delay;
    m_armed = true;
    if (m_event.IsRunning())
    {
        if (m_eventTime <= m_deadline)
        {
            return; // the pending event fires first and moves itself to the deadline
        }
        m_event.Cancel();
    }
    m_eventTime = m_deadline;
    m_event = Simulator::Schedule(delay, &MovableTimer::Expire, this);
}

void
MovableTimer::Cancel()
{
    m_armed = false;
}

void
MovableTimer::Stop()
{
    m_armed = false;
    m_event.Cancel();
}

bool
MovableTimer::IsRunning() const
{
    return m_armed;
}

Time
MovableTimer::GetDelayLeft() const
{
    return m_armed ? m_deadline - Simulator::Now() : Time(0);
}

void
MovableTimer::Expire()
{
    if (!m_armed)
    {
        return;
    }
    const Time now = Simulator::Now();
    if (now < m_deadline)
    {
        m_eventTime = m_deadline;
        m_event = Simulator::Schedule(m_deadline - now, &MovableTimer::Expire, this);
        return;
    }
    m_armed = false;
    m_fn();
}

} // namespace ns3
