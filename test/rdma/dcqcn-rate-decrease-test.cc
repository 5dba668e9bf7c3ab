// Unit tests of RdmaDcqcn's reaction-point rate-decrease coalescing
// (RateDecreaseInterval, RateDecreaseTiming) and of the notification point with
// CnpInterval 0: the HPCC simulator's DCQCN (a CNP per marked packet, a cut at
// most once per RATE_DECREASE_INTERVAL at the tick of a check started by the first
// CNP). The algorithm is driven directly (OnCnp, OnDataReceived); time by
// Simulator::Schedule/Stop/Run. Expected rates: R_C (1 - alpha/2) with alpha = 1
// (InitialAlpha 1 stays 1 under (1 - g) alpha + g), i.e. halving per cut.
#include "rdma-test-fabric.h"

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-cc-state.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <vector>

namespace ns3
{
namespace
{

constexpr uint64_t GBPS = 1000000000ULL;

/** One rate decrease seen on the RateChange trace. */
struct Cut
{
    Time at;
    uint64_t bps;
};

class DcqcnRateDecreaseTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /**
     * A DCQCN at 100 Gb/s with RateDecreaseInterval \p interval and RateDecreaseTiming
     * \p timing, its cuts recorded; Init is done.
     */
    Ptr<RdmaDcqcn> Make(Time interval,
                        RdmaDcqcn::RateDecreaseTiming timing = RdmaDcqcn::PERIODIC_CHECK)
    {
        m_state.m_lineRate = DataRate("100Gbps");
        Ptr<RdmaDcqcn> cc = CreateObject<RdmaDcqcn>();
        cc->SetAttribute("RateDecreaseInterval", TimeValue(interval));
        cc->SetAttribute("RateDecreaseTiming", EnumValue(timing));
        cc->TraceConnectWithoutContext("RateChange",
                                       MakeCallback(&DcqcnRateDecreaseTest::Record, this));
        cc->Init(&m_state);
        return cc;
    }

    void Record(DataRate oldRate, DataRate newRate)
    {
        if (newRate < oldRate)
        {
            m_cuts.push_back({Simulator::Now(), newRate.GetBitRate()});
        }
    }

    /** CNPs at \p first, \p first + \p gap, ... (\p count of them). */
    static void CnpTrain(Ptr<RdmaDcqcn> cc, Time first, Time gap, uint32_t count)
    {
        for (uint32_t k = 0; k < count; ++k)
        {
            Simulator::Schedule(first + gap * k, &RdmaDcqcn::OnCnp, cc);
        }
    }

    static void RunUntil(Time t)
    {
        Simulator::Stop(t - Simulator::Now());
        Simulator::Run();
    }

    uint64_t Rate() const { return m_state.m_rate.GetBitRate(); }

    RdmaCcState m_state;
    std::vector<Cut> m_cuts;
};

TEST_F(DcqcnRateDecreaseTest, DefaultsCutOnEveryCnp)
{
    Ptr<RdmaDcqcn> cc = CreateObject<RdmaDcqcn>();
    TimeValue t;
    cc->GetAttribute("RateDecreaseInterval", t);
    EXPECT_EQ(t.Get(), Time(0));
    EnumValue e;
    cc->GetAttribute("RateDecreaseTiming", e);
    EXPECT_EQ(e.Get(), RdmaDcqcn::PERIODIC_CHECK);
}

// Control: RateDecreaseInterval 0 (the paper's RP) cuts at each of 8 CNPs 0.5 us apart.
TEST_F(DcqcnRateDecreaseTest, IntervalZeroCutsOnEachCnp)
{
    Ptr<RdmaDcqcn> cc = Make(Time(0));
    CnpTrain(cc, MicroSeconds(10), NanoSeconds(500), 8);
    RunUntil(MicroSeconds(20));
    ASSERT_EQ(m_cuts.size(), 8U);
    uint64_t expected = 100 * GBPS;
    for (uint32_t k = 0; k < 8; ++k)
    {
        expected /= 2;
        EXPECT_EQ(m_cuts[k].at, MicroSeconds(10) + NanoSeconds(500) * k) << "cut " << k;
        EXPECT_EQ(m_cuts[k].bps, expected) << "cut " << k;
    }
    EXPECT_FALSE(cc->IsRateDecreasePending());
}

// The same 8 CNPs with a 4 us interval: the first CNP starts the check clock and
// flags; no cut before the tick at 14 us, one cut there for all 8 CNPs.
TEST_F(DcqcnRateDecreaseTest, CnpsWithinOneIntervalGiveOneCutAtTheTick)
{
    Ptr<RdmaDcqcn> cc = Make(MicroSeconds(4));
    CnpTrain(cc, MicroSeconds(10), NanoSeconds(500), 8);
    RunUntil(MicroSeconds(14) - PicoSeconds(1));
    EXPECT_TRUE(m_cuts.empty());
    EXPECT_EQ(Rate(), 100 * GBPS);
    EXPECT_TRUE(cc->IsRateDecreasePending());
    RunUntil(MicroSeconds(40));
    ASSERT_EQ(m_cuts.size(), 1U);
    EXPECT_EQ(m_cuts[0].at, MicroSeconds(14));
    EXPECT_EQ(m_cuts[0].bps, 50 * GBPS);
    EXPECT_FALSE(cc->IsRateDecreasePending());
}

// 40 CNPs every 0.5 us over [10, 29.5] us: cuts once per interval at the ticks 14, 18,
// 22, 26 and 30 us; the tick at 34 us finds no flag and cuts nothing.
TEST_F(DcqcnRateDecreaseTest, FastCnpsCutOncePerIntervalAtTheTicks)
{
    Ptr<RdmaDcqcn> cc = Make(MicroSeconds(4));
    CnpTrain(cc, MicroSeconds(10), NanoSeconds(500), 40);
    RunUntil(MicroSeconds(50));
    ASSERT_EQ(m_cuts.size(), 5U);
    uint64_t expected = 100 * GBPS;
    for (uint32_t k = 0; k < 5; ++k)
    {
        expected /= 2;
        EXPECT_EQ(m_cuts[k].at, MicroSeconds(14 + 4 * k)) << "cut " << k;
        EXPECT_EQ(m_cuts[k].bps, expected) << "cut " << k;
    }
}

// First CNP at 7.3 us: the cut comes one interval later (11.3 us), not at once. A lone CNP
// at 20 us is cut at the next tick of the same clock, 23.3 us (not 24 us).
TEST_F(DcqcnRateDecreaseTest, FirstCnpStartsTheCheckClock)
{
    Ptr<RdmaDcqcn> cc = Make(MicroSeconds(4));
    Simulator::Schedule(NanoSeconds(7300), &RdmaDcqcn::OnCnp, cc);
    RunUntil(NanoSeconds(7301));
    EXPECT_EQ(Rate(), 100 * GBPS);
    EXPECT_TRUE(cc->IsRateDecreasePending());
    Simulator::Schedule(MicroSeconds(20) - Simulator::Now(), &RdmaDcqcn::OnCnp, cc);
    RunUntil(MicroSeconds(40));
    ASSERT_EQ(m_cuts.size(), 2U);
    EXPECT_EQ(m_cuts[0].at, NanoSeconds(11300));
    EXPECT_EQ(m_cuts[0].bps, 50 * GBPS);
    EXPECT_EQ(m_cuts[1].at, NanoSeconds(23300));
    EXPECT_EQ(m_cuts[1].bps, 25 * GBPS);
}

// The check clock keeps its phase: CNPs at 1 us (first), 6 us and 9 us. Ticks at 5, 9, 13 us.
// The CNP at 6 us is cut at 9 us; the one at exactly 9 us comes after that tick has run
// (the tick found the flag of the 6 us CNP), so it is cut at 13 us.
TEST_F(DcqcnRateDecreaseTest, LaterCnpsUseTheTicksOfTheFirstCnpsClock)
{
    Ptr<RdmaDcqcn> cc = Make(MicroSeconds(4));
    Simulator::Schedule(MicroSeconds(1), &RdmaDcqcn::OnCnp, cc);
    Simulator::Schedule(MicroSeconds(6), &RdmaDcqcn::OnCnp, cc);
    // Scheduled at 6 us, so after the tick at 9 us (scheduled at 6 us by the earlier CNP).
    Simulator::Schedule(MicroSeconds(6),
                        [cc]() { Simulator::Schedule(MicroSeconds(3), &RdmaDcqcn::OnCnp, cc); });
    RunUntil(MicroSeconds(20));
    ASSERT_EQ(m_cuts.size(), 3U);
    EXPECT_EQ(m_cuts[0].at, MicroSeconds(5));
    EXPECT_EQ(m_cuts[1].at, MicroSeconds(9));
    EXPECT_EQ(m_cuts[2].at, MicroSeconds(13));
}

// SinceLastCut (the firmware profile's timing): the first CNP cuts at once, a CNP within
// the interval after a cut waits until the interval ends.
TEST_F(DcqcnRateDecreaseTest, SinceLastCutCutsAtOnceThenHoldsOff)
{
    Ptr<RdmaDcqcn> cc = Make(MicroSeconds(4), RdmaDcqcn::SINCE_LAST_CUT);
    CnpTrain(cc, MicroSeconds(10), NanoSeconds(500), 8); // 10 ... 13.5 us
    Simulator::Schedule(MicroSeconds(30), &RdmaDcqcn::OnCnp, cc);
    RunUntil(MicroSeconds(40));
    ASSERT_EQ(m_cuts.size(), 3U);
    EXPECT_EQ(m_cuts[0].at, MicroSeconds(10));
    EXPECT_EQ(m_cuts[1].at, MicroSeconds(14));
    EXPECT_EQ(m_cuts[2].at, MicroSeconds(30));
}

// Fork copies the interval and timing; Init clears a pending decrease and the clock.
TEST_F(DcqcnRateDecreaseTest, ForkCopiesTheIntervalAndInitClearsTheClock)
{
    Ptr<RdmaDcqcn> cc = Make(MicroSeconds(4));
    Ptr<RdmaDcqcn> copy = DynamicCast<RdmaDcqcn>(cc->Fork());
    TimeValue t;
    copy->GetAttribute("RateDecreaseInterval", t);
    EXPECT_EQ(t.Get(), MicroSeconds(4));
    Simulator::Schedule(MicroSeconds(1), &RdmaDcqcn::OnCnp, cc);
    RunUntil(MicroSeconds(2));
    EXPECT_TRUE(cc->IsRateDecreasePending());
    cc->Init(&m_state);
    EXPECT_FALSE(cc->IsRateDecreasePending());
    RunUntil(MicroSeconds(10));
    EXPECT_TRUE(m_cuts.empty()); // the check at 5 us was cancelled
    // A new first CNP at 10 us starts a new clock: cut at 14 us.
    Simulator::Schedule(Time(0), &RdmaDcqcn::OnCnp, cc);
    RunUntil(MicroSeconds(20));
    ASSERT_EQ(m_cuts.size(), 1U);
    EXPECT_EQ(m_cuts[0].at, MicroSeconds(14));
}

// NP with CnpInterval 0: a CNP for every CE-marked packet, also back to back at the
// same instant; none for unmarked packets.
TEST_F(DcqcnRateDecreaseTest, NpWithCnpIntervalZeroAnswersEveryMarkedPacket)
{
    m_state.m_lineRate = DataRate("100Gbps");
    Ptr<RdmaDcqcn> cc = CreateObject<RdmaDcqcn>();
    cc->SetAttribute("CnpInterval", TimeValue(Time(0)));
    cc->Init(&m_state);
    uint32_t cnps = 0;
    uint32_t marked = 0;
    for (uint32_t k = 0; k < 1000; ++k)
    {
        const bool ce = (k % 3) != 0;
        marked += ce ? 1 : 0;
        Simulator::Schedule(NanoSeconds(80) * (k / 2), // two packets per instant
                            [&cnps, cc, ce]() { cnps += cc->OnDataReceived(ce) ? 1 : 0; });
    }
    Simulator::Run();
    EXPECT_EQ(marked, 666U);
    EXPECT_EQ(cnps, marked);
}

/** CE marks in the data class over the switch and the CNPs of one bottleneck run. */
struct MarkCount
{
    uint64_t marks{0};        //!< CE marks the switch set on data packets
    uint64_t cnpsSent{0};     //!< CNPs the receiver's QPs sent
    uint64_t cnpsReceived{0}; //!< CNPs the senders' QPs received
};

/**
 * Two senders write 1 MB each into one receiver through a 40 Gb/s switch that marks
 * every data packet finding a queue; every NIC runs RdmaDcqcn with \p cnpInterval and
 * RateDecreaseInterval 4 us (the hpcc-dcqcn profile's RP). Runs until both complete.
 */
MarkCount
RunMarkedIncast(Time cnpInterval)
{
    DcbHelper dcb;
    dcb.SetEcnMarkerAttribute("Kmin", QueueSizeValue(QueueSize("0B")));
    dcb.SetEcnMarkerAttribute("Kmax", QueueSizeValue(QueueSize("0B")));
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::RdmaDcqcn");
    rdma.SetCongestionControlAttribute("CnpInterval", TimeValue(cnpInterval));
    rdma.SetCongestionControlAttribute("RateDecreaseInterval", TimeValue(MicroSeconds(4)));
    RdmaLeafSpineFabric f = BuildStar(3, "40Gbps", MicroSeconds(1), dcb, rdma);
    std::vector<std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>> qps;
    for (uint32_t s = 0; s < 2; ++s)
    {
        qps.push_back(RdmaHelper::Connect(f.GetNics()[s], f.GetNics()[2]));
        RdmaWorkRequest wr;
        wr.verb = RdmaVerb::Write;
        wr.length = 1000000;
        qps.back().first->PostSend(wr);
    }
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    MarkCount c;
    const uint8_t tc = qps[0].first->GetTrafficClass();
    Ptr<DcbSwitch> sw = f.GetSwitch(0);
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        c.marks += sw->GetEcnMarker(p) ? sw->GetEcnMarker(p)->GetMarks(tc) : 0;
    }
    for (const auto& [sender, receiver] : qps)
    {
        EXPECT_EQ(sender->GetCounters().payloadBytesSent, 1000000U); // complete, no resend
        c.cnpsSent += receiver->GetCounters().cnpsSent;
        c.cnpsReceived += sender->GetCounters().cnpsReceived;
    }
    Simulator::Destroy();
    return c;
}

// With CnpInterval 0 the receiver answers every CE-marked packet with a CNP packet (the
// peer's CNP flag on each marked packet's ACK); with 4 us (the profile before) it sends fewer.
TEST(DcqcnCnpPerMarkedPacket, ReceiverSendsACnpForEveryMarkedPacket)
{
    const MarkCount every = RunMarkedIncast(Time(0));
    EXPECT_GT(every.marks, 100U);
    EXPECT_EQ(every.cnpsSent, every.marks);
    EXPECT_EQ(every.cnpsReceived, every.cnpsSent); // CNPs travel in the lossy high class

    const MarkCount limited = RunMarkedIncast(MicroSeconds(4));
    EXPECT_GT(limited.marks, 100U);
    EXPECT_LT(limited.cnpsSent, limited.marks);
}

// The one clock arithmetic of PeriodicCheck and CnpPeriods: the first tick strictly after
// now, a tick at now having run already.
TEST(DcqcnClockTest, NextTickIsTheFirstTickStrictlyAfterNow)
{
    const Time origin = MicroSeconds(3);
    const Time period = MicroSeconds(4);
    EXPECT_EQ(RdmaDcqcn::NextTick(origin, period, origin), MicroSeconds(7));
    EXPECT_EQ(RdmaDcqcn::NextTick(origin, period, MicroSeconds(6)), MicroSeconds(7));
    EXPECT_EQ(RdmaDcqcn::NextTick(origin, period, MicroSeconds(7)), MicroSeconds(11));
    EXPECT_EQ(RdmaDcqcn::NextTick(origin, period, MicroSeconds(7) + NanoSeconds(1)),
              MicroSeconds(11));
    EXPECT_EQ(RdmaDcqcn::NextTick(origin, period, MicroSeconds(403)), MicroSeconds(407));
}

} // namespace
} // namespace ns3
