// Hostping loopback probes and Algorithm 1 on the DGX-like preset (Hostping Fig. 2).
#include "ns3/host-model.h"
#include "ns3/host-preset-helper.h"
#include "ns3/hostping.h"
#include "ns3/memory-channel.h"
#include "ns3/pcie-link.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

class HostpingTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    std::vector<HostpingProbe> Probe(Ptr<HostModel> host, Ptr<Hostping> ping)
    {
        ping->SetHost(host);
        std::vector<HostpingProbe> out;
        ping->Start(MakeCallback(&HostpingTest::Collect, this));
        Simulator::Run();
        return m_results;
    }

    void Collect(const std::vector<HostpingProbe>& r) { m_results = r; }

    /// Baseline from a healthy preset, then a faulty one diagnosed against it.
    std::vector<std::string> Diagnose(void (*inject)(Ptr<HostModel>),
                                      std::vector<std::string>* gray = nullptr)
    {
        auto ping = CreateObject<Hostping>();
        auto baseline = Probe(HostPresetHelper().CreateDgxLike(), ping);
        auto host = HostPresetHelper().CreateDgxLike();
        inject(host);
        auto measured = Probe(host, ping);
        auto d = ping->Diagnose(baseline, measured);
        std::vector<std::string> names;
        for (uint32_t l : d.abnormalLinks)
        {
            names.push_back(host->GetResourceName(l));
        }
        if (gray)
        {
            for (uint32_t l : d.grayLinks)
            {
                gray->push_back(host->GetResourceName(l));
            }
        }
        return names;
    }

    std::vector<HostpingProbe> m_results;
};

const HostpingProbe&
Find(Ptr<HostModel> host, const std::vector<HostpingProbe>& r, const std::string& rnic,
     const std::string& ep)
{
    auto it = std::find_if(r.begin(), r.end(),
                           [&](const HostpingProbe& p) {
                               return p.rnic == host->GetResourceId(rnic) &&
                                      p.endpoint == host->GetResourceId(ep);
                           });
    EXPECT_NE(it, r.end());
    return *it;
}

TEST_F(HostpingTest, LoopbackLatencyAndBandwidth)
{
    auto host = HostPresetHelper().CreateDgxLike();
    auto ping = CreateObject<Hostping>();
    auto r = Probe(host, ping);
    EXPECT_EQ(r.size(), 4u * (8 + 2));
    // Small message: T_proc (2 us) + intra-host round trip.
    EXPECT_NEAR(Find(host, r, "rnic0", "gpu0").smallLatency.GetNanoSeconds(), 3000, 2);
    EXPECT_NEAR(Find(host, r, "rnic0", "gpu2").smallLatency.GetNanoSeconds(), 4200, 2);
    EXPECT_NEAR(Find(host, r, "rnic0", "gpu4").smallLatency.GetNanoSeconds(), 4400, 2);
    // Large minus small: the read-limited bandwidth of Fig. 4.
    EXPECT_NEAR(Find(host, r, "rnic0", "gpu0").bandwidth.GetBitRate() / 1e9, 200.0, 1.0);
    EXPECT_NEAR(Find(host, r, "rnic0", "gpu2").bandwidth.GetBitRate() / 1e9, 125.5, 125.5 * 0.03);
    EXPECT_NEAR(Find(host, r, "rnic0", "gpu4").bandwidth.GetBitRate() / 1e9, 116.4, 116.4 * 0.03);
    for (const auto& p : r)
    {
        EXPECT_TRUE(p.completed);
    }
}

TEST_F(HostpingTest, HealthyHostHasNoAbnormalLink)
{
    std::vector<std::string> gray;
    EXPECT_TRUE(Diagnose([](Ptr<HostModel>) {}, &gray).empty());
    EXPECT_TRUE(gray.empty());
}

TEST_F(HostpingTest, DegradedRnicPcieLinkIsNamed)
{
    auto abnormal =
        Diagnose([](Ptr<HostModel> h)
                 { DynamicCast<PcieLink>(h->GetResource("pcie-rnic0"))->Retrain(4, 4); });
    EXPECT_EQ(abnormal, std::vector<std::string>{"pcie-rnic0"});
}

TEST_F(HostpingTest, FailedGpuLinkIsNamed)
{
    auto abnormal =
        Diagnose([](Ptr<HostModel> h) { h->GetResource("pcie-gpu3")->SetFailed(true); });
    // Every path to gpu3 fails. swb1 and its uplink carry only gpu3's traffic, so no probe
    // can tell them from the GPU link: Algorithm 1 names all four, nothing else.
    EXPECT_EQ(abnormal, (std::vector<std::string>{"swb1", "gpu3", "pcie-swb1", "pcie-gpu3"}));
}

TEST_F(HostpingTest, DegradedRootPortLinkIsNamed)
{
    auto abnormal = Diagnose([](Ptr<HostModel> h)
                             { DynamicCast<PcieLink>(h->GetResource("pcie-rp1"))->Retrain(4, 4); });
    EXPECT_NE(std::find(abnormal.begin(), abnormal.end(), "pcie-rp1"), abnormal.end());
}

// The five link failures of Hostping Fig. 2 (1 RNIC PCIe link, 2 GPU PCIe link, 3 CPU root
// port, 4 memory channels, 5 UPI), each injected alone: tomography names the failed resource,
// together with only those that carry exactly the same probes (no probe can separate them).
TEST_F(HostpingTest, FailedRootPortIsNamed)
{
    auto abnormal = Diagnose([](Ptr<HostModel> h) { h->GetResource("rp1")->SetFailed(true); });
    EXPECT_EQ(abnormal, (std::vector<std::string>{"rp1", "pcie-rp1"}));
}

TEST_F(HostpingTest, FailedMemoryChannelsAreNamed)
{
    // Seven of eight DDR4 channels of socket 0 down: 204.8 Gb/s, too little for a 200 Gb/s
    // loopback (read + write-back).
    auto abnormal =
        Diagnose([](Ptr<HostModel> h)
                 { h->GetResource("mem0")->SetAttribute("FailedChannels", UintegerValue(7)); });
    EXPECT_EQ(abnormal, std::vector<std::string>{"mem0"});
}

TEST_F(HostpingTest, FailedUpiIsNamed)
{
    auto abnormal = Diagnose([](Ptr<HostModel> h) { h->GetResource("upi")->SetFailed(true); });
    EXPECT_EQ(abnormal, std::vector<std::string>{"upi"});
}

TEST_F(HostpingTest, DegradedUpiBelowTheReadBudgetIsNamed)
{
    // A degraded (not failed) UPI: one link left at a low speed, 50 Gb/s per direction.
    auto abnormal = Diagnose(
        [](Ptr<HostModel> h)
        { h->GetResource("upi")->SetAttribute("Capacity", DataRateValue(DataRate("50Gbps"))); });
    EXPECT_EQ(abnormal, std::vector<std::string>{"upi"});
}

} // namespace
