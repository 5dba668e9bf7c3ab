// Azure NSDI'23 §8.3: loopback RDMA and external traffic share the NIC's PCIe lanes (2:1), so
// servers send PFC pauses to their ToR; with loopback disabled they send none.
#include "rdma-test-fabric.h"

#include "ns3/dcb-channel.h"
#include "ns3/host-dma-flow.h"
#include "ns3/host-model.h"
#include "ns3/host-preset-helper.h"
#include "ns3/hostping-monitor.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// Hostping monitor input from a NIC's counters.
HostpingRnicSample
SampleNic(Ptr<RdmaNic> nic)
{
    HostpingRnicSample s;
    const RdmaRxCounters& rx = nic->GetRxPipeline()->GetCounters();
    s.bytes = rx.bytes;
    s.txPaused = nic->GetRxPipeline()->GetPausedTime();
    s.drops = rx.droppedLossy + rx.droppedHeadroom;
    s.lineRate = nic->GetLineRate();
    return s;
}

constexpr uint32_t SERVERS = 4; //!< receivers 0..3 (with loopback); senders 4..7
const Time DURATION = MicroSeconds(1500);
const Time WARMUP = MicroSeconds(500);

struct AzureResult
{
    uint64_t serverXoff{0};       //!< XOFF frames all servers sent to the ToR
    double torPausedShare{0};     //!< mean share of time the ToR's server ports were paused
    Time longestPause{0};         //!< longest single pause of a ToR port
    double externalGbps{0};       //!< mean receive goodput per server after warm-up
    double loopbackGbps{0};       //!< mean loopback rate per server
    uint32_t hostpingTriggers{0}; //!< Hostping monitor triggers on the receivers (pause ratio)
};

class AzureLoopbackTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /// Eight servers under one ToR at 100 Gb/s, PCIe Gen3 x16; server 4 + i writes to server
    /// i, which also runs loopback RDMA between two of its VMs. (With loopback on every server
    /// and a permutation, each NIC's payload reads are held back as much as its writes, so
    /// senders slow down by themselves and nobody pauses: the push-back needs receivers whose
    /// PCIe is busier than their senders'.)
    AzureResult Run(bool loopback)
    {
        DcbHelper dcb;
        RdmaHelper rdma; // DCQCN, as Azure runs it
        RdmaLeafSpineFabric f = BuildStar(2 * SERVERS, "100Gbps", MicroSeconds(1), dcb, rdma);
        std::vector<Ptr<HostDmaFlow>> flows;
        for (uint32_t i = 0; i < 2 * SERVERS; ++i)
        {
            Ptr<HostModel> host = HostPresetHelper().CreatePlainServer();
            host->GetResource("rnic0")->SetAttribute("LineRate",
                                                     DataRateValue(DataRate("100Gbps")));
            host->GetResource("pcie-rnic0")->SetAttribute("Generation", UintegerValue(3));
            EXPECT_EQ(f.GetNics()[i]->SetHostModel(host, "rnic0", "mem0"), "");
            auto flow = CreateObject<HostDmaFlow>();
            EXPECT_EQ(flow->Setup(host, "rnic0", "mem0"), "");
            if (loopback && i < SERVERS)
            {
                flow->Start();
            }
            flows.push_back(flow);
            if (i >= SERVERS)
            {
                continue;
            }
            f.GetNics()[i]->TraceConnectWithoutContext(
                "DataPlaced", MakeCallback(&AzureLoopbackTest::OnPlaced, this));
            Ptr<DcbNetDevice> dev = f.GetNics()[i]->GetDevice();
            Ptr<DcbNetDevice> tor = dev->GetDcbChannel()->GetPeer(dev);
            tor->TraceConnectWithoutContext("PauseState",
                                            MakeCallback(&AzureLoopbackTest::OnPause, this));
        }
        for (uint32_t i = 0; i < SERVERS; ++i)
        {
            auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[SERVERS + i], f.GetNics()[i]);
            RdmaWorkRequest wr;
            wr.verb = RdmaVerb::Write;
            wr.length = 100000000; // longer than the run
            qa->PostSend(wr);
        }
        // Hostping's monitor on each receiver (§4.2): pause ratio > 3% triggers a diagnosis.
        std::vector<Ptr<HostpingMonitor>> monitors;
        for (uint32_t i = 0; i < SERVERS; ++i)
        {
            auto m = CreateObject<HostpingMonitor>();
            m->SetAttribute("MetricsPeriod", TimeValue(MicroSeconds(250))); // 1 s, scaled
            m->AddRnic(MakeBoundCallback(&SampleNic, f.GetNics()[i]));
            m->Start();
            monitors.push_back(m);
        }
        Simulator::Schedule(WARMUP, &AzureLoopbackTest::Mark, this, &flows);
        Simulator::Stop(DURATION);
        Simulator::Run();

        AzureResult r;
        const double window = (DURATION - WARMUP).GetSeconds();
        Time paused;
        for (uint32_t i = 0; i < SERVERS; ++i)
        {
            Ptr<DcbNetDevice> dev = f.GetNics()[i]->GetDevice();
            r.serverXoff += dev->GetCounters(3).pfcXoffSent;
            paused += dev->GetDcbChannel()->GetPeer(dev)->GetCounters(3).pausedTime;
            r.loopbackGbps += (flows[i]->GetBytesMoved() - loopbackAtMark[i]) * 8.0 / window / 1e9;
        }
        r.torPausedShare = paused.GetSeconds() / DURATION.GetSeconds() / SERVERS;
        r.longestPause = longestPause;
        r.externalGbps = (placed - placedAtMark) * 8.0 / window / 1e9 / SERVERS;
        r.loopbackGbps /= SERVERS;
        for (auto& m : monitors)
        {
            r.hostpingTriggers += m->GetTriggerCount();
        }
        return r;
    }

    void Mark(std::vector<Ptr<HostDmaFlow>>* flows)
    {
        placedAtMark = placed;
        for (auto& flow : *flows)
        {
            loopbackAtMark.push_back(flow->GetBytesMoved());
        }
    }

    void OnPlaced(uint32_t, uint64_t, uint32_t bytes) { placed += bytes; }

    void OnPause(uint8_t cls, bool paused)
    {
        if (paused)
        {
            pauseStart = Simulator::Now();
        }
        else
        {
            longestPause = std::max(longestPause, Simulator::Now() - pauseStart);
        }
    }

    uint64_t placed{0};
    uint64_t placedAtMark{0};
    std::vector<uint64_t> loopbackAtMark;
    Time pauseStart;
    Time longestPause{0};
};

TEST_F(AzureLoopbackTest, LoopbackMakesServersPauseTheirTor)
{
    const AzureResult r = Run(true);
    // The NIC's 100 Gb/s of DMA writes (PCIe Gen3 x16 carries 105.9) are shared by loopback
    // and external receive (2:1 on the NIC-to-host direction): external traffic is held near half.
    EXPECT_GT(r.serverXoff, 20u * SERVERS);
    // DCQCN at the senders reacts to the ToR queue that the pauses build, so the ToR is paused
    // only part of the time: "gracefully slowed down", not blocked.
    EXPECT_GT(r.torPausedShare, 0.02);
    EXPECT_LT(r.torPausedShare, 0.5);
    EXPECT_LT(r.longestPause, MicroSeconds(100)); // far below any PFC watchdog (SONiC: 200 ms)
    EXPECT_NEAR(r.externalGbps, 50.0, 0.15 * 50.0);
    EXPECT_NEAR(r.externalGbps + r.loopbackGbps, 100.0, 0.03 * 100.0);
    EXPECT_GT(r.hostpingTriggers, 0u); // the pauses would start Hostping's diagnosis
}

TEST_F(AzureLoopbackTest, WithoutLoopbackServersSendNoPause)
{
    const AzureResult r = Run(false);
    EXPECT_EQ(r.serverXoff, 0u);
    EXPECT_EQ(r.hostpingTriggers, 0u);
    EXPECT_GT(r.externalGbps, 85.0); // the 100 Gb/s wire, not PCIe, is the bottleneck
}

} // namespace
