// GoalExecutor on a transport with no network: each host sends one message at a time at a
// fixed time per byte, and a message arrives a fixed latency after its last byte left.
// The makespans are worked out by hand in each test's comment.
#include "ns3/experiment-config-error.h"
#include "ns3/goal-executor.h"
#include "ns3/goal-schedule-reader.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

/**
 * Each source host serializes its messages (\p perByte each byte), and a message
 * arrives \p latency after its last byte: its send completes when the last byte left.
 */
class FakeGoalTransport : public GoalTransport
{
  public:
    FakeGoalTransport(uint32_t hosts, Time perByte, Time latency)
        : m_freeAt(hosts, Time(0))
        , m_perByte(perByte)
        , m_latency(latency)
    {
    }

    std::vector<GoalMessage> m_posted;

  private:
    void DoPost(const GoalMessage& m) override
    {
        m_posted.push_back(m);
        const Time now = Simulator::Now();
        const Time start = std::max(now, m_freeAt[m.srcHost]);
        const Time end = start + TimeStep(m_perByte.GetTimeStep() * static_cast<int64_t>(m.bytes));
        m_freeAt[m.srcHost] = end;
        Simulator::Schedule(end - now, &FakeGoalTransport::Sent, this, m.id);
        Simulator::Schedule(end + m_latency - now, &FakeGoalTransport::Arrived, this, m.id);
    }

    void Sent(uint32_t id) { NotifySent(id); }

    void Arrived(uint32_t id) { NotifyArrived(id); }

    std::vector<Time> m_freeAt;
    Time m_perByte;
    Time m_latency;
};

class GoalExecutorTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /**
     * Run \p text, rank r on host r (or on \p hosts), 1 ns per byte (8 Gb/s) and 1 us
     * latency. \return the executor, after the run
     */
    Ptr<GoalExecutor> Run(const std::string& text, std::vector<uint32_t> hosts = {},
                          Time calcUnit = NanoSeconds(1))
    {
        GoalSchedule schedule = GoalScheduleReader::ReadString(text, "t.goal");
        if (hosts.empty())
        {
            for (uint32_t r = 0; r < schedule.GetNRanks(); ++r)
            {
                hosts.push_back(r);
            }
        }
        m_transport =
            Create<FakeGoalTransport>(schedule.GetNRanks(), NanoSeconds(1), MicroSeconds(1));
        Ptr<GoalExecutor> executor = CreateObject<GoalExecutor>();
        executor->SetAttribute("CalcUnit", TimeValue(calcUnit));
        executor->Setup(std::move(schedule), hosts, m_transport);
        executor->SetDoneCallback(MakeCallback(&GoalExecutorTest::Done, this));
        Simulator::ScheduleNow(&GoalExecutor::Start, executor);
        Simulator::Run();
        return executor;
    }

    void Done()
    {
        ++m_done;
        m_doneAt = Simulator::Now();
    }

    /** \return the index of the op labelled \p label in \p rank's block. */
    static uint32_t Op(Ptr<GoalExecutor> e, uint32_t rank, const std::string& label)
    {
        const GoalSchedule& s = e->GetSchedule();
        for (uint32_t op = s.GetFirstOp(rank); op < s.GetFirstOp(rank + 1); ++op)
        {
            if (s.GetLabel(op) == label)
            {
                return op;
            }
        }
        ADD_FAILURE() << "no label " << label;
        return 0;
    }

    Ptr<FakeGoalTransport> m_transport;
    uint32_t m_done{0};
    Time m_doneAt;
};

/** A binary tree broadcast from rank 0: rank i receives from (i - 1) / 2, sends to 2i + 1, 2i + 2.
 */
std::string
TreeBroadcast(uint32_t ranks, uint64_t bytes)
{
    std::string text = "num_ranks " + std::to_string(ranks) + "\n";
    for (uint32_t i = 0; i < ranks; ++i)
    {
        text += "rank " + std::to_string(i) + " {\n";
        if (i > 0)
        {
            text += "  r: recv " + std::to_string(bytes) + "b from " + std::to_string((i - 1) / 2) +
                    " tag 0\n";
        }
        for (uint32_t c : {2 * i + 1, 2 * i + 2})
        {
            if (c < ranks)
            {
                const std::string s = "s" + std::to_string(c);
                text += "  " + s + ": send " + std::to_string(bytes) + "b to " + std::to_string(c) +
                        " tag 0\n";
                text += i > 0 ? "  " + s + " requires r\n" : "";
            }
        }
        text += "}\n";
    }
    return text;
}

TEST_F(GoalExecutorTest, BinaryTreeBroadcastOfSixteenRanks)
{
    // S = 1000 ns to send 1000 B, L = 1 us. A rank's two children get the data S + L and
    // 2S + L after it (its sends share its link, the first child first). The last to get
    // it is rank 14 (0 -> 2 -> 6 -> 14, each the second child): 3 (2S + L) = 9 us; rank 15
    // (0 -> 1 -> 3 -> 7 -> 15, first children) gets it at 4 (S + L) = 8 us.
    Ptr<GoalExecutor> e = Run(TreeBroadcast(16, 1000));
    ASSERT_TRUE(e->IsDone()) << e->DescribeStalled(10);
    EXPECT_EQ(m_done, 1u);
    EXPECT_EQ(e->GetMakespan(), MicroSeconds(9));
    EXPECT_EQ(m_doneAt, MicroSeconds(9));
    EXPECT_EQ(e->GetRankFinish(14), MicroSeconds(9));
    EXPECT_EQ(e->GetRankFinish(15), MicroSeconds(8));
    EXPECT_EQ(e->GetRankFinish(0), MicroSeconds(2)); // its two sends, back to back
    EXPECT_EQ(e->GetOpEnd(Op(e, 6, "r")), MicroSeconds(6));
    EXPECT_EQ(e->GetOpStart(Op(e, 6, "s14")), MicroSeconds(6));
    EXPECT_EQ(e->GetOpEnd(Op(e, 6, "s14")), MicroSeconds(8));
    EXPECT_EQ(m_transport->m_posted.size(), 15u);
}

/**
 * A ring all-reduce of \p n ranks: 2 (n - 1) steps of \p bytes per rank; in the first n - 1
 * steps each received segment is reduced (calc \p reduce) before the next send.
 */
std::string
RingAllreduce(uint32_t n, uint64_t bytes, uint64_t reduce)
{
    std::string text = "num_ranks " + std::to_string(n) + "\n";
    for (uint32_t r = 0; r < n; ++r)
    {
        text += "rank " + std::to_string(r) + " {\n";
        std::string ready;
        for (uint32_t k = 0; k < 2 * (n - 1); ++k)
        {
            const std::string s = "s" + std::to_string(k);
            const std::string v = "r" + std::to_string(k);
            text += s + ": send " + std::to_string(bytes) + "b to " + std::to_string((r + 1) % n) +
                    " tag " + std::to_string(k) + "\n";
            text += v + ": recv " + std::to_string(bytes) + "b from " +
                    std::to_string((r + n - 1) % n) + " tag " + std::to_string(k) + "\n";
            text += ready.empty() ? "" : s + " requires " + ready + "\n";
            ready = v;
            if (k < n - 1)
            {
                const std::string d = "d" + std::to_string(k);
                text += d + ": calc " + std::to_string(reduce) + "\n" + d + " requires " + v + "\n";
                ready = d;
            }
        }
        text += "}\n";
    }
    return text;
}

TEST_F(GoalExecutorTest, RingAllreduceOfEightRanks)
{
    // Each reduce-scatter step takes S + L + reduce = 1 + 1 + 0.5 us, each allgather step
    // S + L = 2 us: 7 x 2.5 + 7 x 2 = 31.5 us.
    Ptr<GoalExecutor> e = Run(RingAllreduce(8, 1000, 500));
    ASSERT_TRUE(e->IsDone()) << e->DescribeStalled(10);
    EXPECT_EQ(e->GetSchedule().GetNOps(), 8u * (14u + 14u + 7u));
    EXPECT_EQ(e->GetMakespan(), NanoSeconds(31500));
    for (uint32_t r = 0; r < 8; ++r)
    {
        EXPECT_EQ(e->GetRankFinish(r), NanoSeconds(31500)) << "rank " << r;
    }
    EXPECT_EQ(e->GetOpStart(Op(e, 3, "s7")), NanoSeconds(17500)); // first allgather send
}

TEST_F(GoalExecutorTest, IrequiresWaitsForTheStartRequiresForTheEnd)
{
    // Rank 0 computes 1 us and sends 500 B (0.5 us) to rank 1, 1 us away.
    const std::string text = "num_ranks 2\nrank 0 {\na: calc 1000\nb: send 500b to 1\nb %s a\n}\n"
                             "rank 1 {\nrecv 500b from 0\n}\n";
    auto with = [&text](const std::string& kind)
    {
        std::string t = text;
        t.replace(t.find("%s"), 2, kind);
        return t;
    };
    // requires: the send starts when the calc ends: 1 + 0.5 + 1 us.
    Ptr<GoalExecutor> e = Run(with("requires"));
    EXPECT_EQ(e->GetMakespan(), NanoSeconds(2500));
    EXPECT_EQ(e->GetOpStart(1), MicroSeconds(1));
    Simulator::Destroy();
    // irequires: it starts with the calc: 0.5 + 1 us, while the calc ends at 1 us.
    e = Run(with("irequires"));
    EXPECT_EQ(e->GetMakespan(), NanoSeconds(1500));
    EXPECT_EQ(e->GetOpStart(1), Time(0));
    EXPECT_EQ(e->GetRankFinish(0), MicroSeconds(1));
}

TEST_F(GoalExecutorTest, AnySourceRecvsTakeMessagesInArrivalOrder)
{
    // Rank 1 sends after 2 us of compute, rank 2 after 0.5 us (100 B: 0.1 us, then 1 us):
    // rank 2's message arrives first (1.6 us) and goes to the recv from any source, a. Then
    // the recv from 2 with any tag starts and takes rank 2's tag-9 message (1.608 us), and
    // the second recv from any source takes rank 1's (3.1 us).
    Ptr<GoalExecutor> e = Run(R"(num_ranks 3
rank 0 {
  a: recv 100b from -1 tag -1
  x: calc 10
  x requires a
  t: recv 8b from 2 tag -1
  t requires a
  b: recv 100b from -1 tag -1
  b requires t
}
rank 1 {
  c: calc 2000
  s: send 100b to 0 tag 1
  s requires c
}
rank 2 {
  c: calc 500
  s: send 100b to 0 tag 2
  s requires c
  u: send 8b to 0 tag 9
  u requires s
}
)");
    ASSERT_TRUE(e->IsDone()) << e->DescribeStalled(10);
    EXPECT_EQ(e->GetMatch(Op(e, 0, "a")), Op(e, 2, "s"));
    EXPECT_EQ(e->GetMatch(Op(e, 2, "s")), Op(e, 0, "a"));
    EXPECT_EQ(e->GetMatch(Op(e, 0, "b")), Op(e, 1, "s"));
    EXPECT_EQ(e->GetMatch(Op(e, 0, "t")), Op(e, 2, "u"));
    EXPECT_EQ(e->GetOpEnd(Op(e, 0, "a")), NanoSeconds(1600));
    EXPECT_EQ(e->GetOpEnd(Op(e, 0, "x")), NanoSeconds(1610));
    EXPECT_EQ(e->GetOpEnd(Op(e, 0, "b")), NanoSeconds(3100));
    // u starts when s completes (0.6 us) and arrives at 0.6 + 0.008 + 1 us.
    EXPECT_EQ(e->GetOpEnd(Op(e, 0, "t")), NanoSeconds(1608));
    EXPECT_EQ(e->GetMakespan(), NanoSeconds(3100));
}

TEST_F(GoalExecutorTest, AMessageThatArrivesFirstWaitsForItsRecv)
{
    // The message arrives at 1.1 us; the recv starts at 5 us and takes it at once.
    Ptr<GoalExecutor> e = Run("num_ranks 2\nrank 0 {\nc: calc 5000\nr: recv 100b from 1\nr "
                              "requires c\n}\nrank 1 {\nsend 100b to 0\n}\n");
    ASSERT_TRUE(e->IsDone());
    EXPECT_EQ(e->GetOpStart(1), MicroSeconds(5));
    EXPECT_EQ(e->GetOpEnd(1), MicroSeconds(5));
    EXPECT_EQ(e->GetMakespan(), MicroSeconds(5));
}

TEST_F(GoalExecutorTest, CalcTakesItsAmountInCalcUnits)
{
    // CalcUnit 1 us: 3 then 4 units; a rank without operations finishes at the start.
    Ptr<GoalExecutor> e =
        Run("num_ranks 2\nrank 0 {\na: calc 3\nb: calc 4\nb requires a\n}\n", {}, MicroSeconds(1));
    ASSERT_TRUE(e->IsDone());
    EXPECT_EQ(e->GetOpEnd(0), MicroSeconds(3));
    EXPECT_EQ(e->GetOpStart(1), MicroSeconds(3));
    EXPECT_EQ(e->GetOpEnd(1), MicroSeconds(7));
    EXPECT_EQ(e->GetMakespan(), MicroSeconds(7));
    EXPECT_EQ(e->GetRankFinish(1), Time(0));
}

TEST_F(GoalExecutorTest, RanksOfOneHostExchangeWithoutTheTransport)
{
    // Both ranks on host 0: the message is there at once, the makespan is the calc.
    Ptr<GoalExecutor> e = Run("num_ranks 2\nrank 0 {\nc: calc 700\ns: send 100b to 1\ns requires "
                              "c\n}\nrank 1 {\nrecv 100b from 0\n}\n",
                              {0, 0});
    ASSERT_TRUE(e->IsDone());
    EXPECT_EQ(e->GetMakespan(), NanoSeconds(700));
    EXPECT_TRUE(m_transport->m_posted.empty());
}

TEST_F(GoalExecutorTest, MessagesOfOneSourceAndTagAreTakenInOrder)
{
    Ptr<GoalExecutor> e =
        Run("num_ranks 2\nrank 0 {\na: send 100b to 1 tag 4\nb: send 200b to 1 tag 4\n}\nrank 1 "
            "{\nx: recv 100b from 0 tag 4\ny: recv 200b from 0 tag 4\n}\n");
    ASSERT_TRUE(e->IsDone());
    EXPECT_EQ(e->GetMatch(Op(e, 1, "x")), Op(e, 0, "a"));
    EXPECT_EQ(e->GetMatch(Op(e, 1, "y")), Op(e, 0, "b"));
    EXPECT_EQ(e->GetMakespan(), NanoSeconds(1300)); // 0.1 + 0.2 + 1 us
}

TEST_F(GoalExecutorTest, ADeadlockedScheduleIsReportedNotDone)
{
    // Counts match, but each rank sends only after its recv completed.
    Ptr<GoalExecutor> e = Run("num_ranks 2\nrank 0 {\nr: recv 8b from 1\ns: send 8b to 1\ns "
                              "requires r\n}\nrank 1 {\nr: recv 8b from 0\ns: send 8b to 0\ns "
                              "requires r\n}\n");
    EXPECT_FALSE(e->IsDone());
    EXPECT_EQ(m_done, 0u);
    EXPECT_EQ(e->GetNCompleted(), 0u);
    EXPECT_EQ(e->DescribeStalled(3),
              "rank 0 op r (line 3): recv from 1 tag 0: no matching message has arrived\n"
              "rank 0 op s (line 4): waits for 0 start(s) and 1 completion(s)\n"
              "rank 1 op r (line 8): recv from 0 tag 0: no matching message has arrived\n"
              "and 1 more\n");
}

TEST_F(GoalExecutorTest, RefusesAHostListOfTheWrongLength)
{
    GoalSchedule s = GoalScheduleReader::ReadString("num_ranks 2\n", "t.goal");
    Ptr<GoalExecutor> e = CreateObject<GoalExecutor>();
    try
    {
        e->Setup(std::move(s), {0}, Create<FakeGoalTransport>(2, NanoSeconds(1), Time(0)));
        FAIL() << "accepted one host for two ranks";
    }
    catch (const ExperimentConfigError& error)
    {
        EXPECT_EQ(std::string(error.what()),
                  "t.goal: expected a host for each of the 2 ranks, got 1");
    }
}

TEST_F(GoalExecutorTest, ShippedRingAllreduceSchedule)
{
    // test/dc-experiment/data/goal/ring-allreduce-8r-4it.goal at 100 Gb/s (80 ps per byte),
    // 1 us latency: S = 65536 B x 80 ps = 5.24288 us. Per iteration: compute 100 us, 7
    // reduce-scatter steps of S + L + 2 us and 7 allgather steps of S + L:
    // 100 + 7 x 8.24288 + 7 x 6.24288 = 201.40032 us; 4 iterations: 805.60128 us.
    GoalSchedule schedule =
        GoalScheduleReader::ReadFile(std::string(ROCE_LAB_SOURCE_DIR) +
                                     "/test/dc-experiment/data/goal/ring-allreduce-8r-4it.goal");
    Ptr<GoalExecutor> e = CreateObject<GoalExecutor>();
    e->Setup(std::move(schedule), {0, 1, 2, 3, 4, 5, 6, 7},
             Create<FakeGoalTransport>(8, PicoSeconds(80), MicroSeconds(1)));
    Simulator::ScheduleNow(&GoalExecutor::Start, e);
    Simulator::Run();
    ASSERT_TRUE(e->IsDone()) << e->DescribeStalled(10);
    EXPECT_EQ(e->GetMakespan(), PicoSeconds(805601280));
}

} // namespace
} // namespace ns3
