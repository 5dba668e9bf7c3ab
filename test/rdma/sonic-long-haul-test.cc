// An 80 km T2 -> regional-hub link (spec §6, §8 check 17): lossless incast across it with
// the HeadroomCalculator's headroom on the long-haul port, and with Listing 1's 5 m headroom;
// then the same with both switches modelled as what Azure deploys there, DeepBufferVoq
// chassis (Jericho2 configuration), with the calculated headroom and with the 2 km
// headroom of the chassis' static profile.
#include "ns3/boolean.h"
#include "ns3/deep-buffer-voq.h"
#include "ns3/rdma-fabric-builder.h"
#include "ns3/simulator.h"
#include "ns3/sonic-buffer-manager.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr uint32_t SENDERS = 4;

struct LongHaulResult
{
    uint32_t completions{0};
    uint64_t switchDrops{0};
    uint64_t overflows{0};
    uint64_t longPortXoff{0};
    uint64_t longPortHeadroomPeak{0};
    uint64_t dramDrops{0};
    uint64_t hubDramPeak{0};
};

void
CountCompletion(LongHaulResult* r, const RdmaCompletion& c)
{
    if (!c.receive && c.status == RdmaWcStatus::Success)
    {
        r->completions++;
    }
}

/**
 * 4 senders at 100 Gb/s on switch T2, an 80 km 400 Gb/s link to switch RH, one
 * receiver at 100 Gb/s on RH: RH's long-haul ingress PG pauses and must absorb
 * 400 Gb/s x 0.8 ms round trip. \p chassis: both switches are DeepBufferVoq
 * (default Jericho2 configuration, every packet through DRAM); else Listing 1
 * pizza boxes with the chassis' egress pool size. The chassis' lossless PG pauses
 * only at alpha S / (1 + alpha) = 195 MB (alpha 1/32, S 6.44 GB), so its senders
 * move 320 MB (in 4 KB packets, to keep the event count of the pizza-box run).
 */
LongHaulResult
RunLongHaul(bool cableHeadroom, bool chassis = false)
{
    DcbHelper dcb;
    dcb.SetBufferManager(chassis ? "ns3::DeepBufferVoq" : "ns3::SonicBufferManager");
    dcb.SetBufferManagerAttribute("UnlistedPortsLikeFirst", BooleanValue(true));
    dcb.SetBufferManagerAttribute("CableHeadroom", BooleanValue(cableHeadroom));
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::RdmaNoCongestionControl");
    if (chassis)
    {
        rdma.SetQueuePairAttribute("Mtu", UintegerValue(4096));
    }
    // Hosts 0..3 on T2 (switch 0), host 4 on RH (switch 1, its port 0), then the
    // 80 km long haul (RH port 1): 400 us at 5 ns/m.
    RdmaFabricBuilder fabric(SENDERS + 1, 2);
    for (uint32_t i = 0; i < SENDERS; ++i)
    {
        fabric.AddLink(i, SENDERS + 1, DataRate("100Gbps"), MicroSeconds(1));
    }
    fabric.AddLink(SENDERS, SENDERS + 2, DataRate("100Gbps"), MicroSeconds(1));
    const uint32_t longHaul =
        fabric.AddLink(SENDERS + 1, SENDERS + 2, DataRate("400Gbps"), MicroSeconds(1));
    fabric.SetLinkLength(longHaul, 80000);
    // Listing 1 caps an egress lossless queue at the 24 MB of a pizza box; the regional
    // hub is a deep-buffer chassis: use the Nokia IXR7250E (J2) pool size, 6,441,610,000 B.
    // The chassis has one 6.4 GB pool of type "both" already.
    for (uint32_t s = 0; s < 2 && !chassis; ++s)
    {
        fabric.SetSwitchBufferEdit(
            s,
            [](SonicBufferConfig& c)
            {
                c.pools[c.FindPool("egress_lossless_pool")].size = 6441610000ULL;
                c.profiles[c.FindProfile("egress_lossless_profile")].staticTh = 6441610000ULL;
            });
    }
    fabric.Build(dcb, rdma);
    Ptr<DcbSwitch> t2 = fabric.GetSwitch(0);
    Ptr<DcbSwitch> rh = fabric.GetSwitch(1);
    const std::vector<Ptr<RdmaNic>>& nics = fabric.GetNics();
    Ptr<SonicBufferManager> bm = DynamicCast<SonicBufferManager>(rh->GetBufferManager());
    LongHaulResult r;
    for (auto& nic : nics)
    {
        nic->TraceConnectWithoutContext("Completion", MakeBoundCallback(&CountCompletion, &r));
    }
    for (uint32_t s = 0; s < SENDERS; ++s)
    {
        auto [qa, qb] = RdmaHelper::Connect(nics[s], nics[SENDERS]);
        RdmaWorkRequest wr;
        wr.wrId = s;
        wr.verb = RdmaVerb::Write;
        // 80 MB in all (6.4 ms at the 100 Gb/s receiver); 320 MB (25.6 ms) for the chassis.
        wr.length = chassis ? 80000000 : 20000000;
        qa->PostSend(wr);
    }
    Simulator::Stop(MilliSeconds(chassis ? 40 : 30));
    Simulator::Run();
    for (Ptr<DcbSwitch> s : {t2, rh})
    {
        for (uint8_t k = 0; k < DcbSwitch::N_DROP_REASONS; ++k)
        {
            r.switchDrops += s->GetDrops(static_cast<DcbSwitch::DropReason>(k));
        }
    }
    r.overflows = bm->GetDrops(BufferManager::DROP_HEADROOM_OVERFLOW);
    r.longPortXoff = rh->GetPort(1)->GetCounters(3).pfcXoffSent;
    r.longPortHeadroomPeak = bm->GetPgHeadroomWatermark(1, 3);
    for (Ptr<DcbSwitch> s : {t2, rh})
    {
        r.dramDrops += s->GetBufferManager()->GetDrops(BufferManager::DROP_DRAM_BANDWIDTH);
    }
    if (Ptr<DeepBufferVoq> voq = DynamicCast<DeepBufferVoq>(bm))
    {
        r.hubDramPeak = voq->GetDramWatermark();
    }
    Simulator::Destroy();
    return r;
}

TEST(SonicLongHaul, CalculatorHeadroomKeepsEightyKilometreLinkLossless)
{
    const LongHaulResult r = RunLongHaul(true);
    EXPECT_EQ(r.completions, SENDERS);
    EXPECT_EQ(r.switchDrops, 0u);
    EXPECT_EQ(r.overflows, 0u);
    EXPECT_GT(r.longPortXoff, 0u);
    // The in-flight data after XOFF: 400 Gb/s x 808 us round trip = 40.4 MB, less
    // what the 100 Gb/s drain removes meanwhile (a quarter, ~10 MB): ~30 MB; the
    // senders' 80 MB in all may end before the whole window is used: 15-45 MB.
    EXPECT_GT(r.longPortHeadroomPeak, 15000000u);
    EXPECT_LT(r.longPortHeadroomPeak, 45000000u);
    RecordProperty("headroom_peak", std::to_string(r.longPortHeadroomPeak));
}

TEST(SonicLongHaul, FiveMetreHeadroomOverflowsOnEightyKilometres)
{
    const LongHaulResult r = RunLongHaul(false);
    EXPECT_GT(r.overflows, 1000u);
    EXPECT_LE(r.longPortHeadroomPeak, 96928u); // Listing 1's per-PG cap
    RecordProperty("headroom_overflows", std::to_string(r.overflows));
}

TEST(SonicLongHaul, ChassisWithCalculatorHeadroomIsLosslessOverEightyKilometres)
{
    const LongHaulResult r = RunLongHaul(true, true);
    EXPECT_EQ(r.completions, SENDERS);
    EXPECT_EQ(r.switchDrops, 0u);
    EXPECT_EQ(r.overflows, 0u);
    EXPECT_EQ(r.dramDrops, 0u); // 400 Gb/s in, below 0.9 x (400 + 100) Gb/s of DRAM
    EXPECT_GT(r.longPortXoff, 0u);
    // The same window as on the pizza box: ~30 MB of headroom in use, far above the
    // static profile's 1,445,888 B (2 km) and held in DRAM with the paused backlog.
    EXPECT_GT(r.longPortHeadroomPeak, 15000000u);
    EXPECT_LT(r.longPortHeadroomPeak, 45000000u);
    EXPECT_GT(r.hubDramPeak, 180000000u); // the paused PG's ~195 MB shared + headroom
    RecordProperty("headroom_peak", std::to_string(r.longPortHeadroomPeak));
    RecordProperty("hub_dram_peak", std::to_string(r.hubDramPeak));
}

TEST(SonicLongHaul, ChassisTwoKilometreHeadroomOverflowsOnEightyKilometres)
{
    const LongHaulResult r = RunLongHaul(false, true);
    EXPECT_GT(r.overflows, 1000u);
    EXPECT_LE(r.longPortHeadroomPeak, 1445888u); // the J2 profile's per-PG xoff
    RecordProperty("headroom_overflows", std::to_string(r.overflows));
}

} // namespace
