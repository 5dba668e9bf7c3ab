// Unit tests of ClosedLoopWindow, the closed-loop sender shared by the flows' message
// streams and MaestroMessageStream: a window of messages, each completion replaced at once.
#include "ns3/closed-loop-window.h"

#include <gtest/gtest.h>
#include <vector>

namespace ns3
{
namespace
{

/** Records the indices a window posts. */
struct Poster
{
    std::vector<uint64_t> posted;

    void Post(uint64_t k) { posted.push_back(k); }
};

TEST(ClosedLoopWindow, KeepsTheBoundInFlightAndStopsAtTheCount)
{
    Poster p;
    ClosedLoopWindow w(3, 5, MakeCallback(&Poster::Post, &p));
    w.Start();
    EXPECT_EQ(p.posted, (std::vector<uint64_t>{0, 1, 2}));
    EXPECT_TRUE(w.Complete()); // 3 posted
    EXPECT_TRUE(w.Complete()); // 4 posted: every message is out
    EXPECT_EQ(w.GetPosted(), 5u);
    EXPECT_TRUE(w.Complete());
    EXPECT_TRUE(w.Complete());
    EXPECT_FALSE(w.IsDone());
    EXPECT_FALSE(w.Complete()); // the last one
    EXPECT_TRUE(w.IsDone());
    EXPECT_EQ(p.posted, (std::vector<uint64_t>{0, 1, 2, 3, 4}));
    EXPECT_EQ(w.GetCompleted(), 5u);
}

TEST(ClosedLoopWindow, FewerMessagesThanTheBound)
{
    Poster p;
    ClosedLoopWindow w(8, 2, MakeCallback(&Poster::Post, &p));
    w.Start();
    EXPECT_EQ(p.posted.size(), 2u);
    EXPECT_TRUE(w.Complete());
    EXPECT_FALSE(w.Complete());
    EXPECT_TRUE(w.IsDone());
    EXPECT_EQ(p.posted.size(), 2u);
}

TEST(ClosedLoopWindow, UnlimitedRunsUntilToldThenDrains)
{
    Poster p;
    ClosedLoopWindow w(2, ClosedLoopWindow::UNLIMITED, MakeCallback(&Poster::Post, &p));
    w.Start();
    for (int i = 0; i < 10; ++i)
    {
        EXPECT_TRUE(w.Complete());
    }
    EXPECT_EQ(w.GetPosted(), 12u);
    w.StopPosting();
    EXPECT_TRUE(w.Complete());
    EXPECT_FALSE(w.IsDone()); // one still in flight
    w.Complete();
    EXPECT_TRUE(w.IsDone());
    EXPECT_EQ(w.GetPosted(), 12u);
    EXPECT_EQ(w.GetCompleted(), 12u);
}

// Windows started in rounds post their first messages round robin: the first of each,
// then the second of each, as Start would post them one window after another.
TEST(ClosedLoopWindow, StartOneStartsWindowsInRounds)
{
    Poster a;
    Poster b;
    ClosedLoopWindow wa(2, 5, MakeCallback(&Poster::Post, &a));
    ClosedLoopWindow wb(3, 2, MakeCallback(&Poster::Post, &b));
    std::vector<char> order;
    for (int round = 0; round < 3; ++round)
    {
        if (wa.StartOne())
        {
            order.push_back('a');
        }
        if (wb.StartOne())
        {
            order.push_back('b');
        }
    }
    EXPECT_EQ(order, (std::vector<char>{'a', 'b', 'a', 'b'}));
    EXPECT_EQ(a.posted, (std::vector<uint64_t>{0, 1}));
    EXPECT_EQ(b.posted, (std::vector<uint64_t>{0, 1}));
    EXPECT_FALSE(wa.StartOne()); // the bound is out; Complete posts the rest
    EXPECT_TRUE(wa.Complete());
    EXPECT_EQ(a.posted, (std::vector<uint64_t>{0, 1, 2}));
}

} // namespace
} // namespace ns3
