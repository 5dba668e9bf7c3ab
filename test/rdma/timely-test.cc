// TIMELY (SIGCOMM'15) update rules on a bare RdmaCcState, and its defining behaviour on
// a fabric: the rate follows the RTT gradient as a competing flow comes and goes.
#include "rdma-test-fabric.h"

#include "ns3/double.h"
#include "ns3/rdma-no-congestion-control.h"
#include "ns3/rdma-timely.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

RdmaAckSample
Sample(Time rtt)
{
    RdmaAckSample s;
    s.ackedBytes = 1024;
    s.rtt = rtt;
    return s;
}

class TimelyUnitTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        cc = CreateObject<RdmaTimely>();
        state.m_lineRate = DataRate("100Gbps");
        cc->Init(&state);
        state.m_rate = DataRate("50Gbps");
    }

    double Gbps() const { return state.m_rate.GetBitRate() / 1e9; }

    RdmaCcState state;
    Ptr<RdmaTimely> cc;
};

TEST_F(TimelyUnitTest, StartsAtLineRateAndAsksForRttSamples)
{
    RdmaCcState fresh;
    fresh.m_lineRate = DataRate("100Gbps");
    fresh.m_rate = DataRate("1Gbps");
    Ptr<RdmaCongestionOps> c = cc->Fork();
    c->Init(&fresh);
    EXPECT_EQ(fresh.m_rate, DataRate("100Gbps"));
    EXPECT_TRUE(c->WantsRttSamples());
}

TEST_F(TimelyUnitTest, FirstSampleOnlyPrimesAndSamplesWithoutRttAreIgnored)
{
    cc->OnAck(Sample(MicroSeconds(100)));
    EXPECT_EQ(Gbps(), 50.0);
    cc->OnAck(Sample(Time(0)));
    EXPECT_EQ(Gbps(), 50.0);
}

TEST_F(TimelyUnitTest, BelowTlowAddsDeltaWhateverTheGradient)
{
    cc->OnAck(Sample(MicroSeconds(10)));
    cc->OnAck(Sample(MicroSeconds(40))); // rising, but < Tlow = 50 us
    EXPECT_DOUBLE_EQ(Gbps(), 50.01);
}

TEST_F(TimelyUnitTest, AboveThighCutsByBetaTimesExcess)
{
    cc->OnAck(Sample(MicroSeconds(600)));
    cc->OnAck(Sample(MicroSeconds(1000)));
    // 50 x (1 - 0.8 (1 - 500/1000)) = 30
    EXPECT_NEAR(Gbps(), 30.0, 1e-6);
}

TEST_F(TimelyUnitTest, PositiveGradientCutsByBetaTimesNormalisedGradient)
{
    cc->OnAck(Sample(MicroSeconds(100)));
    cc->OnAck(Sample(MicroSeconds(104)));
    // rtt_diff = 0.875 x 4 us = 3.5 us; gradient = 3.5 / 20 = 0.175;
    // 50 x (1 - 0.8 x 0.175) = 43
    EXPECT_NEAR(cc->GetRttDiff().GetNanoSeconds(), 3500, 1);
    EXPECT_NEAR(Gbps(), 43.0, 1e-6);
}

TEST_F(TimelyUnitTest, NegativeGradientAddsDeltaThenHaiAfterFiveSamples)
{
    cc->OnAck(Sample(MicroSeconds(200)));
    double last = Gbps();
    for (uint32_t i = 1; i <= 7; ++i)
    {
        cc->OnAck(Sample(MicroSeconds(200 - i)));
        const double step = Gbps() - last;
        last = Gbps();
        // samples 1..4: delta; from the 5th consecutive non-positive gradient: 5 delta
        EXPECT_NEAR(step, i < 5 ? 0.01 : 0.05, 1e-9) << "sample " << i;
    }
    EXPECT_EQ(cc->GetNegativeGradientCount(), 7u);
    cc->OnAck(Sample(MicroSeconds(300))); // a rise resets the HAI count
    EXPECT_EQ(cc->GetNegativeGradientCount(), 0u);
}

TEST_F(TimelyUnitTest, RateStaysWithinMinRateAndLineRate)
{
    cc->OnAck(Sample(MicroSeconds(100)));
    cc->OnAck(Sample(MicroSeconds(400))); // gradient 13: far below zero before the floor
    EXPECT_EQ(state.m_rate, DataRate("100Mbps"));
    state.m_rate = DataRate("100Gbps");
    cc->OnAck(Sample(MicroSeconds(10)));
    EXPECT_EQ(state.m_rate, DataRate("100Gbps"));
}

TEST(TimelyCheck, RejectsTlowNotBelowThigh)
{
    Ptr<RdmaTimely> cc = CreateObject<RdmaTimely>();
    cc->SetAttribute("Tlow", TimeValue(MicroSeconds(500)));
    std::string attribute;
    std::string reason;
    EXPECT_FALSE(cc->CheckAttributes(DataRate("100Gbps"), attribute, reason));
    EXPECT_EQ(attribute, "Tlow");
    EXPECT_NE(reason.find("Thigh"), std::string::npos);
}

// ------------------------------------------------------------------ scenario

/** Rates of flow A sampled every 2 us, with A alone, then with B, then alone again. */
struct GradientRun
{
    double aloneBefore{0}; //!< mean rate of A (Gb/s) before B starts
    double shared{0};      //!< mean rate of A while B runs (after its first 20 us)
    double aloneAfter{0};  //!< mean rate of A in the last 100 us, after B finished
};

void
SampleRate(Ptr<RdmaQueuePair> qp, std::vector<std::pair<Time, double>>* out)
{
    out->emplace_back(Simulator::Now(), qp->GetCcState().m_rate.GetBitRate() / 1e9);
    Simulator::Schedule(MicroSeconds(2), &SampleRate, qp, out);
}

double
MeanBetween(const std::vector<std::pair<Time, double>>& s, Time from, Time to)
{
    double sum = 0;
    uint32_t n = 0;
    for (const auto& [t, r] : s)
    {
        if (t >= from && t < to)
        {
            sum += r;
            ++n;
        }
    }
    return n ? sum / n : 0;
}

/**
 * Hosts 0 and 1 write to host 2 through one switch (100 Gb/s, 1 us links, base RTT
 * about 4.2 us). A starts at 0; B writes 1 MB from 100 us (about 80 us at line
 * rate alone; it ends near 400 us). TIMELY thresholds scaled to this fabric: Tlow 6 us,
 * Thigh 100 us, minRTT 5 us; additive step 50 Mb/s (the paper's 10 Mb/s is for 10 Gb/s).
 */
GradientRun
RunGradient(Ptr<RdmaCongestionOps> cc)
{
    DcbHelper dcb;
    RdmaHelper rdma;
    RdmaLeafSpineFabric f = BuildStar(3, "100Gbps", MicroSeconds(1), dcb, rdma);
    f.GetNics()[0]->SetCongestionControl(cc);
    f.GetNics()[1]->SetCongestionControl(cc);
    auto [qa, qa2] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[2]);
    auto [qb, qb2] = RdmaHelper::Connect(f.GetNics()[1], f.GetNics()[2]);
    RdmaWorkRequest a;
    a.verb = RdmaVerb::Write;
    a.length = 100000000ULL;
    qa->PostSend(a);
    RdmaWorkRequest b = a;
    b.length = 1000000;
    Simulator::Schedule(MicroSeconds(100), &RdmaQueuePair::PostSend, qb, b);
    std::vector<std::pair<Time, double>> rates;
    Simulator::Schedule(MicroSeconds(2), &SampleRate, qa, &rates);
    Simulator::Stop(MicroSeconds(700));
    Simulator::Run();
    GradientRun r;
    r.aloneBefore = MeanBetween(rates, MicroSeconds(50), MicroSeconds(100));
    r.shared = MeanBetween(rates, MicroSeconds(120), MicroSeconds(200));
    r.aloneAfter = MeanBetween(rates, MicroSeconds(600), MicroSeconds(700));
    Simulator::Destroy();
    return r;
}

Ptr<RdmaTimely>
ScaledTimely(double beta)
{
    Ptr<RdmaTimely> cc = CreateObject<RdmaTimely>();
    cc->SetAttribute("Tlow", TimeValue(MicroSeconds(6)));
    cc->SetAttribute("Thigh", TimeValue(MicroSeconds(100)));
    cc->SetAttribute("MinRtt", TimeValue(MicroSeconds(5)));
    cc->SetAttribute("Beta", DoubleValue(beta));
    // Steps scaled from the paper's 10 Gb/s to this 100 Gb/s fabric, per-packet ACKs.
    cc->SetAttribute("AdditiveStep", DataRateValue(DataRate("50Mbps")));
    return cc;
}

TEST(TimelyScenario, RateFallsWhileACompetingFlowRaisesRttAndRecoversAfterIt)
{
    const GradientRun r = RunGradient(ScaledTimely(0.8));
    RecordProperty("alone_before_gbps", std::to_string(r.aloneBefore));
    RecordProperty("shared_gbps", std::to_string(r.shared));
    RecordProperty("alone_after_gbps", std::to_string(r.aloneAfter));
    EXPECT_GT(r.aloneBefore, 95.0); // alone, RTT below Tlow: line rate
    EXPECT_LT(r.shared, 70.0);      // the second flow's queue raised RTT: A backs off
    EXPECT_GT(r.aloneAfter, 90.0);  // the queue drained: A climbs back
}

TEST(TimelyScenario, ControlsWithoutGradientReactionKeepTheRate)
{
    // beta = 0: the same samples and EWMA, no multiplicative decrease.
    const GradientRun noBeta = RunGradient(ScaledTimely(0.0));
    EXPECT_GT(noBeta.shared, 95.0);
    // No congestion control at all.
    const GradientRun none = RunGradient(CreateObject<RdmaNoCongestionControl>());
    EXPECT_GT(none.shared, 99.0);
}

} // namespace
