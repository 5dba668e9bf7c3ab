// Unit tests of MovableTimer with no network: expiry at the last deadline set,
// cancel, a deadline moved earlier, and the point of the class — moving the
// deadline later on every "packet" leaves one pending event, not one per move.
#include "ns3/movable-timer.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <vector>

namespace ns3
{
namespace
{

class MovableTimerTest : public ::testing::Test
{
  public:
    void Fired() { m_fired.push_back(Simulator::Now()); }

    void Move(Time delay) { m_timer.Schedule(delay); }

  protected:
    void TearDown() override { Simulator::Destroy(); }

    std::vector<Time> m_fired;
    MovableTimer m_timer;
};

TEST_F(MovableTimerTest, FiresAtTheLastDeadline)
{
    m_timer.SetFunction(MakeCallback(&MovableTimerTest::Fired, this));
    m_timer.Schedule(MicroSeconds(100));
    Simulator::Schedule(MicroSeconds(30), &MovableTimerTest::Move, this, MicroSeconds(100));
    Simulator::Run();
    ASSERT_EQ(m_fired.size(), 1u);
    EXPECT_EQ(m_fired[0], MicroSeconds(130));
    EXPECT_FALSE(m_timer.IsRunning());
}

TEST_F(MovableTimerTest, CancelledTimerDoesNotFire)
{
    m_timer.SetFunction(MakeCallback(&MovableTimerTest::Fired, this));
    m_timer.Schedule(MicroSeconds(100));
    EXPECT_TRUE(m_timer.IsRunning());
    EXPECT_EQ(m_timer.GetDelayLeft(), MicroSeconds(100));
    m_timer.Cancel();
    EXPECT_FALSE(m_timer.IsRunning());
    EXPECT_EQ(m_timer.GetDelayLeft(), Time(0));
    Simulator::Run();
    EXPECT_TRUE(m_fired.empty());
}

TEST_F(MovableTimerTest, DeadlineMovedEarlierFiresEarlier)
{
    m_timer.SetFunction(MakeCallback(&MovableTimerTest::Fired, this));
    m_timer.Schedule(MicroSeconds(100));
    Simulator::Schedule(MicroSeconds(10), &MovableTimerTest::Move, this, MicroSeconds(5));
    Simulator::Run();
    ASSERT_EQ(m_fired.size(), 1u);
    EXPECT_EQ(m_fired[0], MicroSeconds(15));
}

TEST_F(MovableTimerTest, ReArmedFromItsOwnCallback)
{
    // A periodic timer (DCQCN's alpha timer) re-arms itself when it fires.
    m_timer.SetFunction(MakeCallback(&MovableTimerTest::Fired, this));
    m_timer.Schedule(MicroSeconds(10));
    Simulator::Schedule(MicroSeconds(10), &MovableTimerTest::Move, this, MicroSeconds(10));
    Simulator::Stop(MicroSeconds(25));
    Simulator::Run();
    // The mover runs after the expiry at 10 us (scheduled later), so it re-arms to 20 us.
    ASSERT_EQ(m_fired.size(), 2u);
    EXPECT_EQ(m_fired[0], MicroSeconds(10));
    EXPECT_EQ(m_fired[1], MicroSeconds(20));
}

TEST_F(MovableTimerTest, MovingLaterKeepsOnePendingEvent)
{
    // 1000 "ACKs", one per microsecond, each pushing a 1 ms timeout later. With
    // cancel-and-reschedule each would leave a dead event queued until its expiry,
    // and every one of them would still be processed: 2000 events or more. Moving the
    // deadline processes the 1000 movers plus a handful of timer events.
    m_timer.SetFunction(MakeCallback(&MovableTimerTest::Fired, this));
    const uint32_t moves = 1000;
    for (uint32_t i = 0; i < moves; ++i)
    {
        Simulator::Schedule(MicroSeconds(i), &MovableTimerTest::Move, this, MilliSeconds(1));
    }
    Simulator::Run();
    ASSERT_EQ(m_fired.size(), 1u);
    EXPECT_EQ(m_fired[0], MicroSeconds(moves - 1) + MilliSeconds(1));
    EXPECT_LE(Simulator::GetEventCount(), moves + 3);
}

} // namespace
} // namespace ns3
