// Azure §7.1: a shared headroom pool with oversubscription absorbs a burst that static
// per-PG headroom of the same total cannot. 8 -> 1 lossless incast where two senders sit
// behind 2 km cables (10 us one way) and six behind 1 us cables.
#include "ns3/rdma-fabric-builder.h"
#include "ns3/simulator.h"
#include "ns3/sonic-buffer-manager.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr uint32_t SENDERS = 8;
constexpr uint32_t LONG_SENDERS = 2;
constexpr uint64_t TOTAL_HEADROOM = SENDERS * 128 * 1024; // 1 MiB in both variants

struct BurstResult
{
    uint32_t completions{0};
    uint64_t overflows{0};
    uint64_t shpPeak{0};
    uint64_t longPgPeak{0};
};

void
CountCompletion(BurstResult* r, const RdmaCompletion& c)
{
    if (!c.receive && c.status == RdmaWcStatus::Success)
    {
        r->completions++;
    }
}

/** \p shared true: SHP of TOTAL_HEADROOM, per-PG cap 4x its share; false: static TOTAL/8. */
BurstResult
RunBurst(bool shared)
{
    DcbHelper dcb;
    dcb.SetBufferManager("ns3::SonicBufferManager");
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::RdmaNoCongestionControl");
    // The receiver (host SENDERS) and the short senders on 1 us cables, the first
    // LONG_SENDERS senders on 2 km (10 us).
    RdmaFabricBuilder fabric(SENDERS + 1, 1);
    for (uint32_t i = 0; i <= SENDERS; ++i)
    {
        fabric.AddLink(i, SENDERS + 1, DataRate("100Gbps"),
                       MicroSeconds(i < LONG_SENDERS ? 10 : 1));
    }
    int32_t pool = -1;
    fabric.SetSwitchBufferEdit(0,
                               [shared, &pool](SonicBufferConfig& c)
                               {
                                   pool = c.FindPool("ingress_pool");
                                   const int32_t prof = c.FindProfile("ingress_lossless_profile");
                                   if (shared)
                                   {
                                       c.pools[pool].xoff = TOTAL_HEADROOM;
                                       c.profiles[prof].xoff =
                                           4 * TOTAL_HEADROOM / SENDERS; // oversubscription ratio 4
                                   }
                                   else
                                   {
                                       c.pools[pool].xoff = 0; // no SHP: each PG owns its xoff
                                       c.profiles[prof].xoff = TOTAL_HEADROOM / SENDERS;
                                   }
                               });
    fabric.Build(dcb, rdma);
    Ptr<SonicBufferManager> bm =
        DynamicCast<SonicBufferManager>(fabric.GetSwitch(0)->GetBufferManager());
    const std::vector<Ptr<RdmaNic>>& nics = fabric.GetNics();
    BurstResult r;
    for (auto& nic : nics)
    {
        nic->TraceConnectWithoutContext("Completion", MakeBoundCallback(&CountCompletion, &r));
    }
    for (uint32_t i = 0; i < SENDERS; ++i)
    {
        auto [qa, qb] = RdmaHelper::Connect(nics[i], nics[SENDERS]);
        RdmaWorkRequest wr;
        wr.wrId = i;
        wr.verb = RdmaVerb::Write;
        wr.length = 4000000;
        qa->PostSend(wr);
    }
    Simulator::Stop(MilliSeconds(40));
    Simulator::Run();
    r.overflows = bm->GetDrops(BufferManager::DROP_HEADROOM_OVERFLOW);
    r.shpPeak = bm->GetPoolHeadroomWatermark(pool);
    r.longPgPeak = bm->GetPgHeadroomWatermark(0, 3);
    Simulator::Destroy();
    return r;
}

TEST(SonicShpBurst, SharedPoolAbsorbsWhatStaticHeadroomCannot)
{
    const BurstResult shp = RunBurst(true);
    const BurstResult fixed = RunBurst(false);
    // A 2 km port needs ~2 x 10 us x 100 Gb/s = 250 KB after XOFF, more than its
    // static 128 KiB share, while the 1 us ports need ~35 KB each: the pool holds it.
    EXPECT_EQ(shp.overflows, 0u);
    EXPECT_EQ(shp.completions, SENDERS);
    EXPECT_GT(shp.longPgPeak, 128u * 1024);
    EXPECT_LE(shp.shpPeak, TOTAL_HEADROOM);
    EXPECT_GT(fixed.overflows, 0u);
    EXPECT_LE(fixed.longPgPeak, 128u * 1024);
    RecordProperty("shp_peak", std::to_string(shp.shpPeak));
    RecordProperty("long_pg_peak", std::to_string(shp.longPgPeak));
    RecordProperty("static_overflows", std::to_string(fixed.overflows));
}

} // namespace
