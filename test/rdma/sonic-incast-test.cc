// Lossless incast through a switch running SonicBufferManager with Azure's Listing 1.
#include "rdma-test-fabric.h"

#include "ns3/simulator.h"
#include "ns3/sonic-buffer-manager.h"
#include "ns3/string.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint32_t SENDERS = 32;

struct IncastResult
{
    uint32_t completions{0};
    uint64_t switchDrops{0};
    uint64_t headroomOverflows{0};
    uint64_t xoff{0};
    uint64_t shpWatermark{0};
};

void
CountCompletion(IncastResult* r, const RdmaCompletion& c)
{
    if (!c.receive && c.status == RdmaWcStatus::Success)
    {
        r->completions++;
    }
}

/** 32 -> 1 at 100 Gb/s, 1 MB each, no congestion control; \p shpBytes 0 = Listing 1 as is. */
IncastResult
RunIncast(uint64_t shpBytes)
{
    DcbHelper dcb;
    dcb.SetBufferManager("ns3::SonicBufferManager");
    dcb.SetBufferManagerAttribute("ConfigFile",
                                  StringValue(std::string(ROCE_LAB_SOURCE_DIR) +
                                              "/topologies/sonic/azure-pizza-box-24MB.json"));
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::RdmaNoCongestionControl"); // worst case: line rate
    RdmaLeafSpineFabric f =
        RdmaLeafSpineFabric::Star(SENDERS + 1, DataRate("100Gbps"), MicroSeconds(1));
    if (shpBytes > 0)
    {
        f.GetFabric().SetSwitchBufferEdit(0, [shpBytes](SonicBufferConfig& c)
                                          { c.pools[c.FindPool("ingress_pool")].xoff = shpBytes; });
    }
    f.Build(dcb, rdma);
    Ptr<SonicBufferManager> bm =
        DynamicCast<SonicBufferManager>(f.GetSwitch(0)->GetBufferManager());
    IncastResult r;
    for (auto& nic : f.GetNics())
    {
        nic->TraceConnectWithoutContext("Completion", MakeBoundCallback(&CountCompletion, &r));
    }
    for (uint32_t s = 0; s < SENDERS; ++s)
    {
        auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[s], f.GetNics()[SENDERS]);
        RdmaWorkRequest wr;
        wr.wrId = s;
        wr.verb = RdmaVerb::Write;
        wr.length = 1000000;
        qa->PostSend(wr);
    }
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    r.switchDrops = SwitchDrops(f);
    r.headroomOverflows = bm->GetDrops(BufferManager::DROP_HEADROOM_OVERFLOW);
    r.xoff = SwitchXoffSent(f, 3);
    r.shpWatermark = bm->GetPoolHeadroomWatermark(bm->GetConfig().FindPool("ingress_pool"));
    Simulator::Destroy();
    return r;
}

TEST(SonicIncast, ThirtyTwoToOneLosesNothingUnderListing1)
{
    const IncastResult r = RunIncast(0);
    EXPECT_EQ(r.completions, SENDERS);
    EXPECT_EQ(r.switchDrops, 0u);
    EXPECT_EQ(r.headroomOverflows, 0u);
    EXPECT_GT(r.xoff, 0u);
    EXPECT_GT(r.shpWatermark, 0u);
    EXPECT_LE(r.shpWatermark, 6000000u);
    RecordProperty("shp_watermark", std::to_string(r.shpWatermark));
}

TEST(SonicIncast, ShrunkHeadroomPoolOverflowsAndIsCounted)
{
    // 32 paused PGs each need about a round trip of line-rate data in headroom
    // (2 x 1 us x 100 Gb/s + frames in flight, ~30 KB): 64 KB of SHP cannot hold it.
    const IncastResult r = RunIncast(64 * 1024);
    EXPECT_GT(r.headroomOverflows, 0u);
    EXPECT_EQ(r.switchDrops, r.headroomOverflows);
    RecordProperty("headroom_overflows", std::to_string(r.headroomOverflows));
}

} // namespace
