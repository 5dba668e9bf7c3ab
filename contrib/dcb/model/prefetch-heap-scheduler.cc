#include "prefetch-heap-scheduler.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PrefetchHeapScheduler);

namespace
{

/** Heap order: the earliest key on top. */
bool
Later(const Scheduler::Event& a, const Scheduler::Event& b)
{
    return a.key > b.key;
}

} // namespace

TypeId
PrefetchHeapScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PrefetchHeapScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Dcb")
                            .AddConstructor<PrefetchHeapScheduler>();
    return tid;
}

void
PrefetchHeapScheduler::Insert(const Event& ev)
{
    m_heap.push_back(ev);
    std::push_heap(m_heap.begin(), m_heap.end(), Later);
}

bool
PrefetchHeapScheduler::IsEmpty() const
{
    return m_heap.empty();
}

Scheduler::Event
PrefetchHeapScheduler::PeekNext() const
{
    NS_ASSERT(!m_heap.empty());
    return m_heap.front();
}

Scheduler::Event
PrefetchHeapScheduler::RemoveNext()
{
    NS_ASSERT(!m_heap.empty());
    std::pop_heap(m_heap.begin(), m_heap.end(), Later);
    const Event next = m_heap.back();
    m_heap.pop_back();
    if (!m_heap.empty())
    {
        // The event after this one, unless this one schedules an earlier one: its
        // object's first two cache lines (the vtable pointer, the target, the arguments).
        const char* impl = reinterpret_cast<const char*>(m_heap.front().impl);
        __builtin_prefetch(impl);
        __builtin_prefetch(impl + 64);
    }
    return next;
}

void
PrefetchHeapScheduler::Remove(const Event& ev)
{
    auto it = std::find_if(m_heap.begin(), m_heap.end(),
                           [&ev](const Event& e) { return e.key.m_uid == ev.key.m_uid; });
    NS_ABORT_MSG_IF(it == m_heap.end(), "PrefetchHeapScheduler::Remove: event not queued");
    *it = m_heap.back();
    m_heap.pop_back();
    std::make_heap(m_heap.begin(), m_heap.end(), Later);
}

} // namespace ns3
