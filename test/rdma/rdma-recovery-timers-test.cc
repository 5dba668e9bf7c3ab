// Unit tests of RdmaRecoveryTimers with no requester, NIC or network: a sequence the test
// sets by hand, a go-back-N loss recovery for the timeout, retry limit and NAK reaction
// time, and hooks that record what the timers report and when.
#include "ns3/rdma-go-back-n.h"
#include "ns3/rdma-recovery-timers.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <vector>

namespace ns3
{
namespace
{

/** AckTimeoutExponent 1: 4.096 us x 2. */
const Time RTO = NanoSeconds(8192);
const Time RNR = MicroSeconds(10);

class RdmaRecoveryTimersTest : public ::testing::Test
{
  public:
    struct Timeout
    {
        Time at;
        bool exhausted;
    };

    struct Nak
    {
        Time at;
        uint64_t psn;
        uint64_t sack;
    };

    void TearDown() override
    {
        m_timers.Dispose();
        Simulator::Destroy();
    }

    /** Timers over m_seq with RetryCount \p retries and NakReactionTime \p nakReaction. */
    void Setup(uint32_t retries = 7, Time nakReaction = Time(0))
    {
        Ptr<RdmaGoBackN> loss = CreateObject<RdmaGoBackN>();
        loss->SetAttribute("AckTimeoutExponent", UintegerValue(1));
        loss->SetAttribute("RetryCount", UintegerValue(retries));
        loss->SetAttribute("NakReactionTime", TimeValue(nakReaction));
        RdmaRecoveryTimers::Hooks hooks;
        hooks.timeout = MakeCallback(&RdmaRecoveryTimersTest::OnTimeout, this);
        hooks.rnrWaitOver = MakeCallback(&RdmaRecoveryTimersTest::OnRnrWaitOver, this);
        hooks.sequenceNak = MakeCallback(&RdmaRecoveryTimersTest::OnSequenceNak, this);
        m_timers.Setup(&m_seq, loss, RNR, hooks);
    }

    /** Packets 0..3 sent, none acknowledged. */
    void SendFour()
    {
        m_seq.nxt = 4;
        m_seq.high = 4;
        m_timers.Arm();
    }

    void OnTimeout(bool exhausted)
    {
        m_timeouts.push_back({Simulator::Now(), exhausted});
        if (m_resendOnTimeout && !exhausted)
        {
            m_timers.Arm(); // the requester goes back and sends again
        }
    }

    void OnRnrWaitOver() { m_rnrOver.push_back(Simulator::Now()); }

    void OnSequenceNak(uint64_t psn, uint64_t sack)
    {
        m_naks.push_back({Simulator::Now(), psn, sack});
    }

    void Acknowledge(uint64_t una)
    {
        m_seq.una = una;
        m_timers.OnProgress();
    }

    RdmaTxSequence m_seq;
    RdmaRecoveryTimers m_timers;
    bool m_resendOnTimeout{true};
    std::vector<Timeout> m_timeouts;
    std::vector<Time> m_rnrOver;
    std::vector<Nak> m_naks;
};

TEST_F(RdmaRecoveryTimersTest, NothingOutstandingArmsNothing)
{
    Setup();
    m_timers.Arm();
    Simulator::Run();
    EXPECT_TRUE(m_timeouts.empty());
}

TEST_F(RdmaRecoveryTimersTest, TimeoutFiresOneRtoAfterTheFirstOutstandingPacket)
{
    Setup();
    SendFour();
    // Later sends do not move a running timer.
    Simulator::Schedule(MicroSeconds(3), &RdmaRecoveryTimers::Arm, &m_timers);
    m_resendOnTimeout = false;
    Simulator::Stop(RTO + MicroSeconds(1));
    Simulator::Run();
    ASSERT_EQ(m_timeouts.size(), 1u);
    EXPECT_EQ(m_timeouts[0].at, RTO);
    EXPECT_FALSE(m_timeouts[0].exhausted);
}

// Issue 33, defect 2: packets outstanding always have a pending timer. A timeout after
// which nothing is sent at once keeps it running from the timeout (else a QP whose
// timeout found nothing to resend waited forever); the resend, when it leaves, restarts
// it from its send time, as a timer armed by that send would run.
TEST_F(RdmaRecoveryTimersTest, ATimeoutThatSendsNothingAtOnceLeavesTheTimerPending)
{
    Setup();
    SendFour();
    m_resendOnTimeout = false;
    Simulator::Stop(RTO + MicroSeconds(1));
    Simulator::Run();
    ASSERT_EQ(m_timeouts.size(), 1u);
    EXPECT_TRUE(m_timers.IsRetransmitPending());
    // The resend leaves 2 us later: the next timeout is one RTO after it.
    Simulator::Schedule(MicroSeconds(2), &RdmaRecoveryTimers::Arm, &m_timers);
    Simulator::Stop(RTO * 2);
    Simulator::Run();
    ASSERT_EQ(m_timeouts.size(), 2u);
    EXPECT_EQ(m_timeouts[1].at, RTO * 2 + MicroSeconds(3));
    // Nothing sent after that one either: the timer keeps firing until the retries are
    // spent, then the QP fails (RetryExceeded), never silent.
    Simulator::Run();
    ASSERT_EQ(m_timeouts.size(), 8u); // RetryCount 7
    EXPECT_EQ(m_timeouts[2].at, RTO * 3 + MicroSeconds(3));
    EXPECT_TRUE(m_timeouts[7].exhausted);
}

TEST_F(RdmaRecoveryTimersTest, RetriesRunOutAfterRetryCountTimeoutsWithoutProgress)
{
    Setup(2);
    SendFour();
    Simulator::Run();
    ASSERT_EQ(m_timeouts.size(), 3u);
    for (uint32_t i = 0; i < 3; ++i)
    {
        EXPECT_EQ(m_timeouts[i].at, RTO * (i + 1));
        EXPECT_EQ(m_timeouts[i].exhausted, i == 2) << "timeout " << i;
    }
}

TEST_F(RdmaRecoveryTimersTest, ProgressRestartsTheTimerAndTheRetryCount)
{
    Setup(2);
    SendFour();
    // One timeout without progress, then an ACK at 10 us: two more timeouts are allowed.
    Simulator::Schedule(MicroSeconds(10), &RdmaRecoveryTimersTest::Acknowledge, this, 1);
    Simulator::Run();
    ASSERT_EQ(m_timeouts.size(), 4u);
    EXPECT_EQ(m_timeouts[0].at, RTO);
    EXPECT_EQ(m_timeouts[1].at, MicroSeconds(10) + RTO);
    EXPECT_EQ(m_timeouts[2].at, MicroSeconds(10) + RTO * 2);
    EXPECT_EQ(m_timeouts[3].at, MicroSeconds(10) + RTO * 3);
    EXPECT_FALSE(m_timeouts[2].exhausted);
    EXPECT_TRUE(m_timeouts[3].exhausted);
}

TEST_F(RdmaRecoveryTimersTest, AllAcknowledgedSilencesTheTimer)
{
    Setup();
    SendFour();
    Simulator::Schedule(MicroSeconds(2), &RdmaRecoveryTimersTest::Acknowledge, this, 4);
    Simulator::Run();
    EXPECT_TRUE(m_timeouts.empty());
}

TEST_F(RdmaRecoveryTimersTest, RnrWaitLastsRnrTimerFromTheLastRnrNak)
{
    Setup();
    m_timers.StartRnrWait();
    EXPECT_TRUE(m_timers.IsRnrWait());
    Simulator::Schedule(MicroSeconds(5), &RdmaRecoveryTimers::StartRnrWait, &m_timers);
    Simulator::Run();
    ASSERT_EQ(m_rnrOver.size(), 1u);
    EXPECT_EQ(m_rnrOver[0], MicroSeconds(5) + RNR);
    EXPECT_FALSE(m_timers.IsRnrWait());
}

TEST_F(RdmaRecoveryTimersTest, NakWithoutReactionTimeIsAppliedAtOnce)
{
    Setup();
    m_timers.OnSequenceNak(2, RdmaLossRecovery::NO_SACK);
    ASSERT_EQ(m_naks.size(), 1u);
    EXPECT_EQ(m_naks[0].psn, 2u);
    EXPECT_EQ(m_naks[0].sack, RdmaLossRecovery::NO_SACK);
}

TEST_F(RdmaRecoveryTimersTest, NakReactionDefersTimeoutsAndRestartsTheTimerAtTheRewind)
{
    const Time reaction = MicroSeconds(20);
    Setup(7, reaction);
    SendFour();
    Simulator::Schedule(MicroSeconds(1), &RdmaRecoveryTimers::OnSequenceNak, &m_timers, 2, 3);
    // The responder NAKs a gap once; a second NAK meanwhile changes nothing.
    Simulator::Schedule(MicroSeconds(2), &RdmaRecoveryTimers::OnSequenceNak, &m_timers, 3, 3);
    m_resendOnTimeout = false;
    // Until just after the first timeout that counts (nothing is resent, so the timer then
    // keeps firing: ATimeoutThatSendsNothingAtOnceLeavesTheTimerPending).
    Simulator::Stop(MicroSeconds(1) + reaction + RTO + MicroSeconds(1));
    Simulator::Run();
    ASSERT_EQ(m_naks.size(), 1u);
    EXPECT_EQ(m_naks[0].at, MicroSeconds(1) + reaction);
    EXPECT_EQ(m_naks[0].psn, 2u);
    EXPECT_EQ(m_naks[0].sack, 3u);
    // The expiries at 1, 2 RTO fell inside the wait and used no retry; the timer runs
    // from the rewind.
    ASSERT_EQ(m_timeouts.size(), 1u);
    EXPECT_EQ(m_timeouts[0].at, MicroSeconds(1) + reaction + RTO);
    EXPECT_FALSE(m_timeouts[0].exhausted);
}

TEST_F(RdmaRecoveryTimersTest, CancelStopsEveryTimer)
{
    Setup(7, MicroSeconds(20));
    SendFour();
    m_timers.StartRnrWait();
    m_timers.OnSequenceNak(2, 3);
    m_timers.Cancel();
    Simulator::Run();
    EXPECT_TRUE(m_timeouts.empty());
    EXPECT_TRUE(m_rnrOver.empty());
    EXPECT_TRUE(m_naks.empty());
}

} // namespace
} // namespace ns3
