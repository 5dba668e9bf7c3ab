// DcbRoutingHelper: shortest-path ECMP groups at set-up (PopulateRoutes) and their
// recomputation without withdrawn links (UpdateRoutes), on 2 leaves x 2 spines with one
// host a leaf.
#include "ns3/dcb-helper.h"
#include "ns3/dcb-net-device.h"
#include "ns3/dcb-routing-helper.h"
#include "ns3/dcb-switch.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

using Ports = std::vector<uint32_t>;

class DcbRoutingHelperTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        // Ports in link order: leaf 0 (L0) has h0 on port 0, S0 on 1, S1 on 2; L1 the same
        // with h1; S0 and S1 have L0 on port 0 and L1 on port 1.
        for (auto* n : {&h0, &h1, &l0, &l1, &s0, &s1})
        {
            *n = CreateObject<Node>();
        }
        DcbHelper h;
        hostPort = DynamicCast<DcbNetDevice>(h.Install(h0, l0).Get(0));
        h.Install(h1, l1);
        l0s0 = DynamicCast<DcbNetDevice>(h.Install(l0, s0).Get(0));
        h.Install(l0, s1);
        h.Install(l1, s0);
        h.Install(l1, s1);
        for (const Ptr<Node>& n : {l0, l1, s0, s1})
        {
            h.InstallSwitch(n);
        }
        hosts = {{a0, h0}, {a1, h1}};
        DcbRoutingHelper::PopulateRoutes(hosts);
    }

    void TearDown() override { Simulator::Destroy(); }

    static Ports Route(const Ptr<Node>& sw, Ipv4Address dst)
    {
        return sw->GetObject<DcbSwitch>()->GetRoute(dst);
    }

    Ptr<Node> h0, h1, l0, l1, s0, s1;
    Ptr<DcbNetDevice> hostPort; //!< h0's end of its link to L0
    Ptr<DcbNetDevice> l0s0;     //!< L0's end of its link to S0
    const Ipv4Address a0{"10.0.0.1"};
    const Ipv4Address a1{"10.0.0.2"};
    std::vector<DcbRoutingHelper::HostAddress> hosts;
};

TEST_F(DcbRoutingHelperTest, SetUpGivesEveryShortestPath)
{
    EXPECT_EQ(Route(l0, a0), (Ports{0}));
    EXPECT_EQ(Route(l1, a0), (Ports{1, 2}));
    EXPECT_EQ(Route(s0, a0), (Ports{0}));
    EXPECT_EQ(Route(s1, a1), (Ports{1}));
    // Nothing to change while every link is up.
    EXPECT_TRUE(DcbRoutingHelper::UpdateRoutes(hosts, {}).empty());
}

TEST_F(DcbRoutingHelperTest, WithdrawnLinkLeavesEveryGroupAndComesBack)
{
    const auto down = DcbRoutingHelper::UpdateRoutes(hosts, {l0s0});
    // L0 no longer reaches h1 through S0, nor L1 h0; S0 reaches h0 through L1 and S1.
    ASSERT_EQ(down.size(), 3u);
    EXPECT_EQ(down[0].node, l0);
    EXPECT_EQ(down[0].address, a1);
    EXPECT_EQ(down[0].before, (Ports{1, 2}));
    EXPECT_EQ(down[0].after, (Ports{2}));
    EXPECT_EQ(down[1].node, l1);
    EXPECT_EQ(down[1].address, a0);
    EXPECT_EQ(down[1].after, (Ports{2}));
    EXPECT_EQ(down[2].node, s0);
    EXPECT_EQ(down[2].before, (Ports{0}));
    EXPECT_EQ(down[2].after, (Ports{1}));
    EXPECT_EQ(Route(l1, a0), (Ports{2}));

    // The link back: the tables of set-up, the same routes changed back.
    const auto up = DcbRoutingHelper::UpdateRoutes(hosts, {});
    ASSERT_EQ(up.size(), 3u);
    for (uint32_t i = 0; i < 3; ++i)
    {
        EXPECT_EQ(up[i].node, down[i].node);
        EXPECT_EQ(up[i].before, down[i].after);
        EXPECT_EQ(up[i].after, down[i].before);
    }
    EXPECT_EQ(Route(l1, a0), (Ports{1, 2}));
}

TEST_F(DcbRoutingHelperTest, HostCutOffHasNoRouteAnywhere)
{
    const auto changes = DcbRoutingHelper::UpdateRoutes(hosts, {hostPort});
    ASSERT_EQ(changes.size(), 4u); // every switch's route to h0
    for (const auto& c : changes)
    {
        EXPECT_EQ(c.address, a0);
        EXPECT_TRUE(c.after.empty());
    }
    EXPECT_EQ(Route(l1, a1), (Ports{0}));
}

} // namespace
