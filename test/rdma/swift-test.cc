// Swift (SIGCOMM'20) update rules on a bare RdmaCcState, and its defining behaviour on a
// fabric: under an N-to-1 incast the queueing delay is held near the delay target.
#include "rdma-test-fabric.h"

#include "ns3/double.h"
#include "ns3/rdma-no-congestion-control.h"
#include "ns3/rdma-swift.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

RdmaAckSample
Sample(Time rtt, uint8_t hops = 0, uint64_t bytes = 1000)
{
    RdmaAckSample s;
    s.ackedBytes = bytes;
    s.rtt = rtt;
    s.hops = hops;
    return s;
}

void
RunAt(Time t, std::function<void()> fn)
{
    Simulator::Schedule(t, fn);
    Simulator::Run();
}

class SwiftUnitTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        cc = CreateObject<RdmaSwift>();
        cc->SetAttribute("InitialCwnd", DoubleValue(10));
        cc->SetAttribute("FsRange", TimeValue(Time(0))); // target = BaseTarget + hops h
        state.m_lineRate = DataRate("100Gbps");
        state.m_mtu = 1000;
        state.m_baseRtt = MicroSeconds(10);
        cc->Init(&state);
    }

    void TearDown() override { Simulator::Destroy(); }

    RdmaCcState state;
    Ptr<RdmaSwift> cc;
};

TEST_F(SwiftUnitTest, InitialWindowCapsInFlightBytesAtLineRate)
{
    EXPECT_EQ(state.m_window, 10000u);
    EXPECT_EQ(state.m_rate, DataRate("100Gbps"));
    EXPECT_TRUE(cc->WantsRttSamples());
}

TEST_F(SwiftUnitTest, BelowTargetAddsAiPerWindowOfAcks)
{
    cc->OnAck(Sample(MicroSeconds(20))); // < 25 us: +1/10 packet
    EXPECT_NEAR(cc->GetFabricCwnd(), 10.1, 1e-9);
    EXPECT_EQ(state.m_window, 10000u); // floor(10.1) packets
}

TEST_F(SwiftUnitTest, AboveTargetCutsByBetaTimesExcessOncePerRtt)
{
    cc->OnAck(Sample(MicroSeconds(50))); // excess (50 - 25) / 50 = 0.5: x (1 - 0.4)
    EXPECT_NEAR(cc->GetFabricCwnd(), 6.0, 1e-9);
    cc->OnAck(Sample(MicroSeconds(50))); // same instant: no second cut within an RTT
    EXPECT_NEAR(cc->GetFabricCwnd(), 6.0, 1e-9);
    RunAt(MicroSeconds(100), [this]() { cc->OnAck(Sample(MicroSeconds(50))); });
    EXPECT_NEAR(cc->GetFabricCwnd(), 3.6, 1e-9);
}

TEST_F(SwiftUnitTest, OneCutRemovesAtMostMaxMdf)
{
    cc->OnAck(Sample(MicroSeconds(1000))); // 1 - 0.8 x 0.975 = 0.22 < 1 - 0.5
    EXPECT_NEAR(cc->GetFabricCwnd(), 5.0, 1e-9);
}

TEST_F(SwiftUnitTest, TargetScalesWithHopsAndFlowWindow)
{
    EXPECT_EQ(cc->GetFabricTarget(0), MicroSeconds(25));
    EXPECT_EQ(cc->GetFabricTarget(3), MicroSeconds(28));
    // 28 us is above the 2-hop target (27 us) and below the 4-hop one (29 us).
    Ptr<RdmaSwift> four = DynamicCast<RdmaSwift>(cc->Fork());
    RdmaCcState s4 = state;
    four->Init(&s4);
    four->OnAck(Sample(MicroSeconds(28), 4));
    EXPECT_GT(four->GetFabricCwnd(), 10.0);
    cc->OnAck(Sample(MicroSeconds(28), 2));
    EXPECT_LT(cc->GetFabricCwnd(), 10.0);
    // Flow scaling: the whole range at FsMinCwnd, nothing at FsMaxCwnd, and
    // a / sqrt(c) + b in between.
    Ptr<RdmaSwift> fs = CreateObject<RdmaSwift>();
    fs->SetAttribute("FsRange", TimeValue(MicroSeconds(20)));
    for (double c : {0.1, 1.0, 100.0})
    {
        fs->SetAttribute("InitialCwnd", DoubleValue(c));
        RdmaCcState s;
        s.m_mtu = 1000;
        fs->Init(&s);
        const double a = 20.0 / (1 / std::sqrt(0.1) - 1 / std::sqrt(100.0));
        const double expected = 25.0 + std::max(0.0, a / std::sqrt(c) - a / 10.0);
        EXPECT_NEAR(fs->GetFabricTarget(0).GetNanoSeconds() / 1e3, expected, 1e-3) << c;
    }
}

TEST_F(SwiftUnitTest, BelowOnePacketThePacketIsPacedOverRttOverCwnd)
{
    cc->SetAttribute("InitialCwnd", DoubleValue(0.5));
    RdmaCcState s = state;
    Ptr<RdmaSwift> half = DynamicCast<RdmaSwift>(cc->Fork());
    half->Init(&s);
    EXPECT_EQ(s.m_window, 1000u); // one packet in flight
    // 0.5 x 1000 B x 8 / 10 us = 400 Mb/s: one packet every 20 us
    EXPECT_EQ(s.m_rate, DataRate("400Mbps"));
    half->OnAck(Sample(MicroSeconds(10), 0, 1000)); // below one packet: +ai per ACKed packet
    EXPECT_NEAR(half->GetFabricCwnd(), 1.5, 1e-9);
    EXPECT_EQ(s.m_rate, DataRate("100Gbps"));
}

TEST_F(SwiftUnitTest, RetransmissionsCutAndRepeatedTimeoutsReset)
{
    cc->OnRetransmit(false); // fast recovery: x (1 - max_mdf)
    EXPECT_NEAR(cc->GetCwnd(), 5.0, 1e-9);
    for (int i = 0; i < 4; ++i)
    {
        cc->OnRetransmit(true); // within the RTT: no further cut
    }
    EXPECT_NEAR(cc->GetCwnd(), 5.0, 1e-9);
    cc->OnRetransmit(true); // the 5th consecutive timeout: reset to MinCwnd
    EXPECT_NEAR(cc->GetCwnd(), 0.001, 1e-12);
}

TEST(SwiftCheck, RejectsInitialWindowOutsideBounds)
{
    Ptr<RdmaSwift> cc = CreateObject<RdmaSwift>();
    cc->SetAttribute("InitialCwnd", DoubleValue(5000));
    std::string attribute;
    std::string reason;
    EXPECT_FALSE(cc->CheckAttributes(DataRate("100Gbps"), attribute, reason));
    EXPECT_EQ(attribute, "InitialCwnd");
}

// ------------------------------------------------------------------ scenario

constexpr uint32_t SENDERS = 8;

/** Queueing delay (us) at the receiver's switch port, sampled every 1 us. */
void
SampleQueue(Ptr<DcbNetDevice> port, std::vector<double>* out)
{
    out->push_back(port->GetQueueBytes(3) * 8.0 / 100e9 * 1e6);
    Simulator::Schedule(MicroSeconds(1), &SampleQueue, port, out);
}

struct IncastRun
{
    double meanQueueUs{0};
    double p99QueueUs{0};
    uint32_t completions{0};
};

void
CountCompletion(IncastRun* r, const RdmaCompletion& c)
{
    if (!c.receive && c.status == RdmaWcStatus::Success)
    {
        r->completions++;
    }
}

/**
 * 8 hosts write 2 MB each to host 8 through one switch (100 Gb/s, 1 us links: base RTT
 * about 4.2 us, 1 switch hop); the queue at the receiver's port is sampled from 200 us
 * (after the start-up transient) to 1.2 ms.
 */
IncastRun
RunIncast(Ptr<RdmaCongestionOps> cc)
{
    DcbHelper dcb;
    RdmaHelper rdma;
    RdmaLeafSpineFabric f = BuildStar(SENDERS + 1, "100Gbps", MicroSeconds(1), dcb, rdma);
    IncastRun r;
    for (uint32_t s = 0; s < SENDERS; ++s)
    {
        f.GetNics()[s]->SetCongestionControl(cc);
        f.GetNics()[s]->TraceConnectWithoutContext("Completion",
                                                   MakeBoundCallback(&CountCompletion, &r));
        auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[s], f.GetNics()[SENDERS]);
        RdmaWorkRequest wr;
        wr.verb = RdmaVerb::Write;
        wr.length = 2000000;
        qa->PostSend(wr);
    }
    std::vector<double> queue;
    Simulator::Schedule(MicroSeconds(200), &SampleQueue, f.GetSwitch(0)->GetPort(SENDERS), &queue);
    Simulator::Stop(MicroSeconds(1200));
    Simulator::Run();
    Simulator::Destroy();
    double sum = 0;
    for (double q : queue)
    {
        sum += q;
    }
    r.meanQueueUs = queue.empty() ? 0 : sum / queue.size();
    std::sort(queue.begin(), queue.end());
    r.p99QueueUs = queue.empty() ? 0 : queue[queue.size() * 99 / 100];
    return r;
}

TEST(SwiftScenario, IncastQueueingDelayHeldNearTheTarget)
{
    // Target = 9 us + 1 hop x 1 us (flow scaling off): with a 4.2 us base RTT the
    // queue may hold about 5.8 us of data.
    Ptr<RdmaSwift> cc = CreateObject<RdmaSwift>();
    cc->SetAttribute("BaseTarget", TimeValue(MicroSeconds(9)));
    cc->SetAttribute("FsRange", TimeValue(Time(0)));
    cc->SetAttribute("InitialCwnd", DoubleValue(50));
    const IncastRun r = RunIncast(cc);
    const double targetQueueUs = 10.0 - 4.2;
    RecordProperty("mean_queue_us", std::to_string(r.meanQueueUs));
    RecordProperty("p99_queue_us", std::to_string(r.p99QueueUs));
    // Tolerance: mean within +-50 % of the target's queueing part; p99 below 2x.
    EXPECT_GT(r.meanQueueUs, 0.5 * targetQueueUs);
    EXPECT_LT(r.meanQueueUs, 1.5 * targetQueueUs);
    EXPECT_LT(r.p99QueueUs, 2.0 * targetQueueUs);
}

TEST(SwiftScenario, WithoutSwiftTheIncastQueueBlowsPastTheTarget)
{
    const IncastRun r = RunIncast(CreateObject<RdmaNoCongestionControl>());
    RecordProperty("mean_queue_us", std::to_string(r.meanQueueUs));
    EXPECT_GT(r.meanQueueUs, 3.0 * (10.0 - 4.2));
}

} // namespace
