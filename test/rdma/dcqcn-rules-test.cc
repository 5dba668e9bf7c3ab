// The four DCQCN rule families as values, with no simulator and no network: what each
// rule decides for given counters and times (RdmaDcqcn wires them to the per-QP state;
// dcqcn-test.cc, dcqcn-hpcc-rules-test.cc and dcqcn-gen-test.cc run them in it).
#include "ns3/rdma-dcqcn-params.h"

#include <gtest/gtest.h>

namespace ns3
{
namespace
{

TEST(DcqcnRulesTest, AlphaRuleCutsAndPeriods)
{
    RdmaDcqcnAlphaRule paper;
    // Paper eq. (1): the cut uses the alpha before the CNP, then alpha rises by g.
    const RdmaDcqcnAlphaRule::Cut cut = paper.AtCut(0.5);
    EXPECT_EQ(cut.used, 0.5);
    EXPECT_EQ(cut.after, (1.0 - 1.0 / 256) * 0.5 + 1.0 / 256);
    paper.order = RdmaDcqcnAlphaRule::UPDATE_THEN_CUT;
    EXPECT_EQ(paper.AtCut(0.5).used, cut.after);
    // The per-period rules leave alpha to the clock: a cut does not move it.
    RdmaDcqcnAlphaRule hpcc;
    hpcc.update = RdmaDcqcnAlphaRule::ALPHA_CNP_PERIODS;
    hpcc.period = MicroSeconds(1);
    EXPECT_EQ(hpcc.AtCut(0.5).used, 0.5);
    EXPECT_EQ(hpcc.AtCut(0.5).after, 0.5);
    // A stopped clock resumes at its next tick (HPCC) or one period after the CNP (firmware).
    EXPECT_EQ(hpcc.Resume(MicroSeconds(10), NanoSeconds(12300)), NanoSeconds(700));
    RdmaDcqcnAlphaRule fw = hpcc;
    fw.update = RdmaDcqcnAlphaRule::ALPHA_ACTIVE;
    EXPECT_EQ(fw.Resume(MicroSeconds(10), NanoSeconds(12300)), MicroSeconds(1));
    // Below the stop threshold only the firmware clock runs on, and only after a CNP.
    EXPECT_FALSE(hpcc.RunsOn(1e-7, true));
    EXPECT_TRUE(fw.RunsOn(1e-7, true));
    EXPECT_FALSE(fw.RunsOn(1e-7, false));
    EXPECT_EQ(RdmaDcqcnNextTick(MicroSeconds(10), MicroSeconds(4), MicroSeconds(18)),
              MicroSeconds(22)); // a tick at now has run already
}

TEST(DcqcnRulesTest, RateDecreaseClock)
{
    RdmaDcqcnRateDecreaseClock paper;
    EXPECT_TRUE(paper.CutsNow(true, MicroSeconds(1), MicroSeconds(1))); // a cut per CNP
    RdmaDcqcnRateDecreaseClock hpcc;
    hpcc.interval = MicroSeconds(4);
    EXPECT_FALSE(hpcc.CutsNow(false, Time(0), MicroSeconds(5))); // the first cut waits a tick
    EXPECT_EQ(hpcc.NextCheck(Time(0), MicroSeconds(5), MicroSeconds(7)), MicroSeconds(9));
    RdmaDcqcnRateDecreaseClock fw = hpcc;
    fw.timing = RdmaDcqcnRateDecreaseClock::SINCE_LAST_CUT;
    EXPECT_TRUE(fw.CutsNow(false, Time(0), MicroSeconds(5)));
    EXPECT_FALSE(fw.CutsNow(true, MicroSeconds(5), MicroSeconds(8)));
    EXPECT_TRUE(fw.CutsNow(true, MicroSeconds(5), MicroSeconds(9)));
    EXPECT_EQ(fw.NextCheck(MicroSeconds(5), Time(0), MicroSeconds(8)), MicroSeconds(9));
}

TEST(DcqcnRulesTest, IncreaseStagesAndClamp)
{
    using R = RdmaDcqcnIncreaseRule;
    R paper; // F = 5, AI 40 Mb/s, HAI 200 Mb/s
    EXPECT_EQ(paper.Increase(R::FAST_RECOVERY, 4, 0, 4).increase, 0u);
    EXPECT_EQ(paper.Increase(R::FAST_RECOVERY, 5, 0, 5).stage, R::ADDITIVE_INCREASE);
    const R::Event hyper = paper.Increase(R::ADDITIVE_INCREASE, 7, 6, 7);
    EXPECT_EQ(hyper.stage, R::HYPER_INCREASE);
    EXPECT_EQ(hyper.increase, 2 * 200000000ULL); // i = min(T, BC) - F + 1 = 2
    EXPECT_EQ(paper.TimerPeriod(R::HYPER_INCREASE), MicroSeconds(55) / 2);
    EXPECT_TRUE(paper.ClampsAtCut(1, 0)); // after any increase (ClampTargetRateAfterTimeInc)
    EXPECT_FALSE(paper.ClampsAtCut(0, 0));
    R hpcc;
    hpcc.stages = R::STAGES_TIMER;
    hpcc.fastRecoveryTimes = 1;
    EXPECT_FALSE(hpcc.CountsBytes());
    EXPECT_EQ(hpcc.Increase(R::FAST_RECOVERY, 1, 0, 1).stage, R::FAST_RECOVERY);
    EXPECT_EQ(hpcc.Increase(R::FAST_RECOVERY, 2, 0, 2).stage, R::ADDITIVE_INCREASE);
    EXPECT_EQ(hpcc.Increase(R::ADDITIVE_INCREASE, 9, 0, 9).increase, 200000000ULL);
    EXPECT_EQ(hpcc.TimerPeriod(R::HYPER_INCREASE), MicroSeconds(55));
}

TEST(DcqcnRulesTest, CnpPolicyWindow)
{
    RdmaDcqcnCnpPolicy np; // 50 us
    EXPECT_FALSE(np.Sends(false, false, Time(0), Time(0)));
    EXPECT_TRUE(np.Sends(true, false, Time(0), Time(0)));
    EXPECT_FALSE(np.Sends(true, true, MicroSeconds(10), MicroSeconds(59)));
    EXPECT_TRUE(np.Sends(true, true, MicroSeconds(10), MicroSeconds(60)));
    np.interval = Time(0); // the firmware's np_min_time_between_cnps 0: every marked packet
    EXPECT_TRUE(np.Sends(true, true, MicroSeconds(10), MicroSeconds(10)));
}

} // namespace
} // namespace ns3
