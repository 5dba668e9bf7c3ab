// DynamicThresholdBufferManager: thresholds, PFC decisions and drops, no network.
#include "ns3/double.h"
#include "ns3/dynamic-threshold-buffer-manager.h"
#include "ns3/queue-size.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

struct PfcEvent
{
    uint32_t port;
    uint8_t pg;
    bool xoff;
};

class BufferManagerTest : public ::testing::Test
{
  protected:
    /** 18,000,000 B shared pool (Azure Listing 1's ingress pool) with fixed headroom. */
    void Build(uint32_t ports, uint8_t losslessMask)
    {
        bm = CreateObject<DynamicThresholdBufferManager>();
        const uint32_t losslessPgs = __builtin_popcount(losslessMask);
        bm->SetAttribute("LosslessClasses", UintegerValue(losslessMask));
        bm->SetAttribute("Headroom", QueueSizeValue(QueueSize("100000B")));
        const uint64_t buffer = 18000000 + uint64_t(100000) * ports * losslessPgs;
        bm->SetAttribute("BufferSize", QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, buffer)));
        bm->SetPfcCallback(MakeCallback(&BufferManagerTest::OnPfc, this));
        std::vector<BufferPortInfo> info(
            ports, BufferPortInfo{DataRate("100Gbps"), MicroSeconds(1), 9216});
        bm->Setup(info);
    }

    void OnPfc(uint32_t port, uint8_t pg, bool xoff) { events.push_back(PfcEvent{port, pg, xoff}); }

    void TearDown() override { Simulator::Destroy(); }

    Ptr<DynamicThresholdBufferManager> bm;
    std::vector<PfcEvent> events;
};

TEST_F(BufferManagerTest, SharedPoolExcludesHeadroom)
{
    Build(4, 0x08);
    EXPECT_EQ(bm->GetSharedPoolSize(), 18000000u);
    EXPECT_EQ(bm->GetIngressThreshold(), 2250000u); // 1/8 of an empty pool
}

TEST_F(BufferManagerTest, SinglePgPausesAtAlphaOverOnePlusAlpha)
{
    // spec check 2: S = 18e6, alpha = 1/8, one saturated PG -> 2,000,000 B.
    Build(4, 0x08);
    const uint32_t L = 1000;
    uint64_t admittedShared = 0;
    while (events.empty())
    {
        ASSERT_TRUE(bm->Admit(0, 1, 3, L));
        admittedShared = bm->GetIngressSharedBytes(0, 3);
    }
    EXPECT_NEAR(double(admittedShared), 2000000.0, L);
    EXPECT_TRUE(events[0].xoff);
    EXPECT_EQ(events[0].port, 0u);
    EXPECT_EQ(events[0].pg, 3);
}

TEST_F(BufferManagerTest, EightPgsShareByDynamicThreshold)
{
    // spec check 2: N = 8 saturated PGs -> 1,125,000 B each.
    Build(9, 0x08);
    const uint32_t L = 1000;
    std::vector<bool> paused(8, false);
    for (int round = 0; round < 5000; ++round)
    {
        for (uint32_t p = 0; p < 8; ++p)
        {
            if (!bm->IsPaused(p, 3))
            {
                bm->Admit(p, 8, 3, L);
            }
        }
    }
    for (uint32_t p = 0; p < 8; ++p)
    {
        EXPECT_TRUE(bm->IsPaused(p, 3));
        EXPECT_NEAR(double(bm->GetIngressSharedBytes(p, 3)), 1125000.0, 2.0 * L) << p;
    }
}

TEST_F(BufferManagerTest, HeadroomAbsorbsThenOverflowIsCounted)
{
    Build(4, 0x08);
    const uint32_t L = 1000;
    while (events.empty())
    {
        bm->Admit(0, 1, 3, L);
    }
    // 100,000 B of headroom take exactly 100 more packets (the pausing one included).
    uint32_t accepted = 0;
    while (bm->Admit(0, 1, 3, L))
    {
        accepted++;
    }
    EXPECT_EQ(bm->GetHeadroomBytes(0, 3), 100000u);
    EXPECT_GE(accepted, 99u);
    EXPECT_LE(accepted, 100u);
    EXPECT_EQ(bm->GetDrops(BufferManager::DROP_HEADROOM_OVERFLOW), 1u);
    EXPECT_EQ(bm->GetDrops(BufferManager::DROP_EGRESS_LIMIT), 0u);
}

TEST_F(BufferManagerTest, XonAfterHeadroomDrainsAndBelowThreshold)
{
    Build(4, 0x08);
    const uint32_t L = 1000;
    uint32_t n = 0;
    while (bm->Admit(0, 1, 3, L))
    {
        n++;
    }
    ASSERT_EQ(events.size(), 1u);
    // Drain packet by packet; XON must come once the headroom is empty and the
    // shared occupancy is at most threshold - XonOffset.
    for (uint32_t i = 0; i < n && events.size() == 1; ++i)
    {
        bm->Release(0, 1, 3, L);
    }
    ASSERT_EQ(events.size(), 2u);
    EXPECT_FALSE(events[1].xoff);
    EXPECT_EQ(bm->GetHeadroomBytes(0, 3), 0u);
    EXPECT_LE(bm->GetIngressSharedBytes(0, 3) + 2496, bm->GetIngressThreshold());
    EXPECT_GT(bm->GetIngressSharedBytes(0, 3) + 2496 + L, bm->GetIngressThreshold());
}

TEST_F(BufferManagerTest, LossyEgressDropsAtHalfOfFreeSpace)
{
    // One saturated lossy queue with alpha = 1/2 settles at S/3 (alpha S/(1+alpha)).
    Build(4, 0x08);
    const uint32_t L = 1000;
    while (bm->Admit(0, 1, 0, L))
    {
    }
    EXPECT_NEAR(double(bm->GetEgressBytes(1, 0)), 6000000.0, L);
    EXPECT_EQ(bm->GetDrops(BufferManager::DROP_EGRESS_LIMIT), 1u);
    EXPECT_TRUE(events.empty()); // lossy traffic never triggers PFC
}

} // namespace
