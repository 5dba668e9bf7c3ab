/*
 * One EventImpl scheduled again and again: a per-frame event without allocation.
 */
#ifndef REUSABLE_EVENT_H
#define REUSABLE_EVENT_H

#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/simulator.h"

namespace ns3
{

/**
 * \ingroup dcb
 * An event that calls \p Method on an object, made once and scheduled any number
 * of times: each Schedule puts the same EventImpl in the event queue once more
 * (the queue holds a reference per entry), so a per-frame event such as the end of
 * a serialization allocates and frees no event object. The method takes no
 * arguments: what it needs is the object's own state.
 *
 * Why not Simulator::Schedule(delay, &T::Method, obj): that allocates an EventImpl
 * per call, a malloc and a free per frame per hop.
 *
 * Never Cancel it (that would cancel every pending scheduling); the owner keeps it
 * while it may be pending, and \p obj must outlive its pending schedulings, as with
 * a raw object pointer in Simulator::Schedule.
 */
template <typename T, void (T::*Method)()>
class ReusableEvent : public EventImpl
{
  public:
    explicit ReusableEvent(T* obj)
        : m_obj(obj)
    {
    }

    /** Run the method \p delay from now, in the current context. */
    void Schedule(const Time& delay) { Simulator::Schedule(delay, Ptr<EventImpl>(this)); }

  protected:
    void Notify() override { (m_obj->*Method)(); }

  private:
    T* m_obj;
};

} // namespace ns3

#endif /* REUSABLE_EVENT_H */
