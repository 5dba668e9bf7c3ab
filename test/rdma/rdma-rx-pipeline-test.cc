// Component tests of the NIC receive pipeline: a slow host pushes back into the fabric.
#include "rdma-test-fabric.h"

#include "ns3/host-model.h"
#include "ns3/host-preset-helper.h"
#include "ns3/pcie-link.h"
#include "ns3/queue-size.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <optional>

using namespace ns3;

namespace
{

constexpr uint64_t MESSAGE = 4000000; // bytes

/// A per-packet processing cost of 125 ns, counting its calls.
Time
CountedDelay(uint32_t* calls, uint32_t /* qpn */, uint32_t bytes)
{
    ++*calls;
    return bytes > 0 ? NanoSeconds(125) : Seconds(0);
}

class RdmaRxPipelineTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /// Two hosts on one switch at 100 Gb/s; host 0 writes MESSAGE bytes to host 1.
    void Build()
    {
        rdma.SetCongestionControl("ns3::RdmaNoCongestionControl"); // line rate: worst case
        fabric = BuildStar(2, "100Gbps", MicroSeconds(1), dcb, rdma);
        fabric->GetNics()[0]->TraceConnectWithoutContext(
            "Completion", MakeCallback(&RdmaRxPipelineTest::OnCompletion, this));
    }

    /// A plain server whose RNIC sits on PCIe Gen3 x8 (52.9 Gb/s of DMA payload).
    static Ptr<HostModel> SlowHost()
    {
        Ptr<HostModel> host = HostPresetHelper().CreatePlainServer();
        host->GetResource("pcie-rnic0")->SetAttribute("Generation", UintegerValue(3));
        host->GetResource("pcie-rnic0")->SetAttribute("Lanes", UintegerValue(8));
        return host;
    }

    /// Two hosts on one switch at 200 Gb/s, the DGX-like host model on host 0 (the sender).
    void BuildGdr()
    {
        rdma.SetCongestionControl("ns3::RdmaNoCongestionControl");
        fabric = BuildStar(2, "200Gbps", MicroSeconds(1), dcb, rdma);
        fabric->GetNics()[0]->TraceConnectWithoutContext(
            "Completion", MakeCallback(&RdmaRxPipelineTest::OnCompletion, this));
        fabric->GetNics()[1]->TraceConnectWithoutContext(
            "DataPlaced", MakeCallback(&RdmaRxPipelineTest::OnPlaced, this));
        ASSERT_EQ(
            fabric->GetNics()[0]->SetHostModel(HostPresetHelper().CreateDgxLike(), "rnic0", "mem0"),
            "");
    }

    /// \return goodput of the write in Gb/s.
    double RunWrite(const std::string& source = "")
    {
        auto [qa, qb] = RdmaHelper::Connect(fabric->GetNics()[0], fabric->GetNics()[1]);
        if (!source.empty())
        {
            EXPECT_EQ(fabric->GetNics()[0]->SetQueuePairHostTarget(qa->GetQpn(), source), "");
        }
        RdmaWorkRequest wr;
        wr.wrId = 1;
        wr.verb = RdmaVerb::Write;
        wr.length = MESSAGE;
        qa->PostSend(wr);
        Simulator::Run();
        EXPECT_EQ(completion.status, RdmaWcStatus::Success);
        return MESSAGE * 8.0 / (completion.completionTime - completion.postTime).GetSeconds() / 1e9;
    }

    void OnCompletion(const RdmaCompletion& c)
    {
        if (!c.receive)
        {
            completion = c;
        }
    }

    /// Steady-state rate at the receiver: placement of the 2nd and 4th quarter of MESSAGE.
    void OnPlaced(uint32_t, uint64_t, uint32_t bytes)
    {
        placed += bytes;
        if (placed >= MESSAGE / 4 && quarter.IsZero())
        {
            quarter = Simulator::Now();
        }
        if (placed >= 3 * MESSAGE / 4 && threeQuarters.IsZero())
        {
            threeQuarters = Simulator::Now();
        }
    }

    double SteadyGoodput() const
    {
        return MESSAGE / 2 * 8.0 / (threeQuarters - quarter).GetSeconds() / 1e9;
    }

    uint64_t ReceiverXoffSent(uint8_t cls) const
    {
        return fabric->GetNics()[1]->GetDevice()->GetCounters(cls).pfcXoffSent;
    }

    DcbHelper dcb;
    RdmaHelper rdma;
    std::optional<RdmaLeafSpineFabric> fabric;
    RdmaCompletion completion{};
    uint64_t placed{0};
    Time quarter;
    Time threeQuarters;
};

TEST_F(RdmaRxPipelineTest, IdealHostBypassesTheBuffer)
{
    Build();
    const double goodput = RunWrite();
    EXPECT_FALSE(fabric->GetNics()[1]->GetRxPipeline()->IsActive());
    EXPECT_EQ(fabric->GetNics()[1]->GetRxPipeline()->GetCounters().packets, 0u);
    EXPECT_EQ(ReceiverXoffSent(3), 0u);
    EXPECT_GT(goodput, 85.0); // 1024 B payload in a 1126 B frame: ~91 Gb/s at 100 Gb/s
}

TEST_F(RdmaRxPipelineTest, SlowHostPausesTheFabricLosslessly)
{
    Build();
    Ptr<HostModel> host = SlowHost();
    ASSERT_EQ(fabric->GetNics()[1]->SetHostModel(host, "rnic0", "mem0"), "");
    Ptr<RdmaRxPipeline> rx = fabric->GetNics()[1]->GetRxPipeline();
    const double goodput = RunWrite();
    const double pcie = host->GetDmaRateLimit(host->GetResourceId("rnic0"),
                                              host->GetResourceId("mem0"), HostModel::DMA_WRITE)
                            .GetBitRate() /
                        1e9;
    EXPECT_NEAR(pcie, 52.93, 0.1);
    // The host, not the 100 Gb/s wire, sets the pace: the drain rate within 3%.
    EXPECT_NEAR(goodput, pcie, 0.03 * pcie);
    EXPECT_GT(ReceiverXoffSent(3), 0u); // the NIC paused its ToR...
    EXPECT_GT(rx->GetCounters().xoffEvents, 0u);
    EXPECT_EQ(rx->GetCounters().droppedHeadroom + rx->GetCounters().droppedLossy, 0u);
    EXPECT_EQ(SwitchDrops(*fabric), 0u); // ...and lost nothing
    EXPECT_LE(rx->GetCounters().maxOccupancy, 1000000u);
    EXPECT_GT(rx->GetCounters().maxOccupancy, rx->GetXoffThreshold());
    EXPECT_EQ(rx->GetCounters().dmaWrites, (MESSAGE + 1023) / 1024);
    EXPECT_EQ(rx->GetOccupancy(), 0u);
    EXPECT_FALSE(rx->IsXoff());
}

TEST_F(RdmaRxPipelineTest, FastHostNeverPauses)
{
    Build();
    Ptr<HostModel> host = HostPresetHelper().CreatePlainServer(); // Gen4 x16: 211 Gb/s
    ASSERT_EQ(fabric->GetNics()[1]->SetHostModel(host, "rnic0", "mem0"), "");
    const double goodput = RunWrite();
    EXPECT_GT(goodput, 85.0);
    EXPECT_EQ(ReceiverXoffSent(3), 0u);
    EXPECT_LT(fabric->GetNics()[1]->GetRxPipeline()->GetCounters().maxOccupancy, 20000u);
}

TEST_F(RdmaRxPipelineTest, LossyClassDropsInsteadOfPausing)
{
    Build();
    Ptr<RdmaRxPipeline> rx = fabric->GetNics()[1]->GetRxPipeline();
    rx->SetAttribute("LosslessClasses", UintegerValue(0)); // class 3 lossy at the NIC
    ASSERT_EQ(fabric->GetNics()[1]->SetHostModel(SlowHost(), "rnic0", "mem0"), "");
    RunWrite(); // go-back-N recovers every drop
    EXPECT_GT(rx->GetCounters().droppedLossy, 0u);
    EXPECT_EQ(rx->GetCounters().xoffEvents, 0u);
    EXPECT_EQ(ReceiverXoffSent(3), 0u);
    EXPECT_LE(rx->GetCounters().maxOccupancy, rx->GetXoffThreshold());
}

TEST_F(RdmaRxPipelineTest, ServiceDelayHookSetsThePace)
{
    Build();
    Ptr<RdmaRxPipeline> rx = fabric->GetNics()[1]->GetRxPipeline();
    uint32_t calls = 0;
    rx->AddServiceDelay(MakeBoundCallback(&CountedDelay, &calls));
    ASSERT_TRUE(rx->IsActive());
    const double goodput = RunWrite();
    // One 1024 B packet per 125 ns: 65.5 Gb/s, below the wire's ~91.
    EXPECT_NEAR(goodput, 1024 * 8 / 125.0, 0.03 * 65.5);
    EXPECT_EQ(calls, (MESSAGE + 1023) / 1024);
    EXPECT_GT(ReceiverXoffSent(3), 0u);
    EXPECT_EQ(SwitchDrops(*fabric) + rx->GetCounters().droppedHeadroom, 0u);
}

TEST_F(RdmaRxPipelineTest, ImpossibleConfigurationIsReported)
{
    Build();
    Ptr<RdmaRxPipeline> rx = fabric->GetNics()[1]->GetRxPipeline();
    rx->SetAttribute("Headroom", QueueSizeValue(QueueSize("2000000B")));
    const std::string error = fabric->GetNics()[1]->SetHostModel(SlowHost(), "rnic0", "mem0");
    EXPECT_NE(error.find("Headroom (2000000 B) must be smaller than BufferSize"), std::string::npos)
        << error;
    EXPECT_FALSE(rx->IsActive());
    rx->SetAttribute("Headroom", QueueSizeValue(QueueSize("96928B")));
    EXPECT_NE(fabric->GetNics()[1]->SetHostModel(SlowHost(), "nic9", "mem0").find("'nic9'"),
              std::string::npos);
    EXPECT_NE(fabric->GetNics()[1]->SetHostModel(SlowHost(), "rnic0", "gpu7").find("'gpu7'"),
              std::string::npos);
}

// Send side: the NIC reads the payload over PCIe before sending it; GPUDirect from a GPU
// behind the root complex is throttled by the outstanding-read budget (Hostping Fig. 4).
TEST_F(RdmaRxPipelineTest, SendSideReadsFollowHostpingFig4)
{
    BuildGdr();
    // Payload rate of the 200 Gb/s wire: BTH 12 + Eth/VLAN 18 + IPv4 20 + UDP 8 + ICRC 4 + 24.
    const double wire = 200.0 * 1024 / (1024 + 12 + 50 + 24);
    RunWrite("gpu0");
    EXPECT_NEAR(SteadyGoodput(), wire, 0.02 * wire); // (1) one switch: line rate
    EXPECT_GT(fabric->GetNics()[0]->GetTxPipeline()->GetCounters().dmaReads, 3900u);
}

TEST_F(RdmaRxPipelineTest, SendSideReadsThroughRootComplexAreBudgetLimited)
{
    BuildGdr();
    RunWrite("gpu2");
    EXPECT_NEAR(SteadyGoodput(), 126.6, 0.02 * 126.6); // (3) 2.2 us: Hostping 125.5 Gb/s
}

TEST_F(RdmaRxPipelineTest, SendSideReadsOverUpiAreSlower)
{
    BuildGdr();
    RunWrite("gpu4");
    EXPECT_NEAR(SteadyGoodput(), 116.05, 0.02 * 116.05); // (4) +UPI: Hostping 116.4 Gb/s
}

} // namespace
