// Unit tests of the two reaction-point rules of the HPCC simulator's DCQCN that
// RdmaDcqcn offers as attributes (the hpcc-dcqcn NIC profile sets both):
// AlphaUpdate CnpPeriods (alpha rises once per alpha period in which a CNP arrived,
// on a clock started by the first CNP; a cut leaves alpha unchanged) and
// IncreaseStages TimerOnly (increase events from the rate timer alone, staged by the
// number of earlier expiries since the cut, one RateHAI per hyper-increase event,
// no halved period). Each test has a control with the paper's rule that gives other
// numbers. The algorithm is driven directly (OnCnp, OnDataSent); time by
// Simulator::Schedule/Stop/Run.
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/rdma-cc-state.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>

namespace ns3
{
namespace
{

constexpr uint64_t GBPS = 1000000000ULL;
constexpr double G = 1.0 / 16.0;

class DcqcnHpccRulesTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /** A DCQCN at 100 Gb/s, alpha period 1 us, g 1/16, cutting on every CNP. */
    Ptr<RdmaDcqcn> Make(RdmaDcqcn::AlphaUpdate alpha, RdmaDcqcn::IncreaseStages stages)
    {
        m_state.m_lineRate = DataRate("100Gbps");
        Ptr<RdmaDcqcn> cc = CreateObject<RdmaDcqcn>();
        cc->SetAttribute("G", DoubleValue(G));
        cc->SetAttribute("AlphaUpdatePeriod", TimeValue(MicroSeconds(1)));
        cc->SetAttribute("AlphaUpdate", EnumValue(alpha));
        cc->SetAttribute("IncreaseStages", EnumValue(stages));
        return cc;
    }

    static void RunUntil(Time t)
    {
        Simulator::Stop(t - Simulator::Now());
        Simulator::Run();
    }

    uint64_t Rate() const { return m_state.m_rate.GetBitRate(); }
    uint64_t Target() const { return m_state.m_targetRate.GetBitRate(); }

    RdmaCcState m_state;
};

// CnpPeriods: the first CNP (10 us) sets alpha to InitialAlpha and starts the periods
// (ends at 11, 12, 13, ... us); CNPs at 12.5 and 13.2 us flag the periods ending at 13
// and 14 us. The cut at the first CNP uses alpha = 0.5 and leaves it unchanged.
TEST_F(DcqcnHpccRulesTest, AlphaRisesOncePerPeriodWithACnp)
{
    Ptr<RdmaDcqcn> cc = Make(RdmaDcqcn::ALPHA_CNP_PERIODS, RdmaDcqcn::STAGES_PAPER);
    cc->SetAttribute("InitialAlpha", DoubleValue(0.5));
    cc->Init(&m_state);
    m_state.m_alpha = 0.9; // overwritten by the first CNP
    Simulator::Schedule(MicroSeconds(10), &RdmaDcqcn::OnCnp, cc);
    RunUntil(NanoSeconds(10001));
    EXPECT_DOUBLE_EQ(m_state.m_alpha, 0.5);
    EXPECT_EQ(Rate(), 75 * GBPS); // 100 (1 - 0.5 / 2)

    Simulator::Schedule(NanoSeconds(2500 - 1), &RdmaDcqcn::OnCnp, cc); // 12.5 us
    Simulator::Schedule(NanoSeconds(3200 - 1), &RdmaDcqcn::OnCnp, cc); // 13.2 us
    RunUntil(NanoSeconds(12999));
    double expected = 0.5 * (1 - G) * (1 - G); // periods ending 11, 12 us: no CNP
    EXPECT_NEAR(m_state.m_alpha, expected, 1e-12);
    RunUntil(NanoSeconds(13001));
    expected = (1 - G) * expected + G; // period ending 13 us had the 12.5 us CNP
    EXPECT_NEAR(m_state.m_alpha, expected, 1e-12);
    RunUntil(NanoSeconds(14001));
    expected = (1 - G) * expected + G; // 13.2 us
    EXPECT_NEAR(m_state.m_alpha, expected, 1e-12);
    RunUntil(NanoSeconds(15001));
    expected = (1 - G) * expected; // none
    EXPECT_NEAR(m_state.m_alpha, expected, 1e-12);
    EXPECT_TRUE(cc->IsAlphaTimerRunning());
}

// Control: the paper's rule raises alpha at each cut (here every CNP cuts).
TEST_F(DcqcnHpccRulesTest, AlphaAtCutControl)
{
    Ptr<RdmaDcqcn> cc = Make(RdmaDcqcn::ALPHA_AT_CUT, RdmaDcqcn::STAGES_PAPER);
    cc->SetAttribute("InitialAlpha", DoubleValue(0.5));
    cc->Init(&m_state);
    Simulator::Schedule(MicroSeconds(10), &RdmaDcqcn::OnCnp, cc);
    RunUntil(NanoSeconds(10001));
    EXPECT_EQ(Rate(), 75 * GBPS);
    EXPECT_DOUBLE_EQ(m_state.m_alpha, (1 - G) * 0.5 + G);
}

// The clock keeps its phase: once alpha has decayed below the stop threshold the
// timer stops, and a later CNP resumes it at the next period end of the first clock.
TEST_F(DcqcnHpccRulesTest, AlphaClockResumesInPhase)
{
    Ptr<RdmaDcqcn> cc = Make(RdmaDcqcn::ALPHA_CNP_PERIODS, RdmaDcqcn::STAGES_PAPER);
    cc->SetAttribute("G", DoubleValue(0.5));
    cc->Init(&m_state);
    Simulator::Schedule(NanoSeconds(300), &RdmaDcqcn::OnCnp, cc);
    RunUntil(MicroSeconds(100)); // 1 * 0.5^k falls below 1e-6 after 20 periods
    EXPECT_FALSE(cc->IsAlphaTimerRunning());
    const double before = m_state.m_alpha;
    Simulator::Schedule(NanoSeconds(450), &RdmaDcqcn::OnCnp, cc); // at 100.45 us
    RunUntil(NanoSeconds(101299)); // periods end at k + 0.3 us: the next is 101.3 us
    EXPECT_DOUBLE_EQ(m_state.m_alpha, before);
    EXPECT_TRUE(cc->IsAlphaTimerRunning());
    RunUntil(NanoSeconds(101301));
    EXPECT_DOUBLE_EQ(m_state.m_alpha, 0.5 * before + 0.5);
}

// TimerOnly with F = 1, T_inc 100 us: two CNPs (0 and 0.5 us) cut 100 -> 50 -> 25 Gb/s
// with the target clamped to 50 Gb/s; the expiries at 100.5, 200.5, ... us are fast
// recovery (stage 0), additive (stage 1 = F) and hyper increase (stages 2, 3, 4),
// each hyper event adding RateHAI once, at an unchanged period; the byte counter is
// not used.
TEST_F(DcqcnHpccRulesTest, TimerOnlyStages)
{
    Ptr<RdmaDcqcn> cc = Make(RdmaDcqcn::ALPHA_CNP_PERIODS, RdmaDcqcn::STAGES_TIMER);
    cc->SetAttribute("FastRecoveryTimes", UintegerValue(1));
    cc->SetAttribute("RateIncreaseTimer", TimeValue(MicroSeconds(100)));
    cc->SetAttribute("RateAI", DataRateValue(DataRate("1Gbps")));
    cc->SetAttribute("RateHAI", DataRateValue(DataRate("10Gbps")));
    cc->SetAttribute("ClampTargetRate", BooleanValue(true));
    cc->Init(&m_state);
    cc->OnCnp();
    Simulator::Schedule(NanoSeconds(500), &RdmaDcqcn::OnCnp, cc);
    RunUntil(NanoSeconds(501));
    EXPECT_EQ(Rate(), 25 * GBPS);
    EXPECT_EQ(Target(), 50 * GBPS);
    cc->OnDataSent(4000000000U); // no byte-counter events
    EXPECT_EQ(cc->GetByteStageCount(), 0U);
    EXPECT_EQ(Rate(), 25 * GBPS);

    RunUntil(NanoSeconds(100501));
    EXPECT_EQ(cc->GetStage(), RdmaDcqcn::FAST_RECOVERY);
    EXPECT_EQ(Target(), 50 * GBPS);
    EXPECT_EQ(Rate(), 37500000000ULL);
    RunUntil(NanoSeconds(200501));
    EXPECT_EQ(cc->GetStage(), RdmaDcqcn::ADDITIVE_INCREASE);
    EXPECT_EQ(Target(), 51 * GBPS);
    EXPECT_EQ(Rate(), 44250000000ULL);
    RunUntil(NanoSeconds(300501));
    EXPECT_EQ(cc->GetStage(), RdmaDcqcn::HYPER_INCREASE);
    EXPECT_EQ(Target(), 61 * GBPS);
    EXPECT_EQ(Rate(), 52625000000ULL);
    RunUntil(NanoSeconds(400499)); // the period is not halved in hyper increase
    EXPECT_EQ(Rate(), 52625000000ULL);
    RunUntil(NanoSeconds(400501));
    EXPECT_EQ(Target(), 71 * GBPS); // + RateHAI once, not twice
    EXPECT_EQ(Rate(), 61812500000ULL);
    RunUntil(NanoSeconds(500501));
    EXPECT_EQ(Target(), 81 * GBPS);
    EXPECT_EQ(Rate(), 71406250000ULL);
}

// Control: the paper's staging with the byte counter off never leaves additive
// increase (min(T, BC) stays 0) — the rule the HPCC simulator does not have.
TEST_F(DcqcnHpccRulesTest, PaperStagesWithoutByteCounterControl)
{
    Ptr<RdmaDcqcn> cc = Make(RdmaDcqcn::ALPHA_AT_CUT, RdmaDcqcn::STAGES_PAPER);
    cc->SetAttribute("FastRecoveryTimes", UintegerValue(1));
    cc->SetAttribute("RateIncreaseTimer", TimeValue(MicroSeconds(100)));
    cc->SetAttribute("RateAI", DataRateValue(DataRate("1Gbps")));
    cc->SetAttribute("RateHAI", DataRateValue(DataRate("10Gbps")));
    cc->SetAttribute("ClampTargetRate", BooleanValue(true));
    cc->SetAttribute("ByteCounter", UintegerValue(0));
    cc->Init(&m_state);
    cc->OnCnp();
    Simulator::Schedule(NanoSeconds(500), &RdmaDcqcn::OnCnp, cc);
    RunUntil(NanoSeconds(400501));
    EXPECT_EQ(cc->GetStage(), RdmaDcqcn::ADDITIVE_INCREASE);
    EXPECT_EQ(Target(), 54 * GBPS);
}

// Copies (Fork) keep both rules.
TEST_F(DcqcnHpccRulesTest, ForkKeepsTheRules)
{
    Ptr<RdmaDcqcn> cc = Make(RdmaDcqcn::ALPHA_CNP_PERIODS, RdmaDcqcn::STAGES_TIMER);
    Ptr<RdmaCongestionOps> copy = cc->Fork();
    EnumValue alpha;
    EnumValue stages;
    copy->GetAttribute("AlphaUpdate", alpha);
    copy->GetAttribute("IncreaseStages", stages);
    EXPECT_EQ(alpha.Get(), RdmaDcqcn::ALPHA_CNP_PERIODS);
    EXPECT_EQ(stages.Get(), RdmaDcqcn::STAGES_TIMER);
}

} // namespace
} // namespace ns3
