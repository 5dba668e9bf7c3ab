// PrefetchHeapScheduler: the same total order of events as ns-3's own schedulers
// (time, then the order they were scheduled), with ties, events scheduled from events,
// cancellations and Simulator::Remove; and the order of its Scheduler interface alone.
#include "ns3/prefetch-heap-scheduler.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace
{

/**
 * A run of randomized events: 2,000 roots at times drawn from a small range (many ties),
 * each scheduling up to two children, some cancelled and some removed. Returns the
 * (time, tag) sequence the events ran in.
 */
class RandomRun
{
  public:
    std::vector<std::pair<int64_t, uint32_t>> Run(const std::string& scheduler)
    {
        ObjectFactory factory;
        factory.SetTypeId(scheduler);
        Simulator::SetScheduler(factory);
        std::mt19937 rng(7);
        m_rng = &rng;
        std::vector<EventId> roots;
        for (uint32_t i = 0; i < 2000; ++i)
        {
            roots.push_back(
                Simulator::Schedule(NanoSeconds(rng() % 500), &RandomRun::Fire, this, i));
        }
        for (uint32_t i = 0; i < 2000; i += 7)
        {
            roots[i].Cancel();
        }
        for (uint32_t i = 3; i < 2000; i += 11)
        {
            Simulator::Remove(roots[i]);
        }
        Simulator::Run();
        Simulator::Destroy();
        return m_log;
    }

  private:
    void Fire(uint32_t tag)
    {
        m_log.emplace_back(Simulator::Now().GetNanoSeconds(), tag);
        if (tag < 100000)
        {
            const uint32_t children = (*m_rng)() % 3;
            for (uint32_t c = 0; c < children; ++c)
            {
                Simulator::Schedule(NanoSeconds((*m_rng)() % 50), &RandomRun::Fire, this,
                                    100000 + static_cast<uint32_t>(m_log.size()) * 3 + c);
            }
        }
    }

    std::mt19937* m_rng{nullptr};
    std::vector<std::pair<int64_t, uint32_t>> m_log;
};

TEST(PrefetchHeapSchedulerTest, SameOrderAsNs3Schedulers)
{
    const auto reference = RandomRun().Run("ns3::MapScheduler");
    ASSERT_GT(reference.size(), 2000u); // children ran too
    EXPECT_EQ(RandomRun().Run("ns3::PriorityQueueScheduler"), reference);
    EXPECT_EQ(RandomRun().Run("ns3::PrefetchHeapScheduler"), reference);
}

TEST(PrefetchHeapSchedulerTest, InterfaceOrdersByTimeThenId)
{
    Ptr<PrefetchHeapScheduler> s = CreateObject<PrefetchHeapScheduler>();
    EXPECT_TRUE(s->IsEmpty());
    const std::vector<std::pair<uint64_t, uint32_t>> keys = {{5, 4}, {3, 2}, {5, 1},
                                                             {9, 3}, {3, 5}, {1, 6}};
    for (const auto& [ts, uid] : keys)
    {
        s->Insert(Scheduler::Event{nullptr, Scheduler::EventKey{ts, uid, 0}});
    }
    s->Remove(Scheduler::Event{nullptr, Scheduler::EventKey{9, 3, 0}});
    const std::vector<std::pair<uint64_t, uint32_t>> expected = {
        {1, 6}, {3, 2}, {3, 5}, {5, 1}, {5, 4}};
    std::vector<std::pair<uint64_t, uint32_t>> got;
    while (!s->IsEmpty())
    {
        const Scheduler::Event e = s->RemoveNext();
        got.emplace_back(e.key.m_ts, e.key.m_uid);
    }
    EXPECT_EQ(got, expected);
}

} // namespace
} // namespace ns3
