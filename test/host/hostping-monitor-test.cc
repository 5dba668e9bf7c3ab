// Hostping's trigger rule (NSDI'23 §4.2, §5): idle hosts are probed periodically, busy hosts
// when an RNIC's Tx pause ratio exceeds 3% or it drops packets.
#include "ns3/hostping-monitor.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// A fake RNIC whose counters grow at fixed rates.
struct FakeRnic
{
    double gbps{0};
    double pauseRatio{0};
    bool dropping{false};

    HostpingRnicSample Sample() const
    {
        HostpingRnicSample s;
        const double t = Simulator::Now().GetSeconds();
        s.bytes = static_cast<uint64_t>(gbps * 1e9 / 8 * t);
        s.txPaused = Seconds(pauseRatio * t);
        s.drops = dropping ? static_cast<uint64_t>(t * 10) : 0;
        s.lineRate = DataRate("200Gbps");
        return s;
    }
};

class HostpingMonitorTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    std::vector<uint8_t> Run(FakeRnic& rnic, Time duration, bool gpusIdle = true)
    {
        auto m = CreateObject<HostpingMonitor>();
        monitor = m;
        m->AddRnic(MakeCallback(&FakeRnic::Sample, &rnic));
        idle = gpusIdle;
        m->SetGpuIdleCallback(MakeCallback(&HostpingMonitorTest::GpusIdle, this));
        m->SetTriggerCallback(MakeCallback(&HostpingMonitorTest::OnTrigger, this));
        m->Start();
        Simulator::Stop(duration);
        Simulator::Run();
        return reasons;
    }

    bool GpusIdle() { return idle; }

    void OnTrigger(uint8_t reason, uint32_t rnic)
    {
        reasons.push_back(reason);
        metrics.push_back(monitor->GetMetrics(rnic));
    }

    bool idle{true};
    std::vector<uint8_t> reasons;
    std::vector<HostpingRnicMetrics> metrics; //!< of the check behind each trigger
    Ptr<HostpingMonitor> monitor;
};

TEST_F(HostpingMonitorTest, IdleHostIsProbedEveryFiveMinutes)
{
    FakeRnic rnic{5.0}; // 2.5% of 200 Gb/s: idle
    EXPECT_EQ(Run(rnic, Minutes(11)),
              (std::vector<uint8_t>{HostpingMonitor::IDLE, HostpingMonitor::IDLE}));
}

TEST_F(HostpingMonitorTest, BusyHealthyHostIsLeftAlone)
{
    FakeRnic rnic{150.0, 0.01};
    EXPECT_TRUE(Run(rnic, Minutes(11)).empty());
    FakeRnic quiet{1.0};
    reasons.clear();
    Simulator::Destroy();
    EXPECT_TRUE(Run(quiet, Minutes(6), false).empty()); // GPUs busy: not idle
}

TEST_F(HostpingMonitorTest, PauseRatioAboveThreePercentTriggersAtOnce)
{
    FakeRnic rnic{150.0, 0.04};
    auto r = Run(rnic, Seconds(3.5));
    ASSERT_EQ(r.size(), 3u); // every second
    EXPECT_EQ(r[0], HostpingMonitor::PAUSE_RATIO);
    // The metrics of the check that fired: 4% paused, 150 of 200 Gb/s, no drops.
    ASSERT_EQ(metrics.size(), 3u);
    EXPECT_NEAR(metrics[0].pauseRatio, 0.04, 1e-9);
    EXPECT_NEAR(metrics[0].throughput, 0.75, 1e-6);
    EXPECT_EQ(metrics[0].drops, 0u);
}

TEST_F(HostpingMonitorTest, DropsTrigger)
{
    FakeRnic rnic{150.0, 0.0, true};
    auto r = Run(rnic, Seconds(1.5));
    EXPECT_EQ(r, std::vector<uint8_t>{HostpingMonitor::DROPS});
    EXPECT_EQ(metrics.at(0).drops, 10u); // 10 a second
}

TEST_F(HostpingMonitorTest, IdleTriggerReportsTheStatusPeriodsThroughput)
{
    FakeRnic rnic{5.0};
    Run(rnic, Minutes(6));
    ASSERT_EQ(metrics.size(), 1u);
    EXPECT_NEAR(metrics[0].throughput, 0.025, 1e-6);
}

// A zero period would check forever at the same instant: the attributes refuse it.
TEST_F(HostpingMonitorTest, PeriodsAreAtLeastOneNanosecond)
{
    auto m = CreateObject<HostpingMonitor>();
    EXPECT_FALSE(m->SetAttributeFailSafe("StatusPeriod", TimeValue(Seconds(0))));
    EXPECT_FALSE(m->SetAttributeFailSafe("MetricsPeriod", TimeValue(Seconds(0))));
    EXPECT_TRUE(m->SetAttributeFailSafe("MetricsPeriod", TimeValue(NanoSeconds(1))));
}

} // namespace
