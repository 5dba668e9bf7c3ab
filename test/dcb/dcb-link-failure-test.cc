// Link failure (DcbNetDevice::SetLinkUp) and pinned routes (DcbSwitch::SetPinnedRoute).
#include "udp-frame.h"

#include "ns3/dcb-helper.h"
#include "ns3/dcb-net-device.h"
#include "ns3/dcb-switch.h"
#include "ns3/ethernet-vlan-header.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

Ptr<Packet>
Frame(Ipv4Address src, Ipv4Address dst, uint16_t sport)
{
    return UdpFrame(src, dst, sport, 3, 1000);
}

class LinkFailureTest : public ::testing::Test
{
  public:
    void TearDown() override { Simulator::Destroy(); }

    void Count(Ptr<DcbNetDevice>, Ptr<Packet>, const EthernetVlanHeader&) { received++; }
    void OnLinkChange() { changes++; }

    uint32_t received{0};
    uint32_t changes{0};
};

TEST_F(LinkFailureTest, DownLinkDropsBothWaysAndCallbacksFire)
{
    Ptr<Node> a = CreateObject<Node>();
    Ptr<Node> b = CreateObject<Node>();
    DcbHelper h;
    NetDeviceContainer d = h.Install(a, b);
    Ptr<DcbNetDevice> da = DynamicCast<DcbNetDevice>(d.Get(0));
    Ptr<DcbNetDevice> db = DynamicCast<DcbNetDevice>(d.Get(1));
    db->SetDcbReceiveCallback(MakeCallback(&LinkFailureTest::Count, this));
    da->SetDcbReceiveCallback(MakeCallback(&LinkFailureTest::Count, this));
    da->AddLinkChangeCallback(MakeCallback(&LinkFailureTest::OnLinkChange, this));
    uint32_t traced = 0;
    da->TraceConnectWithoutContext("LinkDrop",
                                   MakeBoundCallback(
                                       +[](uint32_t* n, Ptr<const Packet>) { ++*n; }, &traced));
    const Ipv4Address x("10.0.0.1");
    // 10 frames queued at t=0 (the first goes on the wire), link down at 1 ns,
    // 5 more while down, up at 1 ms, then 3 more.
    for (int i = 0; i < 10; ++i)
    {
        da->Enqueue(Frame(x, x, 1), 3, 0);
    }
    Simulator::Schedule(NanoSeconds(1), &DcbNetDevice::SetLinkUp, da, false);
    for (int i = 0; i < 5; ++i)
    {
        Simulator::Schedule(MicroSeconds(10 + i), [da, x]() { da->Enqueue(Frame(x, x, 1), 3, 0); });
    }
    // B -> A while A is down: lost at A's receiver.
    Simulator::Schedule(MicroSeconds(20), [db, x]() { db->Enqueue(Frame(x, x, 1), 3, 0); });
    Simulator::Schedule(MicroSeconds(30), [this, da]() { EXPECT_FALSE(da->IsLinkUp()); });
    Simulator::Schedule(MilliSeconds(1), &DcbNetDevice::SetLinkUp, da, true);
    for (int i = 0; i < 3; ++i)
    {
        Simulator::Schedule(MilliSeconds(2), [da, x]() { da->Enqueue(Frame(x, x, 1), 3, 0); });
    }
    Simulator::Run();
    // Only the frame already on the wire at 1 ns and the 3 sent after recovery arrive.
    EXPECT_EQ(received, 1u + 3u);
    EXPECT_EQ(da->GetCounters(3).linkDownDrops, 9u + 5u + 1u);
    EXPECT_EQ(traced, 15u);
    EXPECT_EQ(changes, 2u);
    EXPECT_TRUE(da->IsLinkUp());
}

TEST_F(LinkFailureTest, PinnedRouteOverridesEcmpOnlyForItsPair)
{
    // Switch with 4 ports towards the same destination (ECMP) plus an input port.
    Ptr<Node> s = CreateObject<Node>();
    Ptr<Node> src = CreateObject<Node>();
    DcbHelper h;
    Ptr<DcbNetDevice> in = DynamicCast<DcbNetDevice>(h.Install(src, s).Get(0)); // port 0
    std::vector<Ptr<DcbNetDevice>> outs;
    for (int i = 0; i < 4; ++i)
    {
        outs.push_back(DynamicCast<DcbNetDevice>(h.Install(CreateObject<Node>(), s).Get(0)));
    }
    Ptr<DcbSwitch> sw = h.InstallSwitch(s);
    const Ipv4Address base("10.0.0.1");
    const Ipv4Address a("10.0.0.1");
    const Ipv4Address b("10.0.0.2");
    const Ipv4Address dst("10.0.0.3");
    sw->SetAddressRange(base, 3);
    sw->SetRoute(dst, {1, 2, 3, 4});
    // Find a UDP source port that ECMP sends to a port other than 3, for both sources.
    uint16_t sport = 1;
    while (sw->SelectPort(a, dst, 17, sport, 4791) == 3 ||
           sw->SelectPort(b, dst, 17, sport, 4791) == 3)
    {
        ++sport;
    }
    const int64_t ecmpB = sw->SelectPort(b, dst, 17, sport, 4791);
    sw->SetPinnedRoute(a, dst, 3);
    sw->SetPinnedRoute(Ipv4Address("10.0.0.9"), dst, 1);
    sw->SetPinnedRoute(a, dst, 3); // replaces, does not duplicate
    EXPECT_EQ(sw->GetNPinnedRoutes(), 2u);
    for (uint16_t p = 1; p < 200; ++p)
    {
        EXPECT_EQ(sw->SelectPort(a, dst, 17, p, 4791), 3);
    }
    EXPECT_EQ(sw->SelectPort(b, dst, 17, sport, 4791), ecmpB); // other pairs keep ECMP
    // And on the packet path: 20 frames from a all leave through port 3.
    for (int i = 0; i < 20; ++i)
    {
        in->Enqueue(Frame(a, dst, uint16_t(i + 1)), 3, 0);
    }
    Simulator::Run();
    EXPECT_EQ(sw->GetPort(3)->GetCounters(3).txPackets, 20u);
    sw->ClearPinnedRoute(a, dst);
    EXPECT_EQ(sw->SelectPort(a, dst, 17, sport, 4791), sw->SelectPort(a, dst, 17, sport, 4791));
    EXPECT_NE(sw->SelectPort(a, dst, 17, sport, 4791), 3);
}

} // namespace
