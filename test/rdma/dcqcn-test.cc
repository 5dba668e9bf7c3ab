// Unit tests of RdmaDcqcn and RdmaNoCongestionControl with no network: the
// algorithm is driven directly (OnCnp, OnDataSent, OnDataReceived) and time by
// Simulator::Schedule/Stop/Run. Expected values are the checks of
// design/spec-buffers-pfc-dcqcn.md section 8 (items 11, 12, 16) and hand
// computations from the formulas of its section 3.4, written out in comments.
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/rdma-cc-state.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/rdma-no-congestion-control.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <limits>
#include <vector>

namespace ns3
{
namespace
{

constexpr uint64_t MBPS = 1000000ULL;
constexpr uint64_t GBPS = 1000000000ULL;
constexpr uint64_t BYTE_COUNTER = 10000000ULL; // default B
constexpr double G = 1.0 / 256.0;              // default g

/** One RateChange trace sample. */
struct RateSample
{
    Time at;
    uint64_t oldBps;
    uint64_t newBps;
};

/** Records the RateChange trace of one RdmaDcqcn. */
class RateRecorder
{
  public:
    void Connect(Ptr<RdmaDcqcn> cc)
    {
        cc->TraceConnectWithoutContext("RateChange", MakeCallback(&RateRecorder::Record, this));
    }

    void Record(DataRate oldRate, DataRate newRate)
    {
        m_samples.push_back({Simulator::Now(), oldRate.GetBitRate(), newRate.GetBitRate()});
    }

    std::vector<RateSample> m_samples;
};

class RdmaDcqcnTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /** A DCQCN instance with default attributes; call Init after setting attributes. */
    Ptr<RdmaDcqcn> Make(DataRate lineRate)
    {
        m_state.m_lineRate = lineRate;
        return CreateObject<RdmaDcqcn>();
    }

    /** Run the simulator until absolute time \p t (no event sits exactly at t in these tests). */
    static void RunUntil(Time t)
    {
        Simulator::Stop(t - Simulator::Now());
        Simulator::Run();
    }

    uint64_t Rate() const { return m_state.m_rate.GetBitRate(); }

    uint64_t Target() const { return m_state.m_targetRate.GetBitRate(); }

    RdmaCcState m_state;
};

TEST_F(RdmaDcqcnTest, TypeIdAndDefaults)
{
    TypeId tid;
    ASSERT_TRUE(TypeId::LookupByNameFailSafe("ns3::RdmaDcqcn", &tid));
    EXPECT_EQ(tid.GetGroupName(), "Rdma");
    EXPECT_EQ(tid.GetParent(), RdmaCongestionOps::GetTypeId());

    Ptr<RdmaDcqcn> cc = CreateObject<RdmaDcqcn>();
    EXPECT_EQ(cc->GetName(), "Dcqcn");
    DoubleValue d;
    cc->GetAttribute("G", d);
    EXPECT_EQ(d.Get(), 1.0 / 256.0);
    cc->GetAttribute("InitialAlpha", d);
    EXPECT_EQ(d.Get(), 1.0);
    TimeValue t;
    cc->GetAttribute("AlphaUpdatePeriod", t);
    EXPECT_EQ(t.Get(), MicroSeconds(55));
    cc->GetAttribute("RateIncreaseTimer", t);
    EXPECT_EQ(t.Get(), MicroSeconds(55));
    cc->GetAttribute("CnpInterval", t);
    EXPECT_EQ(t.Get(), MicroSeconds(50));
    UintegerValue u;
    cc->GetAttribute("ByteCounter", u);
    EXPECT_EQ(u.Get(), 10000000U);
    cc->GetAttribute("FastRecoveryTimes", u);
    EXPECT_EQ(u.Get(), 5U);
    DataRateValue r;
    cc->GetAttribute("RateAI", r);
    EXPECT_EQ(r.Get(), DataRate("40Mbps"));
    cc->GetAttribute("RateHAI", r);
    EXPECT_EQ(r.Get(), DataRate("200Mbps"));
    cc->GetAttribute("MinRate", r);
    EXPECT_EQ(r.Get(), DataRate("100Mbps"));
    BooleanValue b;
    cc->GetAttribute("ClampTargetRate", b);
    EXPECT_FALSE(b.Get());
    cc->GetAttribute("ClampTargetRateAfterTimeInc", b);
    EXPECT_TRUE(b.Get());
    cc->GetAttribute("QcnTargetRateQuirk", b);
    EXPECT_FALSE(b.Get());
    EnumValue e;
    cc->GetAttribute("AlphaCutOrder", e);
    EXPECT_EQ(e.Get(), RdmaDcqcn::CUT_THEN_UPDATE);
}

TEST_F(RdmaDcqcnTest, InitStartsAtLineRateWithNoTimers)
{
    Ptr<RdmaDcqcn> cc = Make(DataRate("100Gbps"));
    cc->SetAttribute("InitialAlpha", DoubleValue(0.5));
    m_state.m_rate = DataRate("1Gbps");
    m_state.m_window = 1000;
    cc->Init(&m_state);
    EXPECT_EQ(Rate(), 100 * GBPS);
    EXPECT_EQ(Target(), 100 * GBPS);
    EXPECT_EQ(m_state.m_alpha, 0.5);
    EXPECT_EQ(m_state.m_window, std::numeric_limits<uint64_t>::max());
    EXPECT_FALSE(cc->IsRateTimerRunning());
    EXPECT_FALSE(cc->IsAlphaTimerRunning());
    // Bytes sent at line rate before any CNP change nothing.
    cc->OnDataSent(3 * BYTE_COUNTER);
    EXPECT_EQ(Rate(), 100 * GBPS);
    EXPECT_EQ(cc->GetByteStageCount(), 0U);
    Simulator::Run(); // nothing scheduled: returns at once
    EXPECT_EQ(Simulator::Now(), Time(0));
}

// Spec section 8, check 12: one cut at line rate with alpha = 1.
TEST_F(RdmaDcqcnTest, SingleCutAtLineRate)
{
    Ptr<RdmaDcqcn> cc = Make(DataRate("100Gbps"));
    cc->Init(&m_state);
    RateRecorder rec;
    rec.Connect(cc);
    cc->OnCnp();
    EXPECT_EQ(Rate(), 50 * GBPS);    // 100 * (1 - 1/2)
    EXPECT_EQ(Target(), 100 * GBPS); // no increase since the (virtual) last cut: no clamp
    EXPECT_EQ(m_state.m_alpha, 1.0); // (1 - g) * 1 + g
    EXPECT_EQ(cc->GetStage(), RdmaDcqcn::FAST_RECOVERY);
    EXPECT_TRUE(cc->IsRateTimerRunning());
    EXPECT_TRUE(cc->IsAlphaTimerRunning());
    ASSERT_EQ(rec.m_samples.size(), 1U);
    EXPECT_EQ(rec.m_samples[0].oldBps, 100 * GBPS);
    EXPECT_EQ(rec.m_samples[0].newBps, 50 * GBPS);
}

// With alpha < 1 the order of cut and alpha update is visible (spec section 7, item 8).
TEST_F(RdmaDcqcnTest, CutUsesAlphaBeforeUpdate)
{
    Ptr<RdmaDcqcn> cc = Make(DataRate("100Gbps"));
    cc->SetAttribute("InitialAlpha", DoubleValue(0.5));
    cc->Init(&m_state);
    cc->OnCnp();
    // Paper eq. (1): R_C = 100 * (1 - 0.5/2) = 75 Gbps, then alpha = 0.5 (1 - g) + g.
    EXPECT_EQ(Rate(), 75 * GBPS);
    EXPECT_EQ(m_state.m_alpha, 0.501953125);
}

TEST_F(RdmaDcqcnTest, UpdateThenCutOrderIsSelectable)
{
    Ptr<RdmaDcqcn> cc = Make(DataRate("100Gbps"));
    cc->SetAttribute("InitialAlpha", DoubleValue(0.5));
    cc->SetAttribute("AlphaCutOrder", EnumValue(RdmaDcqcn::UPDATE_THEN_CUT));
    cc->Init(&m_state);
    cc->OnCnp();
    // alpha = 0.501953125 first, then R_C = 100 * (1 - 0.501953125/2) = 74.90234375 Gbps.
    EXPECT_EQ(Rate(), 74902343750ULL);
    EXPECT_EQ(m_state.m_alpha, 0.501953125);
}

// Spec section 8, check 11 (first half): from R_C = 50, R_T = 100 Gbps, five increase steps
// 75, 87.5, 93.75, 96.875, 98.4375 Gbps. With F = 5 the spec's stage rule (counter < F after
// the increment) makes the 5th timer event an additive increase, whose R_T step is capped at
// the 100 Gbps line rate, so R_C is the same as after a 5th fast-recovery step; with F = 6 all
// five are fast recovery.
TEST_F(RdmaDcqcnTest, FastRecoveryFromHalfRate)
{
    for (uint32_t f : {5U, 6U})
    {
        Ptr<RdmaDcqcn> cc = Make(DataRate("100Gbps"));
        cc->SetAttribute("FastRecoveryTimes", UintegerValue(f));
        cc->Init(&m_state);
        cc->OnCnp();
        ASSERT_EQ(Rate(), 50 * GBPS);
        ASSERT_EQ(Target(), 100 * GBPS);
        RateRecorder rec;
        rec.Connect(cc);
        RunUntil(MicroSeconds(276)); // rate timer fires at 55, 110, 165, 220, 275 us
        const uint64_t expected[] = {75000000000ULL, 87500000000ULL, 93750000000ULL, 96875000000ULL,
                                     98437500000ULL};
        ASSERT_EQ(rec.m_samples.size(), 5U) << "F = " << f;
        for (size_t i = 0; i < 5; ++i)
        {
            EXPECT_EQ(rec.m_samples[i].at, MicroSeconds(55 * (i + 1)));
            EXPECT_EQ(rec.m_samples[i].newBps, expected[i]) << "step " << i + 1;
        }
        EXPECT_EQ(Rate(), 98437500000ULL);
        EXPECT_EQ(Target(), 100 * GBPS); // capped at the line rate
        EXPECT_EQ(cc->GetTimerStageCount(), 5U);
        EXPECT_EQ(cc->GetStage(), f == 5 ? RdmaDcqcn::ADDITIVE_INCREASE : RdmaDcqcn::FAST_RECOVERY);
        cc->Dispose();
        Simulator::Destroy();
    }
}

// Spec section 8, check 11 (second half): alpha decay with no CNP for 1 ms at g = 1/256,
// K = 55 us. The alpha timer, started by the CNP at t = 0, fires at 55, 110, ..., 990 us:
// exactly 18 times in 1 ms, so alpha = (255/256)^18 = 0.931974; the spec's 0.9313 is the
// continuous (255/256)^(1000/55).
TEST_F(RdmaDcqcnTest, AlphaDecayWithoutCnp)
{
    Ptr<RdmaDcqcn> cc = Make(DataRate("100Gbps"));
    cc->Init(&m_state);
    cc->OnCnp();
    ASSERT_EQ(m_state.m_alpha, 1.0);
    double expected = 1.0;
    for (int i = 0; i < 17; ++i)
    {
        expected *= 1.0 - G;
    }
    RunUntil(MicroSeconds(989));
    EXPECT_DOUBLE_EQ(m_state.m_alpha, expected); // 17 firings so far
    expected *= 1.0 - G;
    RunUntil(MilliSeconds(1));
    EXPECT_DOUBLE_EQ(m_state.m_alpha, expected); // 18 firings
    EXPECT_NEAR(m_state.m_alpha, std::pow(255.0 / 256.0, 18), 1e-12);
    EXPECT_NEAR(m_state.m_alpha, 0.9313, 1e-3);
}

// A CNP after the decay cuts with the decayed alpha and adds g.
TEST_F(RdmaDcqcnTest, CnpAfterDecayUsesDecayedAlpha)
{
    Ptr<RdmaDcqcn> cc = Make(DataRate("100Gbps"));
    cc->Init(&m_state);
    cc->OnCnp();
    RunUntil(MicroSeconds(56)); // one alpha decay and one fast-recovery step (R_C = 75 Gbps)
    const double alpha = 1.0 - G;
    ASSERT_EQ(m_state.m_alpha, alpha);
    ASSERT_EQ(Rate(), 75 * GBPS);
    cc->OnCnp();
    EXPECT_EQ(Target(), 75 * GBPS); // an increase happened since the last cut: clamp
    EXPECT_EQ(Rate(), static_cast<uint64_t>(std::llround(75e9 * (1.0 - alpha / 2.0))));
    EXPECT_EQ(Rate(), 37646484375ULL);
    EXPECT_EQ(m_state.m_alpha, (1.0 - G) * alpha + G);
}

// Repeated CNPs with no increase in between: R_C halves (alpha stays 1, the alpha timer never
// fires because every CNP restarts it) and stops at MinRate; R_T is never clamped.
TEST_F(RdmaDcqcnTest, RateNeverBelowMinRate)
{
    Ptr<RdmaDcqcn> cc = Make(DataRate("100Gbps"));
    cc->Init(&m_state);
    RateRecorder rec;
    rec.Connect(cc);
    for (int i = 0; i < 500; ++i)
    {
        Simulator::Schedule(MicroSeconds(20 * i), &RdmaDcqcn::OnCnp, cc);
    }
    RunUntil(MicroSeconds(20 * 500));
    ASSERT_EQ(rec.m_samples.size(), 10U);
    uint64_t rate = 100 * GBPS;
    for (size_t i = 0; i < 9; ++i)
    {
        rate /= 2; // exact down to 195.3125 Mbps
        EXPECT_EQ(rec.m_samples[i].newBps, rate) << "cut " << i + 1;
    }
    EXPECT_EQ(rec.m_samples[9].newBps, 100 * MBPS); // 97.65625 Mbps clamped to MinRate
    for (const auto& s : rec.m_samples)
    {
        EXPECT_GE(s.newBps, 100 * MBPS);
    }
    EXPECT_EQ(Rate(), 100 * MBPS);
    EXPECT_EQ(Target(), 100 * GBPS);
    EXPECT_EQ(m_state.m_alpha, 1.0);

    // Back-to-back CNPs with a higher MinRate.
    Ptr<RdmaDcqcn> cc2 = Make(DataRate("100Gbps"));
    RdmaCcState state2;
    state2.m_lineRate = DataRate("100Gbps");
    cc2->SetAttribute("MinRate", DataRateValue(DataRate("3Gbps")));
    cc2->Init(&state2);
    for (int i = 0; i < 200; ++i)
    {
        cc2->OnCnp();
        ASSERT_GE(state2.m_rate.GetBitRate(), 3 * GBPS);
    }
    EXPECT_EQ(state2.m_rate.GetBitRate(), 3 * GBPS);
    cc2->Dispose();
}

// Additive and hyper increase (line rate 400 Gbps, so that R_T is not capped):
//   CNP 1: R_C = 200, R_T = 400 Gbps. B bytes: BC = 1 -> fast recovery, R_C = 300.
//   CNP 2: BC != 0 -> R_T = 300 (clamp), R_C = 150, T = BC = 0.
//   Timer T = 1..4: fast recovery 225, 262.5, 281.25, 290.625; T = 5 (= F): additive,
//   R_T = 300.04, R_C = 295.3325.
//   Byte counter BC = 1..4 (stage AI, min(T, BC) < F): additive, R_T + 40 Mbps each.
//   BC = 5: min = 5 -> hyper, i = 1, R_T + 200 Mbps; the byte counter is now B/2.
//   BC = 6, 7 (B/2 each): min = 5 -> i = 1. Timer T = 6 at 330 us: min = 6 -> i = 2
//   (+400 Mbps); the timer period is now 27.5 us: T = 7 at 357.5 us, min = 7 -> i = 3.
TEST_F(RdmaDcqcnTest, AdditiveAndHyperIncrease)
{
    Ptr<RdmaDcqcn> cc = Make(DataRate("400Gbps"));
    cc->Init(&m_state);
    cc->OnCnp();
    ASSERT_EQ(Rate(), 200 * GBPS);
    cc->OnDataSent(BYTE_COUNTER);
    ASSERT_EQ(Rate(), 300 * GBPS);
    ASSERT_EQ(Target(), 400 * GBPS);
    cc->OnCnp();
    ASSERT_EQ(Target(), 300 * GBPS);
    ASSERT_EQ(Rate(), 150 * GBPS);
    ASSERT_EQ(cc->GetByteStageCount(), 0U);

    RunUntil(MicroSeconds(221));
    EXPECT_EQ(Rate(), 290625000000ULL);
    EXPECT_EQ(Target(), 300 * GBPS);
    EXPECT_EQ(cc->GetStage(), RdmaDcqcn::FAST_RECOVERY);
    RunUntil(MicroSeconds(276));
    EXPECT_EQ(cc->GetStage(), RdmaDcqcn::ADDITIVE_INCREASE);
    EXPECT_EQ(Target(), 300040000000ULL);
    EXPECT_EQ(Rate(), 295332500000ULL);

    const uint64_t aiTargets[] = {300080000000ULL, 300120000000ULL, 300160000000ULL,
                                  300200000000ULL};
    const uint64_t aiRates[] = {297706250000ULL, 298913125000ULL, 299536562500ULL, 299868281250ULL};
    for (int i = 0; i < 4; ++i)
    {
        cc->OnDataSent(BYTE_COUNTER);
        EXPECT_EQ(cc->GetStage(), RdmaDcqcn::ADDITIVE_INCREASE);
        EXPECT_EQ(Target(), aiTargets[i]) << "BC = " << i + 1;
        EXPECT_EQ(Rate(), aiRates[i]) << "BC = " << i + 1;
    }
    cc->OnDataSent(BYTE_COUNTER); // BC = 5
    EXPECT_EQ(cc->GetStage(), RdmaDcqcn::HYPER_INCREASE);
    EXPECT_EQ(Target(), 300400000000ULL);
    EXPECT_EQ(Rate(), 300134140625ULL);

    cc->OnDataSent(BYTE_COUNTER / 2); // BC = 6 after B/2 bytes
    EXPECT_EQ(cc->GetByteStageCount(), 6U);
    EXPECT_EQ(Target(), 300600000000ULL);
    EXPECT_NEAR(static_cast<double>(Rate()), 300367070312.5, 1.0);
    cc->OnDataSent(BYTE_COUNTER / 2 - 1);
    EXPECT_EQ(cc->GetByteStageCount(), 6U);
    cc->OnDataSent(1); // BC = 7
    EXPECT_EQ(cc->GetByteStageCount(), 7U);
    EXPECT_EQ(Target(), 300800000000ULL);
    EXPECT_NEAR(static_cast<double>(Rate()), 300583535156.25, 1.0);

    RunUntil(MicroSeconds(331)); // timer T = 6 at 330 us
    EXPECT_EQ(cc->GetTimerStageCount(), 6U);
    EXPECT_EQ(Target(), 301200000000ULL);
    EXPECT_NEAR(static_cast<double>(Rate()), 300891767578.125, 1.0);
    RunUntil(MicroSeconds(357));
    EXPECT_EQ(cc->GetTimerStageCount(), 6U);
    RunUntil(MicroSeconds(358)); // timer T = 7 at 357.5 us (period T_inc/2)
    EXPECT_EQ(cc->GetTimerStageCount(), 7U);
    EXPECT_EQ(Target(), 301800000000ULL);
    EXPECT_NEAR(static_cast<double>(Rate()), 301345883789.0625, 1.0);
}

// The byte counter alone drives increases: B bytes per event, in any chunking.
TEST_F(RdmaDcqcnTest, ByteCounterTriggersIncreases)
{
    Ptr<RdmaDcqcn> cc = Make(DataRate("100Gbps"));
    cc->Init(&m_state);
    cc->OnCnp();
    for (int i = 0; i < 9999; ++i)
    {
        cc->OnDataSent(1000);
    }
    EXPECT_EQ(Rate(), 50 * GBPS); // 9,999,000 bytes < B
    EXPECT_EQ(cc->GetByteStageCount(), 0U);
    cc->OnDataSent(1000);
    EXPECT_EQ(cc->GetByteStageCount(), 1U);
    EXPECT_EQ(cc->GetTimerStageCount(), 0U);
    EXPECT_EQ(Rate(), 75 * GBPS);
    cc->OnDataSent(3 * BYTE_COUNTER + 500); // three more events in one call
    EXPECT_EQ(cc->GetByteStageCount(), 4U);
    EXPECT_EQ(Rate(), 96875000000ULL);
    EXPECT_EQ(cc->GetStage(), RdmaDcqcn::FAST_RECOVERY);
    cc->OnDataSent(BYTE_COUNTER - 501);
    EXPECT_EQ(cc->GetByteStageCount(), 4U);
    cc->OnDataSent(1); // BC = 5 = F: additive increase, R_T capped at 100 Gbps
    EXPECT_EQ(cc->GetByteStageCount(), 5U);
    EXPECT_EQ(cc->GetStage(), RdmaDcqcn::ADDITIVE_INCREASE);
    EXPECT_EQ(Rate(), 98437500000ULL);
    EXPECT_EQ(Target(), 100 * GBPS);

    // Enough bytes to get back to line rate: the rate timer stops with no timer expiry.
    cc->OnDataSent(40 * BYTE_COUNTER);
    EXPECT_EQ(Rate(), 100 * GBPS);
    EXPECT_FALSE(cc->IsRateTimerRunning());
    EXPECT_EQ(cc->GetTimerStageCount(), 0U);
    EXPECT_EQ(Simulator::Now(), Time(0));
}

TEST_F(RdmaDcqcnTest, ByteCounterZeroDisablesIt)
{
    Ptr<RdmaDcqcn> cc = Make(DataRate("100Gbps"));
    cc->SetAttribute("ByteCounter", UintegerValue(0));
    cc->Init(&m_state);
    cc->OnCnp();
    cc->OnDataSent(4000000000U);
    EXPECT_EQ(Rate(), 50 * GBPS);
    EXPECT_EQ(cc->GetByteStageCount(), 0U);
}

// NP, spec section 8 check 16 (WINDOW): CE-marked packets every 80 ns during [0, 1 ms), i.e.
// 12,500 packets at k * 80 ns. 50 us is exactly 625 packet gaps, so packets arrive exactly at
// the window boundaries and a packet at exactly N after the last CNP triggers the next one:
// 20 CNPs at 0, 50, ..., 950 us (a window of "> N" would give CNPs at 0, 50.08, ... instead).
TEST_F(RdmaDcqcnTest, NpOneCnpPerWindow)
{
    Ptr<RdmaDcqcn> cc = Make(DataRate("100Gbps"));
    cc->Init(&m_state);
    std::vector<Time> cnps;
    uint32_t packets = 0;
    const Time gap = NanoSeconds(80);
    for (uint32_t k = 0; k < 12500; ++k)
    {
        Simulator::Schedule(gap * k,
                            [&cnps, &packets, cc]()
                            {
                                ++packets;
                                if (cc->OnDataReceived(true))
                                {
                                    cnps.push_back(Simulator::Now());
                                }
                            });
    }
    Simulator::Run();
    EXPECT_EQ(packets, 12500U);
    ASSERT_EQ(cnps.size(), 20U);
    for (size_t i = 0; i < cnps.size(); ++i)
    {
        EXPECT_EQ(cnps[i], MicroSeconds(50 * i)) << "CNP " << i;
    }
    EXPECT_EQ(Simulator::Now(), NanoSeconds(999920));
    // Unmarked packets never trigger a CNP; a marked one at 1 ms (= 950 us + N) does.
    Simulator::Schedule(NanoSeconds(80),
                        [cc]()
                        {
                            EXPECT_FALSE(cc->OnDataReceived(false));
                            EXPECT_TRUE(cc->OnDataReceived(true));
                            EXPECT_FALSE(cc->OnDataReceived(true));
                        });
    Simulator::Run();
    EXPECT_EQ(Simulator::Now(), MilliSeconds(1));
}

// NP: the first marked packet after a quiet period is answered at once, at any time.
TEST_F(RdmaDcqcnTest, NpFirstMarkSendsImmediately)
{
    Ptr<RdmaDcqcn> cc = Make(DataRate("100Gbps"));
    cc->Init(&m_state);
    std::vector<Time> cnps;
    auto arrive = [&cnps, cc](Time at, bool marked)
    {
        Simulator::Schedule(at,
                            [&cnps, cc, marked]()
                            {
                                if (cc->OnDataReceived(marked))
                                {
                                    cnps.push_back(Simulator::Now());
                                }
                            });
    };
    for (uint32_t k = 0; k < 1000; ++k)
    {
        arrive(NanoSeconds(100) * k, false);
    }
    arrive(NanoSeconds(12345), true);
    arrive(NanoSeconds(12345) + MicroSeconds(50) - PicoSeconds(1), true);
    arrive(NanoSeconds(12345) + MicroSeconds(50), true);
    arrive(MicroSeconds(500), true);
    Simulator::Run();
    ASSERT_EQ(cnps.size(), 3U);
    EXPECT_EQ(cnps[0], NanoSeconds(12345));
    EXPECT_EQ(cnps[1], NanoSeconds(12345) + MicroSeconds(50));
    EXPECT_EQ(cnps[2], MicroSeconds(500));
}

// Fork copies attribute values but neither per-QP state nor trace sinks.
TEST_F(RdmaDcqcnTest, ForkCopiesAttributesNotState)
{
    Ptr<RdmaDcqcn> cc = Make(DataRate("100Gbps"));
    cc->SetAttribute("G", DoubleValue(1.0 / 16.0));
    cc->SetAttribute("InitialAlpha", DoubleValue(0.25));
    cc->SetAttribute("RateAI", DataRateValue(DataRate("5Mbps")));
    cc->SetAttribute("RateHAI", DataRateValue(DataRate("50Mbps")));
    cc->SetAttribute("MinRate", DataRateValue(DataRate("1Gbps")));
    cc->SetAttribute("RateIncreaseTimer", TimeValue(MicroSeconds(300)));
    cc->SetAttribute("AlphaUpdatePeriod", TimeValue(MicroSeconds(1)));
    cc->SetAttribute("CnpInterval", TimeValue(MicroSeconds(4)));
    cc->SetAttribute("ByteCounter", UintegerValue(32767));
    cc->SetAttribute("FastRecoveryTimes", UintegerValue(1));
    cc->SetAttribute("ClampTargetRate", BooleanValue(true));
    cc->SetAttribute("ClampTargetRateAfterTimeInc", BooleanValue(false));
    cc->SetAttribute("QcnTargetRateQuirk", BooleanValue(true));
    cc->SetAttribute("AlphaCutOrder", EnumValue(RdmaDcqcn::UPDATE_THEN_CUT));
    cc->Init(&m_state);
    RateRecorder rec;
    rec.Connect(cc);
    cc->OnCnp();
    EXPECT_TRUE(cc->OnDataReceived(true));
    ASSERT_EQ(rec.m_samples.size(), 1U);

    Ptr<RdmaCongestionOps> forked = cc->Fork();
    Ptr<RdmaDcqcn> copy = DynamicCast<RdmaDcqcn>(forked);
    ASSERT_NE(PeekPointer(copy), nullptr);
    EXPECT_NE(PeekPointer(copy), PeekPointer(cc));
    EXPECT_EQ(copy->GetInstanceTypeId(), RdmaDcqcn::GetTypeId());
    for (const char* name :
         {"G", "InitialAlpha", "RateAI", "RateHAI", "MinRate", "RateIncreaseTimer",
          "AlphaUpdatePeriod", "CnpInterval", "ByteCounter", "FastRecoveryTimes", "ClampTargetRate",
          "ClampTargetRateAfterTimeInc", "QcnTargetRateQuirk", "AlphaCutOrder"})
    {
        StringValue a;
        StringValue b;
        cc->GetAttribute(name, a);
        copy->GetAttribute(name, b);
        EXPECT_EQ(a.Get(), b.Get()) << name;
    }

    // Fresh state: no timers, no recovery, no CNP history, no trace sinks.
    EXPECT_FALSE(copy->IsRateTimerRunning());
    EXPECT_FALSE(copy->IsAlphaTimerRunning());
    RdmaCcState state2;
    state2.m_lineRate = DataRate("100Gbps");
    copy->Init(&state2);
    EXPECT_EQ(state2.m_rate, DataRate("100Gbps"));
    EXPECT_EQ(state2.m_alpha, 0.25);
    EXPECT_EQ(copy->GetStage(), RdmaDcqcn::FAST_RECOVERY);
    EXPECT_EQ(copy->GetTimerStageCount(), 0U);
    EXPECT_EQ(copy->GetByteStageCount(), 0U);
    EXPECT_TRUE(copy->OnDataReceived(true)); // the original just sent one; the copy has not
    copy->OnDataSent(1000000);
    EXPECT_EQ(state2.m_rate, DataRate("100Gbps"));
    copy->OnCnp(); // UpdateThenCut: alpha = 0.25 * 15/16 + 1/16, cut by alpha/2
    const double alpha = 0.25 * (15.0 / 16.0) + 1.0 / 16.0;
    EXPECT_EQ(state2.m_alpha, alpha);
    EXPECT_EQ(state2.m_rate.GetBitRate(),
              static_cast<uint64_t>(std::llround(100e9 * (1.0 - alpha / 2.0))));
    EXPECT_EQ(rec.m_samples.size(), 1U); // the copy's trace is not connected to rec
    // The original's state is untouched by the copy.
    EXPECT_EQ(m_state.m_rate.GetBitRate(),
              static_cast<uint64_t>(std::llround(100e9 * (1.0 - alpha / 2.0))));
    copy->Dispose();
}

// Recovery by the timer alone ends at line rate and the simulator runs out of events:
// R_C = 100 - d with d halving (rounded down) from 50 Gbps: 36 increase events, the last at
// 36 * 55 us = 1.98 ms; alpha decays from 1 below 1e-6 after 3530 periods (194.15 ms).
TEST_F(RdmaDcqcnTest, TimersStopWhenBackAtLineRate)
{
    Ptr<RdmaDcqcn> cc = Make(DataRate("100Gbps"));
    cc->Init(&m_state);
    RateRecorder rec;
    rec.Connect(cc);
    cc->OnCnp();
    double alpha = 1.0;
    int64_t firings = 0;
    while (alpha >= RdmaDcqcn::AlphaStopThreshold())
    {
        alpha *= 1.0 - G;
        ++firings;
    }
    ASSERT_EQ(firings, 3530);
    const Time lastAlphaFiring = MicroSeconds(55) * firings;

    RunUntil(MicroSeconds(36 * 55) - PicoSeconds(1));
    EXPECT_TRUE(cc->IsRateTimerRunning());
    RunUntil(MicroSeconds(36 * 55) + PicoSeconds(1));
    EXPECT_FALSE(cc->IsRateTimerRunning());
    ASSERT_EQ(rec.m_samples.size(), 1U + 36U);
    EXPECT_EQ(rec.m_samples.back().at, MicroSeconds(36 * 55));
    EXPECT_EQ(rec.m_samples.back().newBps, 100 * GBPS);
    EXPECT_EQ(Rate(), 100 * GBPS);
    EXPECT_EQ(Target(), 100 * GBPS);

    RunUntil(lastAlphaFiring - PicoSeconds(1));
    EXPECT_TRUE(cc->IsAlphaTimerRunning());
    RunUntil(lastAlphaFiring + PicoSeconds(1));
    // Fail here rather than hang in Run() below if a timer keeps going.
    ASSERT_FALSE(cc->IsAlphaTimerRunning());
    ASSERT_FALSE(cc->IsRateTimerRunning());
    EXPECT_EQ(m_state.m_alpha, alpha);
    EXPECT_LT(m_state.m_alpha, 1e-6);
    Simulator::Run(); // no event left: returns at once
    EXPECT_EQ(Simulator::Now(), lastAlphaFiring + PicoSeconds(1));
    EXPECT_EQ(rec.m_samples.size(), 1U + 36U);

    // The next CNP restarts both timers.
    cc->OnCnp();
    EXPECT_TRUE(cc->IsRateTimerRunning());
    EXPECT_TRUE(cc->IsAlphaTimerRunning());
    cc->Stop();
    EXPECT_FALSE(cc->IsRateTimerRunning());
    EXPECT_FALSE(cc->IsAlphaTimerRunning());
}

TEST_F(RdmaDcqcnTest, DisposeCancelsTimers)
{
    Ptr<RdmaDcqcn> cc = Make(DataRate("100Gbps"));
    cc->Init(&m_state);
    RateRecorder rec;
    rec.Connect(cc);
    cc->OnCnp();
    cc->Dispose();
    EXPECT_FALSE(cc->IsRateTimerRunning());
    EXPECT_FALSE(cc->IsAlphaTimerRunning());
    Simulator::Run(); // cancelled events are skipped: nothing changes after the cut
    EXPECT_EQ(rec.m_samples.size(), 1U);
    EXPECT_EQ(Rate(), 50 * GBPS);
    EXPECT_EQ(m_state.m_alpha, 1.0);
}

// The QCN quirk (off by default): on the first increase after a cut, R_T > 10 R_C -> R_T/8.
TEST_F(RdmaDcqcnTest, QcnTargetRateQuirk)
{
    for (bool quirk : {false, true})
    {
        Ptr<RdmaDcqcn> cc = Make(DataRate("100Gbps"));
        cc->SetAttribute("QcnTargetRateQuirk", BooleanValue(quirk));
        cc->Init(&m_state);
        for (int i = 0; i < 10; ++i)
        {
            cc->OnCnp(); // R_C 100 Gbps -> 100 Mbps (MinRate), R_T stays 100 Gbps
        }
        ASSERT_EQ(Rate(), 100 * MBPS);
        ASSERT_EQ(Target(), 100 * GBPS);
        RunUntil(MicroSeconds(56)); // T = 1, fast recovery
        EXPECT_EQ(Target(), quirk ? 12500 * MBPS : 100 * GBPS);
        EXPECT_EQ(Rate(), quirk ? 6300 * MBPS : 50050 * MBPS);
        RunUntil(MicroSeconds(111)); // T = 2: the quirk applies to the first increase only
        EXPECT_EQ(Target(), quirk ? 12500 * MBPS : 100 * GBPS);
        EXPECT_EQ(Rate(), quirk ? 9400 * MBPS : 75025 * MBPS);
        cc->Dispose();
        Simulator::Destroy();
    }
}

// Target clamp rules of spec 3.4 after a timer-only increase (T = 1, BC = 0).
TEST_F(RdmaDcqcnTest, TargetClampRules)
{
    struct Case
    {
        bool clamp;
        bool afterTimeInc;
        uint64_t expectedTarget;
    };

    for (const Case& c : {Case{false, false, 100 * GBPS}, Case{false, true, 75 * GBPS},
                          Case{true, false, 75 * GBPS}})
    {
        Ptr<RdmaDcqcn> cc = Make(DataRate("100Gbps"));
        cc->SetAttribute("ClampTargetRate", BooleanValue(c.clamp));
        cc->SetAttribute("ClampTargetRateAfterTimeInc", BooleanValue(c.afterTimeInc));
        cc->Init(&m_state);
        cc->OnCnp();                // 50 / 100 Gbps
        RunUntil(MicroSeconds(56)); // T = 1: R_C = 75 Gbps
        ASSERT_EQ(Rate(), 75 * GBPS);
        cc->OnCnp();
        EXPECT_EQ(Target(), c.expectedTarget) << c.clamp << c.afterTimeInc;
        // Second CNP with no increase in between: only ClampTargetRate clamps again.
        const uint64_t before = Rate();
        cc->OnCnp();
        EXPECT_EQ(Target(), c.clamp ? before : c.expectedTarget) << c.clamp << c.afterTimeInc;
        cc->Dispose();
        Simulator::Destroy();
    }
}

TEST_F(RdmaDcqcnTest, MinRateAboveLineRateIsAConfigurationError)
{
    Ptr<RdmaDcqcn> cc = Make(DataRate("10Gbps"));
    cc->SetAttribute("MinRate", DataRateValue(DataRate("20Gbps")));
    EXPECT_DEATH(cc->Init(&m_state), "MinRate");
}

TEST_F(RdmaDcqcnTest, NoCongestionControl)
{
    TypeId tid;
    ASSERT_TRUE(TypeId::LookupByNameFailSafe("ns3::RdmaNoCongestionControl", &tid));
    EXPECT_EQ(tid.GetGroupName(), "Rdma");
    Ptr<RdmaNoCongestionControl> cc = CreateObject<RdmaNoCongestionControl>();
    EXPECT_EQ(cc->GetName(), "NoCongestionControl");
    m_state.m_lineRate = DataRate("25Gbps");
    m_state.m_rate = DataRate("1Gbps");
    m_state.m_window = 100;
    cc->Init(&m_state);
    EXPECT_EQ(m_state.m_rate, DataRate("25Gbps"));
    EXPECT_EQ(m_state.m_targetRate, DataRate("25Gbps"));
    EXPECT_EQ(m_state.m_window, std::numeric_limits<uint64_t>::max());
    for (int i = 0; i < 100; ++i)
    {
        cc->OnCnp();
        cc->OnDataSent(1000000);
        cc->OnAck(RdmaAckSample{1000, true, MicroSeconds(10)});
        EXPECT_FALSE(cc->OnDataReceived(true));
    }
    EXPECT_EQ(m_state.m_rate, DataRate("25Gbps"));
    EXPECT_FALSE(cc->WantsEcnEcho());
    Ptr<RdmaCongestionOps> copy = cc->Fork();
    ASSERT_NE(PeekPointer(DynamicCast<RdmaNoCongestionControl>(copy)), nullptr);
    EXPECT_NE(PeekPointer(copy), PeekPointer(cc));
    Simulator::Run();
    EXPECT_EQ(Simulator::Now(), Time(0));
}

} // namespace
} // namespace ns3
