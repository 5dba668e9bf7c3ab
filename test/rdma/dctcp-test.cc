// DCTCP window congestion control: algorithm units without a network, ECN echo
// through coalesced ACKs, and two flows sharing a bottleneck.
#include "rdma-test-fabric.h"

#include "ns3/double.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-dctcp.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{

class DctcpUnitTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        state.m_mtu = 1000;
        dctcp = CreateObject<RdmaDctcp>();
        dctcp->SetAttribute("InitialWindow", QueueSizeValue(QueueSize("100000B")));
        cc = dctcp->Fork();
        cc->Init(&state);
    }

    void TearDown() override { Simulator::Destroy(); }

    /** Acknowledge \p packets packets of one MTU each. */
    void Ack(uint32_t packets, bool ece)
    {
        for (uint32_t i = 0; i < packets; ++i)
        {
            cc->OnAck(RdmaAckSample{state.m_mtu, ece});
        }
    }

    RdmaCcState state;
    Ptr<RdmaDctcp> dctcp;
    Ptr<RdmaCongestionOps> cc;
};

TEST_F(DctcpUnitTest, InitStartsAtTheBdpWindowAndLineRate)
{
    EXPECT_EQ(state.m_window, 100000u);
    EXPECT_EQ(state.m_rate, state.m_lineRate);
    EXPECT_DOUBLE_EQ(state.m_alpha, 1.0);
    EXPECT_TRUE(cc->WantsEcnEcho());
    EXPECT_FALSE(cc->OnDataReceived(true)); // no CNPs
    EXPECT_EQ(cc->GetName(), "Dctcp");
}

TEST_F(DctcpUnitTest, AdditiveIncreaseIsOneMtuPerWindow)
{
    Ack(100, false); // one window of 100 packets
    // W grows within the window, so the last increments are a little smaller.
    EXPECT_NEAR(static_cast<double>(state.m_window), 101000.0, 10.0);
}

TEST_F(DctcpUnitTest, AlphaDecaysByGPerWindowWithoutMarks)
{
    // Windows of unmarked ACKs: alpha <- (15/16) alpha each time.
    double expected = 1.0;
    for (int w = 0; w < 5; ++w)
    {
        const uint64_t window = state.m_window;
        cc->OnAck(RdmaAckSample{window, false}); // exactly one window of bytes
        expected *= 15.0 / 16;
        EXPECT_NEAR(state.m_alpha, expected, 1e-12) << "window " << w;
    }
}

TEST_F(DctcpUnitTest, AlphaFollowsTheMarkedFractionOfOneWindow)
{
    // alpha = 0 and one window of 100 packets, the last 25 echoed: at the end of the
    // window alpha = g x 25/100 (the cut in between does not change the window of
    // observation, which is the window in force when it started).
    dctcp->SetAttribute("InitialAlpha", DoubleValue(0.0));
    cc = dctcp->Fork();
    cc->Init(&state);
    Ack(75, false);
    Ack(24, true);
    EXPECT_DOUBLE_EQ(state.m_alpha, 0.0);
    Ack(1, true);
    EXPECT_DOUBLE_EQ(state.m_alpha, 0.25 / 16);
}

TEST_F(DctcpUnitTest, CutIsWTimesOneMinusHalfAlphaAtMostOncePerWindow)
{
    // alpha = 1 initially: the first echo halves the window.
    Ack(1, true);
    // The observation window (100 packets) has not ended: alpha is still 1.
    EXPECT_EQ(state.m_window, 50000u);
    // Further echoes within the next 50 KB do not cut again.
    Ack(49, true);
    EXPECT_EQ(state.m_window, 50000u);
    // After a window of data, the next echo cuts with the alpha then in force.
    Ack(1, true);
    EXPECT_LT(state.m_window, 50000u);
    const double alpha = state.m_alpha;
    EXPECT_EQ(state.m_window, static_cast<uint64_t>(50000 * (1 - alpha / 2)));
}

TEST_F(DctcpUnitTest, WindowNeverFallsBelowOneMtu)
{
    for (int i = 0; i < 200; ++i)
    {
        Ack(static_cast<uint32_t>(state.m_window / state.m_mtu) + 1, true);
    }
    EXPECT_EQ(state.m_window, state.m_mtu);
}

TEST_F(DctcpUnitTest, ForkGivesFreshStateWithTheSameAttributes)
{
    Ack(1, true);
    RdmaCcState other;
    other.m_mtu = 1000;
    Ptr<RdmaCongestionOps> second = dctcp->Fork();
    second->Init(&other);
    EXPECT_EQ(other.m_window, 100000u);
    EXPECT_DOUBLE_EQ(other.m_alpha, 1.0);
    EXPECT_EQ(state.m_window, 50000u); // the first QP is unaffected
}

class DctcpFabricTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }
};

struct DctcpTwoFlows
{
    double rate1;
    double rate2;
    uint64_t maxQueue;
    uint64_t echoes;
    uint64_t xoff;
    uint64_t window1;
};

/** Two long DCTCP flows into one 100 Gb/s port with DCTCP step marking at K. */
DctcpTwoFlows
RunDctcpTwoFlows(uint32_t ackInterval, Time secondStart, Time from, Time to)
{
    DcbHelper dcb;
    // DCTCP step marking (Kmin = Kmax = K, Pmax = 1). K = 100 KB at 100 Gb/s: about
    // 0.17 C x RTT for the ~50 KB BDP here rounded up to one SRNIC-simulation BDP
    // (the DCTCP paper's guideline K > C x RTT / 7).
    dcb.SetEcnMarkerAttribute("Kmin", QueueSizeValue(QueueSize("100KB")));
    dcb.SetEcnMarkerAttribute("Kmax", QueueSizeValue(QueueSize("100KB")));
    dcb.SetEcnMarkerAttribute("Pmax", DoubleValue(1.0));
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::RdmaDctcp");
    rdma.SetQueuePairAttribute("AckInterval", UintegerValue(ackInterval));
    RdmaLeafSpineFabric f = BuildStar(3, "100Gbps", MicroSeconds(1), dcb, rdma);
    auto [q1, r1] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[2]);
    auto [q2, r2] = RdmaHelper::Connect(f.GetNics()[1], f.GetNics()[2]);
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Write;
    wr.length = 4000000000ULL;
    q1->PostSend(wr);
    Simulator::Schedule(secondStart, &RdmaQueuePair::PostSend, q2, wr);
    // The bottleneck is the switch port towards host 2 (Star links host i to port i).
    Ptr<DcbNetDevice> port = f.GetSwitch(0)->GetPort(2);
    DctcpTwoFlows res{};
    uint64_t sent1 = 0;
    uint64_t sent2 = 0;
    Simulator::Schedule(from,
                        [&]()
                        {
                            sent1 = q1->GetCounters().payloadBytesSent;
                            sent2 = q2->GetCounters().payloadBytesSent;
                        });
    for (Time t = from; t < to; t += MicroSeconds(1))
    {
        Simulator::Schedule(t, [&]()
                            { res.maxQueue = std::max(res.maxQueue, port->GetQueueBytes(3)); });
    }
    Simulator::Schedule(to,
                        [&]()
                        {
                            const double secs = (to - from).GetSeconds();
                            res.rate1 = (q1->GetCounters().payloadBytesSent - sent1) * 8.0 / secs;
                            res.rate2 = (q2->GetCounters().payloadBytesSent - sent2) * 8.0 / secs;
                            res.echoes = q1->GetCounters().ecnEchoesReceived +
                                         q2->GetCounters().ecnEchoesReceived;
                            res.xoff = SwitchXoffSent(f, 3);
                            res.window1 = q1->GetCcState().m_window;
                            Simulator::Stop();
                        });
    Simulator::Run();
    Simulator::Destroy();
    return res;
}

TEST_F(DctcpFabricTest, TwoFlowsShareFairlyWithABoundedQueue)
{
    const DctcpTwoFlows r =
        RunDctcpTwoFlows(1, MicroSeconds(500), MilliSeconds(5), MilliSeconds(10));
    std::cout << "DCTCP two flows: " << r.rate1 / 1e9 << " / " << r.rate2 / 1e9
              << " Gb/s, max queue " << r.maxQueue << " B, echoes " << r.echoes << ", XOFF "
              << r.xoff << std::endl;
    EXPECT_GT(r.echoes, 0u);
    EXPECT_LT(std::fabs(r.rate1 - r.rate2), 0.10 * std::max(r.rate1, r.rate2));
    EXPECT_GT(r.rate1 + r.rate2, 0.95 * 93.26e9); // the bottleneck stays full
    // The queue hovers around K = 100 KB: well below the ~200 KB two initial BDP
    // windows would pile up, and PFC never triggers.
    EXPECT_LT(r.maxQueue, 160000u);
    EXPECT_EQ(r.xoff, 0u);
}

TEST_F(DctcpFabricTest, EcnEchoSurvivesAckCoalescing)
{
    const DctcpTwoFlows r =
        RunDctcpTwoFlows(4, MicroSeconds(500), MilliSeconds(5), MilliSeconds(10));
    std::cout << "DCTCP two flows, AckInterval 4: " << r.rate1 / 1e9 << " / " << r.rate2 / 1e9
              << " Gb/s, max queue " << r.maxQueue << " B, echoes " << r.echoes << std::endl;
    EXPECT_GT(r.echoes, 0u);
    EXPECT_LT(r.window1, 104000u); // the echoes did cut the window
    EXPECT_LT(std::fabs(r.rate1 - r.rate2), 0.10 * std::max(r.rate1, r.rate2));
    EXPECT_LT(r.maxQueue, 160000u);
}

} // namespace
