// contrib/host: PCIe arithmetic, Hostping Fig. 4 read budget, max-min sharing, faults.
// Algorithm units and small graphs, no network. Host graph files are read by dc-experiment's
// HostModelReader (test/dc-experiment/host-model-reader-test.cc).
#include "ns3/gpu-device.h"
#include "ns3/host-model.h"
#include "ns3/host-preset-helper.h"
#include "ns3/memory-channel.h"
#include "ns3/pcie-link.h"
#include "ns3/pcie-switch.h"
#include "ns3/rnic-port.h"
#include "ns3/root-complex.h"
#include "ns3/root-port.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <string>

using namespace ns3;

namespace
{

double
Gbps(DataRate r)
{
    return r.GetBitRate() / 1e9;
}

class HostModelTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /// Measured rate of one DMA of bytes: bytes / (latency - path round trip).
    double MeasureDma(Ptr<HostModel> host, const std::string& a, const std::string& b,
                      HostModel::DmaKind kind, uint64_t bytes)
    {
        Time latency;
        host->RequestDma(a, b, kind, bytes, MakeCallback(&HostModelTest::Done, this));
        Simulator::Run();
        Time rtt = host->GetPathLatency(host->GetResourceId(a), host->GetResourceId(b));
        Time tail = kind == HostModel::DMA_WRITE ? rtt / 2 : rtt;
        return bytes * 8.0 / (m_latency - tail).GetSeconds() / 1e9;
    }

    void Done(Time latency)
    {
        m_latency = latency;
        ++m_done;
    }

    Time m_latency;
    uint32_t m_done = 0;
};

TEST_F(HostModelTest, PcieLinkPayloadRates)
{
    auto link = CreateObject<PcieLink>();
    link->Retrain(3, 8);
    EXPECT_NEAR(Gbps(link->GetRawRate()), 63.0, 0.1);
    EXPECT_NEAR(Gbps(link->GetCapacity()), 53.0, 0.53); // within 1%
    link->Retrain(4, 16);
    EXPECT_NEAR(Gbps(link->GetRawRate()), 252.1, 0.1);
    EXPECT_NEAR(Gbps(link->GetCapacity()), 208.0, 208 * 0.02); // within 2%
    link->Retrain(4, 4);
    EXPECT_NEAR(Gbps(link->GetCapacity()), 211.7 / 4, 0.1);
    EXPECT_FALSE(link->SetLanes(3));
    EXPECT_EQ(link->GetLanes(), 4u);
    link->SetFailed(true);
    EXPECT_EQ(link->GetCapacity().GetBitRate(), 0u);
}

TEST_F(HostModelTest, HostpingFig4OneReadBudget)
{
    auto host = HostPresetHelper().CreateDgxLike();
    uint32_t rnic = host->GetResourceId("rnic0");
    auto rate = [&](const std::string& ep)
    { return Gbps(host->GetDmaRateLimit(rnic, host->GetResourceId(ep), HostModel::DMA_READ)); };
    auto rtt = [&](const std::string& ep)
    { return host->GetPathLatency(rnic, host->GetResourceId(ep)).GetMicroSeconds(); };
    EXPECT_EQ(DynamicCast<RnicPort>(host->GetResource("rnic0"))->GetReadBudget(), 34816u);
    // Distance 1: one PCIe switch, 1 us, line rate.
    EXPECT_NEAR(host->GetPathLatency(rnic, host->GetResourceId("gpu0")).GetNanoSeconds(), 1000, 1);
    EXPECT_NEAR(rate("gpu0"), 200.0, 0.01);
    // Distance 2: three switches, almost the same latency, still line rate.
    EXPECT_LT(host->GetPathLatency(rnic, host->GetResourceId("gpu1")).GetNanoSeconds(), 1300);
    EXPECT_NEAR(rate("gpu1"), 200.0, 0.01);
    // Distance 3: through the root complex, 2.2 us, 125.5 Gb/s.
    EXPECT_EQ(rtt("gpu2"), 2);
    EXPECT_NEAR(host->GetPathLatency(rnic, host->GetResourceId("gpu2")).GetNanoSeconds(), 2200, 1);
    EXPECT_NEAR(rate("gpu2"), 125.5, 125.5 * 0.03);
    // Distance 4: + UPI, 2.4 us, 116.4 Gb/s.
    EXPECT_NEAR(host->GetPathLatency(rnic, host->GetResourceId("gpu4")).GetNanoSeconds(), 2400, 1);
    EXPECT_NEAR(rate("gpu4"), 116.4, 116.4 * 0.03);
    // Local memory is affinitive: line rate (Hostping §4.2).
    EXPECT_NEAR(rate("mem0"), 200.0, 0.01);
    // The simulated DMA runs at those rates.
    EXPECT_NEAR(MeasureDma(host, "rnic0", "gpu2", HostModel::DMA_READ, 4000000), 126.6, 0.2);
    EXPECT_NEAR(MeasureDma(host, "rnic0", "gpu4", HostModel::DMA_READ, 4000000), 116.1, 0.2);
    // Writes are posted: no budget, line rate even over UPI.
    EXPECT_NEAR(MeasureDma(host, "rnic0", "gpu4", HostModel::DMA_WRITE, 4000000), 200.0, 0.2);
}

TEST_F(HostModelTest, MaxMinSharingOfABottleneck)
{
    // rnic0 and rnic1 under one switch whose uplink is Gen3 x8 (52.9 Gb/s).
    auto host = CreateObject<HostModel>();
    host->AddDevice("rnic0", CreateObject<RnicPort>());
    host->AddDevice("rnic1", CreateObject<RnicPort>());
    host->AddDevice("sw", CreateObject<PcieSwitch>());
    host->AddDevice("rp", CreateObject<RootPort>());
    host->AddDevice("rc", CreateObject<RootComplex>());
    host->AddDevice("mem", CreateObject<MemoryChannel>());
    host->AddLink("l0", CreateObject<PcieLink>(), "rnic0", "sw");
    host->AddLink("l1", CreateObject<PcieLink>(), "rnic1", "sw");
    auto up = CreateObject<PcieLink>();
    up->Retrain(3, 8);
    double upGbps = Gbps(up->GetCapacity());
    host->AddLink("up", up, "sw", "rp");
    host->Connect("rp", "rc");
    host->Connect("rc", "mem");

    uint64_t a = host->RequestDma("rnic0", "mem", HostModel::DMA_WRITE, 10000000, {});
    uint64_t b = host->RequestDma("rnic1", "mem", HostModel::DMA_WRITE, 10000000, {});
    EXPECT_NEAR(Gbps(host->GetDmaRate(a)), upGbps / 2, 0.01);
    EXPECT_NEAR(Gbps(host->GetDmaRate(b)), upGbps / 2, 0.01);
    // A read from memory uses the other direction of every link: it gets its own full share.
    uint64_t c = host->RequestDma("rnic0", "mem", HostModel::DMA_READ, 10000000, {});
    EXPECT_NEAR(Gbps(host->GetDmaRate(c)), upGbps, 0.01);
    // Max-min: cap rnic1 at 10 Gb/s, rnic0 takes the rest of the uplink.
    host->GetResource("rnic1")->SetAttribute("LineRate", DataRateValue(DataRate("10Gbps")));
    EXPECT_NEAR(Gbps(host->GetDmaRate(b)), 10.0, 0.01);
    EXPECT_NEAR(Gbps(host->GetDmaRate(a)), upGbps - 10.0, 0.01);
    host->CancelDma(c);
    Simulator::Run();
    EXPECT_EQ(host->GetActiveDmaCount(), 0u);
}

TEST_F(HostModelTest, DegradedRnicLinkCapsItsDma)
{
    auto host = HostPresetHelper().CreateDgxLike();
    auto link = DynamicCast<PcieLink>(host->GetResource("pcie-rnic0"));
    uint64_t id = host->RequestDma("rnic0", "gpu0", HostModel::DMA_WRITE, 100000000, {});
    EXPECT_NEAR(Gbps(host->GetDmaRate(id)), 200.0, 0.01);
    // x16 -> x4 at 10 us: Gen4 x4 payload rate, 211.7 / 4 = 52.9 Gb/s.
    Simulator::Schedule(MicroSeconds(10), &PcieLink::Retrain, link, 4, 4);
    Simulator::Stop(MicroSeconds(20));
    Simulator::Run();
    EXPECT_NEAR(Gbps(host->GetDmaRate(id)), 52.9, 0.1);
    EXPECT_NEAR(Gbps(host->GetDmaRateLimit(host->GetResourceId("rnic0"),
                                           host->GetResourceId("mem0"), HostModel::DMA_READ)),
                52.9, 0.1);
    // rnic1 is untouched.
    EXPECT_NEAR(Gbps(host->GetDmaRateLimit(host->GetResourceId("rnic1"),
                                           host->GetResourceId("gpu2"), HostModel::DMA_WRITE)),
                200.0, 0.01);
    // A failed link stalls the DMA; repairing it resumes.
    link->SetFailed(true);
    EXPECT_EQ(host->GetDmaRate(id).GetBitRate(), 0u);
    link->SetFailed(false);
    EXPECT_NEAR(Gbps(host->GetDmaRate(id)), 52.9, 0.1);
}

TEST_F(HostModelTest, CompletionTimeOfAWrite)
{
    auto host = HostPresetHelper().CreatePlainServer();
    // 1 MB at 200 Gb/s = 40 us, plus half the read round trip.
    double gbps = MeasureDma(host, "rnic0", "mem0", HostModel::DMA_WRITE, 1000000);
    EXPECT_NEAR(gbps, 200.0, 0.01);
    EXPECT_EQ(m_done, 1u);
}

} // namespace
