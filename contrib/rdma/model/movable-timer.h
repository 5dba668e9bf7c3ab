/*
 * A timer whose deadline moves without cancelling and re-creating its event.
 */
#ifndef MOVABLE_TIMER_H
#define MOVABLE_TIMER_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"

namespace ns3
{

/**
 * \ingroup rdma
 * A one-shot timer for deadlines that are pushed later on almost every packet (a
 * queue pair's retransmission timer restarted by each ACK, DCQCN's timers restarted
 * by each CNP).
 *
 * ns3::Timer and EventId::Cancel leave a cancelled event in the scheduler until its
 * expiry time, so restarting a millisecond timer on every ACK fills the event queue
 * with dead events (millions in a 320-host run): memory grows with the ACKs carried
 * and every insert and removal works on a deeper heap. Here one event stays pending
 * per timer: moving the deadline later only records it, and when the pending event
 * fires before the deadline it re-schedules itself to it. Only a deadline moved
 * earlier than the pending event costs a cancel (rare: a shorter timeout).
 *
 * The callback runs at the deadline, as with cancel-and-reschedule; the event that
 * runs it was scheduled earlier, so among events at exactly the same picosecond its
 * insertion order can differ.
 */
class MovableTimer
{
  public:
    MovableTimer() = default;
    ~MovableTimer();
    MovableTimer(const MovableTimer&) = delete;
    MovableTimer& operator=(const MovableTimer&) = delete;

    /** Set what runs at expiry. */
    void SetFunction(Callback<void> fn);
    /** Arm (or re-arm) the timer to expire \p delay from now. */
    void Schedule(Time delay);
    /** Disarm: the callback will not run (the pending event, if any, stays queued). */
    void Cancel();
    /** Disarm and remove the pending event too (teardown). */
    void Stop();
    /** \return true while armed. */
    bool IsRunning() const;
    /** \return the time left until expiry; zero when not armed. */
    Time GetDelayLeft() const;

  private:
    void Expire();

    Callback<void> m_fn;
    EventId m_event;     //!< the one pending event, or expired
    Time m_eventTime{0}; //!< when m_event runs
    Time m_deadline{0};  //!< when the callback must run, while armed
    bool m_armed{false};
};

} // namespace ns3

#endif /* MOVABLE_TIMER_H */
