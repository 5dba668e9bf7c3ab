// ReusableEvent: one event object scheduled several times while earlier schedulings
// are pending runs once per scheduling, at the right times, in the same order as
// the events Simulator::Schedule would have made.
#include "ns3/reusable-event.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <utility>
#include <vector>

namespace ns3
{
namespace
{

class Ticker
{
  public:
    void Tick() { m_log.emplace_back(Simulator::Now().GetNanoSeconds(), 0); }

    void Mark(int tag) { m_log.emplace_back(Simulator::Now().GetNanoSeconds(), tag); }

    std::vector<std::pair<int64_t, int>> m_log; //!< (ns, 0 for Tick or the Mark tag)
};

class ReusableEventTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }
};

TEST_F(ReusableEventTest, EachSchedulingRunsOnceInScheduleOrder)
{
    Ticker t;
    auto ev = Create<ReusableEvent<Ticker, &Ticker::Tick>>(&t);
    // Three pending schedulings of the same object, interleaved with ordinary events
    // at the same times: ties run in the order they were scheduled.
    Simulator::Schedule(NanoSeconds(5), &Ticker::Mark, &t, 1);
    ev->Schedule(NanoSeconds(5));
    ev->Schedule(NanoSeconds(3));
    Simulator::Schedule(NanoSeconds(3), &Ticker::Mark, &t, 2);
    ev->Schedule(NanoSeconds(9));
    Simulator::Run();
    const std::vector<std::pair<int64_t, int>> expected = {{3, 0}, {3, 2}, {5, 1}, {5, 0}, {9, 0}};
    EXPECT_EQ(t.m_log, expected);
    // The queue released its references: ours is the only one left.
    EXPECT_EQ(ev->GetReferenceCount(), 1u);
}

TEST_F(ReusableEventTest, SchedulesAgainFromItsOwnMethod)
{
    class Chain
    {
      public:
        Chain()
            : m_ev(Create<ReusableEvent<Chain, &Chain::Step>>(this))
        {
        }

        void Step()
        {
            if (++m_steps < 4)
            {
                m_ev->Schedule(NanoSeconds(2));
            }
        }

        Ptr<ReusableEvent<Chain, &Chain::Step>> m_ev;
        int m_steps{0};
    };

    Chain c;
    c.m_ev->Schedule(NanoSeconds(1));
    Simulator::Run();
    EXPECT_EQ(c.m_steps, 4);
    EXPECT_EQ(Simulator::Now(), NanoSeconds(7));
}

} // namespace
} // namespace ns3
