// Unit tests of the DCQCN generation profiles (configs/nic-profiles gen1, gen2-gen3)
// with no network: the algorithms are driven directly (OnDataReceived, OnCnp) and
// time by the simulator. Expected values: design/spec-buffers-pfc-dcqcn.md
// section 8 check 16, and the formulas of its sections 3.5 and 4 written out in
// the comments.
#include "dcqcn-profile.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/rdma-cc-state.h"
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
// Check 16: a 100 Gb/s flow of 1000-B packets, one packet every 80 ns for 1 ms.
const Time PACKET_GAP = NanoSeconds(80);
constexpr uint32_t PACKETS_PER_MS = 12500;

class DcqcnGenTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    static void RunUntil(Time t)
    {
        Simulator::Stop(t - Simulator::Now());
        Simulator::Run();
    }

    /** Feed \p n CE-marked arrivals, one every PACKET_GAP from now; count CNPs. */
    static uint32_t MarkedArrivals(Ptr<RdmaCongestionOps> cc, uint32_t n)
    {
        uint32_t cnps = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            Simulator::Schedule(PACKET_GAP * i,
                                [cc, &cnps]()
                                {
                                    if (cc->OnDataReceived(true))
                                    {
                                        ++cnps;
                                    }
                                });
        }
        RunUntil(PACKET_GAP * n);
        return cnps;
    }

    /** Deliver \p n CNPs, one every PACKET_GAP from now, then run to 1 ms. */
    static void CnpStream(Ptr<RdmaCongestionOps> cc, uint32_t n)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            Simulator::Schedule(PACKET_GAP * i, &RdmaCongestionOps::OnCnp, cc);
        }
        RunUntil(PACKET_GAP * n);
    }

    RdmaCcState m_state;
};

TEST_F(DcqcnGenTest, FirmwareDefaultsAreTheKnobTable)
{
    Ptr<RdmaDcqcn> fw = test::DcqcnOfProfile("gen2-gen3");
    EXPECT_EQ(fw->GetInstanceTypeId(), RdmaDcqcn::GetTypeId()); // a profile, not a TypeId
    TimeValue t;
    fw->GetAttribute("RateIncreaseTimer", t); // rpg_time_reset
    EXPECT_EQ(t.Get(), MicroSeconds(300));
    fw->GetAttribute("RateDecreaseInterval", t); // rate_reduce_monitor_period
    EXPECT_EQ(t.Get(), MicroSeconds(4));
    fw->GetAttribute("AlphaUpdatePeriod", t); // dce_tcp_rtt
    EXPECT_EQ(t.Get(), MicroSeconds(1));
    fw->GetAttribute("CnpInterval", t); // np_min_time_between_cnps
    EXPECT_EQ(t.Get(), Time(0));
    UintegerValue u;
    fw->GetAttribute("ByteCounter", u);
    EXPECT_EQ(u.Get(), 32767u);
    fw->GetAttribute("FastRecoveryTimes", u);
    EXPECT_EQ(u.Get(), 1u);
    DataRateValue r;
    fw->GetAttribute("RateAI", r);
    EXPECT_EQ(r.Get(), DataRate("5Mbps"));
    fw->GetAttribute("RateHAI", r);
    EXPECT_EQ(r.Get(), DataRate("50Mbps"));
    fw->GetAttribute("MinRate", r);
    EXPECT_EQ(r.Get(), DataRate("1Mbps"));
    DoubleValue d;
    fw->GetAttribute("InitialAlpha", d); // initial_alpha_value
    EXPECT_EQ(d.Get(), 1023.0 / 1024.0);
    fw->GetAttribute("G", d); // dce_tcp_g
    EXPECT_EQ(d.Get(), 1.0 / 256.0);

    // The TypeId keeps the paper's defaults; a later set of a firmware knob
    // reaches the object, and Fork keeps it.
    Ptr<RdmaDcqcn> paper = CreateObject<RdmaDcqcn>();
    paper->GetAttribute("RateAI", r);
    EXPECT_EQ(r.Get(), DataRate("40Mbps"));
    fw->SetAttribute("RateAI", DataRateValue(DataRate("20Mbps"))); // rpg_ai_rate
    Ptr<RdmaCongestionOps> forked = fw->Fork();
    forked->GetAttribute("RateAI", r);
    EXPECT_EQ(r.Get(), DataRate("20Mbps"));

    Ptr<RdmaDcqcn> gen1 = test::DcqcnOfProfile("gen1");
    EXPECT_EQ(gen1->GetInstanceTypeId(), RdmaDcqcn::GetTypeId());
    gen1->GetAttribute("CnpInterval", t);
    EXPECT_EQ(t.Get(), MicroSeconds(50));
    EXPECT_EQ(gen1->GetPacingBurstBytes(), 16384u);
    EXPECT_EQ(fw->GetPacingBurstBytes(), 0u);
}

// Spec check 16, NP side: window(50 us) -> 20 CNPs; per packet -> 12,500.
TEST_F(DcqcnGenTest, Check16Gen1NpWindowGivesTwentyCnpsPerMs)
{
    m_state.m_lineRate = DataRate("100Gbps");
    Ptr<RdmaDcqcn> gen1 = test::DcqcnOfProfile("gen1");
    gen1->Init(&m_state);
    EXPECT_EQ(MarkedArrivals(gen1, PACKETS_PER_MS), 20u);
}

TEST_F(DcqcnGenTest, Check16FirmwareNpSendsACnpPerMarkedPacket)
{
    m_state.m_lineRate = DataRate("100Gbps");
    Ptr<RdmaDcqcn> fw = test::DcqcnOfProfile("gen2-gen3");
    fw->Init(&m_state);
    EXPECT_EQ(MarkedArrivals(fw, PACKETS_PER_MS), PACKETS_PER_MS);
}

TEST_F(DcqcnGenTest, FirmwareMinTimeBetweenCnpsSpacesCnps)
{
    m_state.m_lineRate = DataRate("100Gbps");
    Ptr<RdmaDcqcn> fw = test::DcqcnOfProfile("gen2-gen3");
    fw->SetAttribute("CnpInterval", TimeValue(MicroSeconds(4)));
    fw->Init(&m_state);
    // One CNP at 0, 4, 8, ... 996 us: 250.
    EXPECT_EQ(MarkedArrivals(fw, PACKETS_PER_MS), 250u);
    // Unmarked packets never trigger a CNP.
    EXPECT_FALSE(fw->OnDataReceived(false));
}

TEST_F(DcqcnGenTest, InteropPresetLimitsCnpsPerQpToTheGen1Window)
{
    m_state.m_lineRate = DataRate("100Gbps");
    Ptr<RdmaDcqcn> fw = test::DcqcnOfProfile("gen2-gen3");
    fw->ApplyInteropPreset(MicroSeconds(50), 16384);
    fw->Init(&m_state);
    EXPECT_EQ(MarkedArrivals(fw, PACKETS_PER_MS), 20u);
    EXPECT_EQ(fw->GetPacingBurstBytes(), 16384u);
}

// Spec check 16, RP side: 12,500 CNPs in 1 ms with a 4 us reduction window -> <= 250 cuts.
TEST_F(DcqcnGenTest, Check16FirmwareRpCoalescesCutsPerReductionWindow)
{
    m_state.m_lineRate = DataRate("100Gbps");
    Ptr<RdmaDcqcn> fw = test::DcqcnOfProfile("gen2-gen3");
    fw->Init(&m_state);
    CnpStream(fw, PACKETS_PER_MS);
    EXPECT_EQ(fw->GetCnpsReceived(), PACKETS_PER_MS);
    EXPECT_LE(fw->GetRateCuts(), 250u);
    // Cuts at 0, 4, ..., 996 us: the window is not coalescing more than it should.
    EXPECT_GE(fw->GetRateCuts(), 249u);
}

TEST_F(DcqcnGenTest, InteropRpCutsOnEveryCnp)
{
    m_state.m_lineRate = DataRate("100Gbps");
    Ptr<RdmaDcqcn> fw = test::DcqcnOfProfile("gen2-gen3");
    fw->ApplyInteropPreset(MicroSeconds(50), 16384);
    fw->Init(&m_state);
    CnpStream(fw, 100);
    EXPECT_EQ(fw->GetRateCuts(), 100u);
}

// First CNP: alpha <- InitialAlpha (initial_alpha_value), R_C = R_T <- RateOnFirstCnp, then the cut
// R_C (1 - alpha/2); the cut does not touch the firmware alpha.
TEST_F(DcqcnGenTest, FirstCnpSetsAlphaAndRate)
{
    m_state.m_lineRate = DataRate("100Gbps");
    Ptr<RdmaDcqcn> fw = test::DcqcnOfProfile("gen2-gen3");
    fw->Init(&m_state);
    fw->OnCnp();
    const double a0 = 1023.0 / 1024.0;
    EXPECT_EQ(m_state.m_alpha, a0);
    // 100e9 (1 - 1023/2048) = 50,048,828,125 b/s
    EXPECT_EQ(m_state.m_rate.GetBitRate(), 50048828125ULL);
    EXPECT_EQ(m_state.m_targetRate.GetBitRate(), 100 * GBPS);
    Simulator::Destroy();

    RdmaCcState s2;
    s2.m_lineRate = DataRate("100Gbps");
    Ptr<RdmaDcqcn> fw2 = test::DcqcnOfProfile("gen2-gen3");
    fw2->SetAttribute("RateOnFirstCnp", DataRateValue(DataRate("40Gbps")));
    fw2->Init(&s2);
    fw2->OnCnp();
    // R_T = 40 Gb/s (no clamp: no increase yet); R_C = 40e9 (1 - 1023/2048) = 20,019,531,250
    EXPECT_EQ(s2.m_targetRate.GetBitRate(), 40 * GBPS);
    EXPECT_EQ(s2.m_rate.GetBitRate(), 20019531250ULL);
    EXPECT_EQ(s2.m_alpha, a0);
}

// alpha <- g cnp_received + (1 - g) alpha once per AlphaUpdatePeriod (dce_tcp_rtt), in both
// readings of dce_tcp_g (spec 7.9): the general EWMA with g = 1/256 and the literal 1019/1024.
TEST_F(DcqcnGenTest, AlphaUpdatedOncePerPeriodFromCnpReceived)
{
    m_state.m_lineRate = DataRate("100Gbps");
    const double g = 1.0 / 256.0;
    Ptr<RdmaDcqcn> fw = test::DcqcnOfProfile("gen2-gen3");
    fw->SetAttribute("G", DoubleValue(g));
    fw->SetAttribute("AlphaUpdatePeriod", TimeValue(MicroSeconds(55)));
    fw->Init(&m_state);
    const double a0 = 1023.0 / 1024.0;
    fw->OnCnp(); // t = 0: alpha = a0, updates at 55, 110, ... us
    RunUntil(MicroSeconds(10 * 55 + 1));
    double expected = a0 * std::pow(1.0 - g, 10);
    EXPECT_NEAR(fw->GetAlpha(), expected, 1e-12);
    // Many CNPs within one period count once: cnp_received is a flag.
    for (int i = 0; i < 5; ++i)
    {
        fw->OnCnp();
    }
    EXPECT_NEAR(fw->GetAlpha(), expected, 1e-12); // no change until the period ends
    RunUntil(MicroSeconds(11 * 55 + 1));
    expected = g + (1.0 - g) * expected;
    EXPECT_NEAR(fw->GetAlpha(), expected, 1e-12);
    Simulator::Destroy();

    RdmaCcState s2;
    s2.m_lineRate = DataRate("100Gbps");
    Ptr<RdmaDcqcn> lit = test::DcqcnOfProfile("gen2-gen3"); // 1 us period
    lit->SetAttribute("G", DoubleValue(1019.0 / 1024.0));   // the dumps' value, literally
    lit->Init(&s2);
    lit->OnCnp();
    RunUntil(NanoSeconds(2500)); // two periods without a CNP
    const double gl = 1019.0 / 1024.0;
    EXPECT_NEAR(lit->GetAlpha(), a0 * (1.0 - gl) * (1.0 - gl), 1e-12);
    lit->OnCnp();
    RunUntil(NanoSeconds(3500));
    EXPECT_NEAR(lit->GetAlpha(), gl + (1.0 - gl) * a0 * (1.0 - gl) * (1.0 - gl), 1e-12);
}

} // namespace
} // namespace ns3
