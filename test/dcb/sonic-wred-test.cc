// WRED_PROFILE from config_db programs each port's RedEcnMarker (spec §5, §8 check 15).
#include "ns3/dcb-helper.h"
#include "ns3/node.h"
#include "ns3/red-ecn-marker.h"
#include "ns3/simulator.h"
#include "ns3/sonic-buffer-manager.h"
#include "ns3/string.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(SonicWred, AzureLosslessProfileSetsQueueThreeAndFourMarking)
{
    Ptr<Node> s = CreateObject<Node>();
    DcbHelper h;
    h.SetBufferManager("ns3::SonicBufferManager");
    h.SetBufferManagerAttribute("ConfigFile",
                                StringValue(std::string(ROCE_LAB_SOURCE_DIR) +
                                            "/topologies/sonic/azure-pizza-box-24MB.json"));
    for (int i = 0; i < 3; ++i)
    {
        h.Install(CreateObject<Node>(), s);
    }
    Ptr<DcbSwitch> sw = h.InstallSwitch(s);
    for (uint32_t p = 0; p < 3; ++p)
    {
        Ptr<RedEcnMarker> red = DynamicCast<RedEcnMarker>(sw->GetEcnMarker(p));
        ASSERT_TRUE(red);
        // AZURE_LOSSLESS: 1 MiB / 2 MiB / 5 %: q = 1.5 MiB -> 2.5 %, above 2 MiB -> 1.
        EXPECT_NEAR(red->GetProbability(3, 1572864), 0.025, 1e-12);
        EXPECT_NEAR(red->GetProbability(4, 1572864), 0.025, 1e-12);
        EXPECT_EQ(red->GetProbability(3, 1048576), 0.0);
        EXPECT_EQ(red->GetProbability(4, 2097153), 1.0);
        // DCQCN defaults (5 KB / 200 KB) no longer apply; queues without a profile never mark.
        EXPECT_EQ(red->GetProbability(3, 300000), 0.0);
        EXPECT_EQ(red->GetProbability(0, 3000000), 0.0);
        EXPECT_EQ(red->GetProbability(1, 3000000), 0.0);
    }
    EXPECT_EQ(DcbHelper::ApplySonicWred(sw), 6u); // 3 ports x queues 3, 4
    Simulator::Destroy();
}

TEST(SonicWred, ListingWithoutWredLeavesMarkerDefaults)
{
    Ptr<Node> s = CreateObject<Node>();
    DcbHelper h;
    h.SetBufferManager("ns3::SonicBufferManager"); // built-in Listing 1 has no WRED_PROFILE
    h.Install(CreateObject<Node>(), s);
    Ptr<DcbSwitch> sw = h.InstallSwitch(s);
    Ptr<RedEcnMarker> red = DynamicCast<RedEcnMarker>(sw->GetEcnMarker(0));
    EXPECT_EQ(DcbHelper::ApplySonicWred(sw), 0u);
    EXPECT_EQ(red->GetProbability(3, 300000), 1.0); // above the 200 KB DCQCN Kmax
    Simulator::Destroy();
}
