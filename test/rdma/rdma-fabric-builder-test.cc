// RdmaFabricBuilder: node numbering, per-link rate and delay, NIC helpers per host,
// virtual-NIC aliases (addresses, routes, reachability), pinned routes, link up/down,
// a refused switch, cable lengths, SONiC buffer edits before the NICs; RdmaLeafSpineFabric's
// link numbering and spine lookups.
#include "ns3/boolean.h"
#include "ns3/config-error.h"
#include "ns3/dcb-channel.h"
#include "ns3/dcb-net-device.h"
#include "ns3/node.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/rdma-fabric-builder.h"
#include "ns3/rdma-leaf-spine-fabric.h"
#include "ns3/simulator.h"
#include "ns3/sonic-buffer-manager.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

class RdmaFabricBuilderTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /** Hosts 0, 1 on switch 0 and 2, 3 on switch 1; links 0-3 host links, 4 and 5 between. */
    static RdmaFabricBuilder TwoSwitches()
    {
        RdmaFabricBuilder f(4, 2);
        for (uint32_t h = 0; h < 4; ++h)
        {
            f.AddLink(h, 4 + h / 2, DataRate("100Gbps"), MicroSeconds(1));
        }
        f.AddLink(4, 5, DataRate("25Gbps"), MicroSeconds(3));
        f.AddLink(4, 5, DataRate("25Gbps"), MicroSeconds(3));
        return f;
    }

    /** Completion time of a \p bytes WRITE from \p local of \p a to \p remote of \p b. */
    static Time Write(Ptr<RdmaNic> a, Ipv4Address local, Ptr<RdmaNic> b, Ipv4Address remote,
                      uint64_t bytes)
    {
        auto [qa, qb] = RdmaHelper::Connect(a, local, b, remote);
        Time done;
        a->TraceConnectWithoutContext(
            "Completion", MakeBoundCallback(
                              +[](Time* t, const RdmaCompletion& c)
                              { *t = c.status == RdmaWcStatus::Success ? c.completionTime : *t; },
                              &done));
        RdmaWorkRequest wr;
        wr.verb = RdmaVerb::Write;
        wr.length = bytes;
        qa->PostSend(wr);
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        return done;
    }

    static Time Delay(Ptr<NetDevice> d)
    {
        TimeValue v;
        d->GetChannel()->GetAttribute("Delay", v);
        return v.Get();
    }
};

TEST_F(RdmaFabricBuilderTest, NodesLinksAndNicsInGraphOrder)
{
    RdmaFabricBuilder f = TwoSwitches();
    RdmaHelper other;
    other.SetCongestionControl("ns3::RdmaNoCongestionControl");
    f.SetNicHelper(2, other);
    DcbHelper dcb;
    RdmaHelper rdma;
    f.Build(dcb, rdma);
    ASSERT_EQ(f.GetNHosts(), 4u);
    ASSERT_EQ(f.GetNSwitches(), 2u);
    for (uint32_t i = 0; i < 6; ++i)
    {
        EXPECT_EQ(f.GetNode(i)->GetId(), i); // hosts first, then switches
    }
    EXPECT_EQ(f.GetNLinks(), 6u);
    const NetDeviceContainer& core = f.GetLinkDevices(4);
    EXPECT_EQ(core.Get(0)->GetNode(), f.GetNode(4));
    EXPECT_EQ(core.Get(1)->GetNode(), f.GetNode(5));
    EXPECT_EQ(DynamicCast<DcbNetDevice>(core.Get(0))->GetDataRate(), DataRate("25Gbps"));
    EXPECT_EQ(Delay(core.Get(0)), MicroSeconds(3));
    EXPECT_EQ(DynamicCast<DcbNetDevice>(f.GetLinkDevices(0).Get(0))->GetDataRate(),
              DataRate("100Gbps"));
    EXPECT_EQ(Delay(f.GetLinkDevices(0).Get(0)), MicroSeconds(1));
    EXPECT_EQ(f.FindLink(core.Get(1)), 4);
    EXPECT_EQ(f.FindLink(f.GetNic(0)->GetDevice()), 0);
    for (uint32_t h = 0; h < 4; ++h)
    {
        EXPECT_EQ(f.GetNic(h)->GetAddress(), RdmaFabricBuilder::GetHostAddress(h));
        EXPECT_EQ(f.GetNic(h)->GetAddresses().size(), 1u);
    }
    EXPECT_EQ(RdmaFabricBuilder::GetHostAddress(3), Ipv4Address("10.0.0.4"));
    // Host 2's NIC came from the other helper.
    EXPECT_EQ(f.GetNic(2)->GetCongestionControl()->GetInstanceTypeId().GetName(),
              "ns3::RdmaNoCongestionControl");
    EXPECT_EQ(f.GetNic(0)->GetCongestionControl()->GetInstanceTypeId().GetName(), "ns3::RdmaDcqcn");
    // Both core links are equal-cost next hops for the far hosts.
    EXPECT_EQ(f.GetSwitch(0)->GetRoute(RdmaFabricBuilder::GetHostAddress(3)).size(), 2u);
}

TEST_F(RdmaFabricBuilderTest, AliasesAreDistinctRoutedAndReachable)
{
    RdmaFabricBuilder f = TwoSwitches();
    f.SetVirtualNics(0, 3);
    f.SetVirtualNics(3, 2);
    DcbHelper dcb;
    RdmaHelper rdma;
    f.Build(dcb, rdma);
    // Alias v of host h: 10.0.0.1 + 4 v + h, above every primary.
    EXPECT_EQ(f.GetAddress(0, 1), Ipv4Address("10.0.0.5"));
    EXPECT_EQ(f.GetAddress(0, 2), Ipv4Address("10.0.0.9"));
    EXPECT_EQ(f.GetAddress(3, 1), Ipv4Address("10.0.0.8"));
    EXPECT_EQ(f.GetNic(0)->GetAddresses(),
              (std::vector<Ipv4Address>{Ipv4Address("10.0.0.1"), Ipv4Address("10.0.0.5"),
                                        Ipv4Address("10.0.0.9")}));
    EXPECT_EQ(f.GetNic(1)->GetAddresses().size(), 1u);
    EXPECT_EQ(f.FindHost(Ipv4Address("10.0.0.9")), 0);
    EXPECT_EQ(f.FindHost(Ipv4Address("10.0.0.8")), 3);
    EXPECT_EQ(f.FindHost(Ipv4Address("10.0.0.6")), -1); // host 1 has no alias
    EXPECT_EQ(f.FindHost(Ipv4Address("10.0.0.0")), -1);
    for (uint32_t s = 0; s < 2; ++s)
    {
        EXPECT_FALSE(f.GetSwitch(s)->GetRoute(Ipv4Address("10.0.0.9")).empty());
        EXPECT_FALSE(f.GetSwitch(s)->GetRoute(Ipv4Address("10.0.0.8")).empty());
    }
    EXPECT_GT(Write(f.GetNic(0), f.GetAddress(0, 2), f.GetNic(3), f.GetAddress(3, 1), 200000),
              Time(0));
}

// Pinned onto each of the two equal-cost core links in turn: ECMP alone would put the
// pair on the same one both times, so one run checks that the pin overrides it.
TEST_F(RdmaFabricBuilderTest, PinnedRouteAndLinkDownSteerTraffic)
{
    for (uint32_t pinned : {4u, 5u})
    {
        RdmaFabricBuilder f = TwoSwitches();
        f.SetVirtualNics(2);
        DcbHelper dcb;
        RdmaHelper rdma;
        f.Build(dcb, rdma);
        f.AssignStreams(1);
        const Ipv4Address src = f.GetAddress(0, 1);
        const Ipv4Address dst = f.GetAddress(2, 1);
        f.PinRoute(0, src, dst, pinned);
        f.PinRoute(1, dst, src, pinned);
        auto sent = [&](uint32_t link)
        {
            uint64_t n = 0;
            for (uint8_t c = 0; c < 8; ++c)
            {
                n += DynamicCast<DcbNetDevice>(f.GetLinkDevices(link).Get(0))
                         ->GetCounters(c)
                         .txPackets;
            }
            return n;
        };
        EXPECT_GT(Write(f.GetNic(0), src, f.GetNic(2), dst, 100000), Time(0));
        EXPECT_GT(sent(pinned), 60u) << pinned;
        EXPECT_EQ(sent(pinned == 4 ? 5 : 4), 0u) << pinned;
        f.SetLinkUp(pinned, false);
        EXPECT_FALSE(DynamicCast<DcbNetDevice>(f.GetLinkDevices(pinned).Get(0))->IsLinkUp());
        EXPECT_FALSE(DynamicCast<DcbNetDevice>(f.GetLinkDevices(pinned).Get(1))->IsLinkUp());
        EXPECT_TRUE(
            DynamicCast<DcbNetDevice>(f.GetLinkDevices(pinned == 4 ? 5 : 4).Get(0))->IsLinkUp());
        Simulator::Destroy();
    }
}

// System ids (a distributed run's ranks): nodes are created on them in graph order, and
// links between nodes of one rank stay ns3::DcbChannel (the sequential build has no
// remote channel; ci-mpi-check covers ranks that differ).
TEST_F(RdmaFabricBuilderTest, SystemIdsKeepNodeOrderAndLocalChannels)
{
    RdmaFabricBuilder f = TwoSwitches();
    f.SetSystemIds(std::vector<uint32_t>(6, 0));
    f.Build(DcbHelper(), RdmaHelper());
    for (uint32_t i = 0; i < 6; ++i)
    {
        EXPECT_EQ(f.GetNode(i)->GetId(), i);
        EXPECT_EQ(f.GetNode(i)->GetSystemId(), 0u);
    }
    for (uint32_t l = 0; l < f.GetNLinks(); ++l)
    {
        EXPECT_EQ(f.GetLinkDevices(l).Get(0)->GetChannel()->GetInstanceTypeId().GetName(),
                  "ns3::DcbChannel");
    }
}

TEST_F(RdmaFabricBuilderTest, RefusedSwitchThrowsItsConfigError)
{
    RdmaFabricBuilder f = TwoSwitches();
    DcbHelper tiny;
    tiny.SetBufferManagerAttribute("BufferSize", QueueSizeValue(QueueSize("10KB")));
    f.SetSwitchHelper(1, tiny);
    DcbHelper dcb;
    RdmaHelper rdma;
    try
    {
        f.Build(dcb, rdma);
        FAIL() << "switch 1 was accepted";
    }
    catch (const ConfigError& e)
    {
        EXPECT_EQ(e.GetReason().rfind("switch 1: ", 0), 0u) << e.what();
    }
}

// Named switches, each helper told where its settings came from: the refusal names the
// file, the refused switch's buffer settings and the switch.
TEST_F(RdmaFabricBuilderTest, RefusedSwitchIsLocatedAndNamed)
{
    RdmaFabricBuilder f = TwoSwitches();
    f.SetSwitchNames({"leaf", "spine"});
    DcbHelper tiny;
    tiny.SetBufferManagerAttribute("BufferSize", QueueSizeValue(QueueSize("10KB")));
    tiny.SetSource("fabric.json", "/buffer_switches/0/buffer", "/ecn");
    f.SetSwitchHelper(1, tiny);
    DcbHelper dcb;
    dcb.SetSource("fabric.json", "/buffer", "/ecn");
    try
    {
        f.Build(dcb, RdmaHelper());
        FAIL() << "switch spine was accepted";
    }
    catch (const ConfigError& e)
    {
        EXPECT_EQ(e.GetFile(), "fabric.json");
        EXPECT_EQ(e.GetPointer(), "/buffer_switches/0/buffer");
        EXPECT_EQ(
            std::string(e.what()).rfind("fabric.json: /buffer_switches/0/buffer: switch spine: "
                                        "ns3::DynamicThresholdBufferManager: ",
                                        0),
            0u)
            << e.what();
    }
}

TEST_F(RdmaFabricBuilderTest, CableLengthSetsThatLinksDelayOnly)
{
    RdmaFabricBuilder f = TwoSwitches();
    f.SetLinkLength(4, 20000); // 20 km at 5 ns/m
    DcbHelper dcb;
    dcb.SetBufferManager("ns3::SonicBufferManager");
    dcb.SetBufferManagerAttribute("CableHeadroom", BooleanValue(true));
    f.Build(dcb, RdmaHelper());
    auto channel = [&f](uint32_t l)
    { return DynamicCast<DcbNetDevice>(f.GetLinkDevices(l).Get(0))->GetDcbChannel(); };
    EXPECT_EQ(channel(4)->GetDelay(), MicroSeconds(100));
    EXPECT_EQ(channel(5)->GetDelay(), MicroSeconds(3)); // the parallel link keeps its delay
    EXPECT_EQ(channel(0)->GetDelay(), MicroSeconds(1));
    // The switches size the long cable's headroom from it (a 3 us 25 Gb/s cable needs no
    // more than Listing 1's xoff): a derived pg_lossless_25000_<m>m_profile.
    const SonicBufferConfig& c =
        DynamicCast<SonicBufferManager>(f.GetSwitch(0)->GetBufferManager())->GetConfig();
    bool derived = false;
    for (const SonicBufferProfile& p : c.profiles)
    {
        derived = derived || p.name.rfind("pg_lossless_25000_", 0) == 0;
    }
    EXPECT_TRUE(derived);
}

TEST_F(RdmaFabricBuilderTest, SwitchBufferEditAppliesBeforeTheNics)
{
    RdmaFabricBuilder f = TwoSwitches();
    DcbHelper dcb;
    dcb.SetBufferManager("ns3::SonicBufferManager");
    uint32_t nicsAtEdit = 99;
    f.SetSwitchBufferEdit(1,
                          [&f, &nicsAtEdit](SonicBufferConfig& c)
                          {
                              nicsAtEdit = f.GetNics().size();
                              c.pools[c.FindPool("ingress_pool")].xoff = 1048576;
                          });
    f.Build(dcb, RdmaHelper());
    EXPECT_EQ(nicsAtEdit, 0u);
    auto shp = [&f](uint32_t sw)
    {
        const SonicBufferConfig& c =
            DynamicCast<SonicBufferManager>(f.GetSwitch(sw)->GetBufferManager())->GetConfig();
        return c.pools[c.FindPool("ingress_pool")].xoff;
    };
    EXPECT_EQ(shp(1), 1048576u);
    EXPECT_NE(shp(0), 1048576u); // switch 0 keeps Listing 1
    // Traffic crosses the reconfigured switch.
    EXPECT_GT(Write(f.GetNic(0), RdmaFabricBuilder::GetHostAddress(0), f.GetNic(2),
                    RdmaFabricBuilder::GetHostAddress(2), 100000),
              Time(0));
}

TEST_F(RdmaFabricBuilderTest, SwitchBufferEditWithoutSonicBufferThrowsConfigError)
{
    RdmaFabricBuilder f = TwoSwitches();
    f.SetSwitchBufferEdit(0, [](SonicBufferConfig&) {});
    try
    {
        f.Build(DcbHelper(), RdmaHelper()); // DynamicThresholdBufferManager
        FAIL() << "the edit was applied";
    }
    catch (const ConfigError& e)
    {
        EXPECT_EQ(e.GetReason().rfind("switch 0: ", 0), 0u) << e.what();
        EXPECT_NE(std::string(e.what()).find("SonicBufferManager"), std::string::npos) << e.what();
    }
}

TEST_F(RdmaFabricBuilderTest, LeafSpineShapeNumbersLinksAndFindsSpines)
{
    RdmaLeafSpineFabric f({0, 1, 1}, 2, 3);
    f.SetHostRate(DataRate("100Gbps"));
    f.SetHostRate(1, DataRate("25Gbps"));
    f.SetCoreRate(DataRate("50Gbps"));
    f.SetSpineDelays({MicroSeconds(1), MicroSeconds(2), MicroSeconds(5)});
    f.GetFabric().SetVirtualNics(2);
    f.Build(DcbHelper(), RdmaHelper());
    const RdmaFabricBuilder& b = f.GetFabric();
    EXPECT_EQ(b.GetNLinks(), 3u + 2 * 3);
    EXPECT_EQ(f.GetCoreLink(1, 2), 3u + 5);
    EXPECT_EQ(Delay(b.GetLinkDevices(f.GetCoreLink(1, 2)).Get(0)), MicroSeconds(5));
    EXPECT_EQ(DynamicCast<DcbNetDevice>(b.GetLinkDevices(1).Get(0))->GetDataRate(),
              DataRate("25Gbps"));
    EXPECT_EQ(DynamicCast<DcbNetDevice>(b.GetLinkDevices(0).Get(0))->GetDataRate(),
              DataRate("100Gbps"));
    for (uint32_t l = 0; l < 2; ++l)
    {
        for (uint32_t s = 0; s < 3; ++s)
        {
            Ptr<NetDevice> leafPort = b.GetLinkDevices(f.GetCoreLink(l, s)).Get(0);
            const uint64_t id =
                (uint64_t{f.GetSwitches().Get(l)->GetId()} << 32) | leafPort->GetIfIndex();
            EXPECT_EQ(f.SpineOfLink(id), s);
        }
    }
    EXPECT_EQ(f.SpineOfLink(uint64_t{f.GetHosts().Get(0)->GetId()} << 32), -1);
    EXPECT_EQ(f.VirtualAddress(2, 1), Ipv4Address("10.0.0.6"));
    f.SetSpineUp(1, false);
    EXPECT_FALSE(
        DynamicCast<DcbNetDevice>(b.GetLinkDevices(f.GetCoreLink(0, 1)).Get(1))->IsLinkUp());
    EXPECT_TRUE(
        DynamicCast<DcbNetDevice>(b.GetLinkDevices(f.GetCoreLink(0, 2)).Get(1))->IsLinkUp());
    RdmaLeafSpineFabric star = RdmaLeafSpineFabric::Star(3, DataRate("10Gbps"), MicroSeconds(2));
    star.Build(DcbHelper(), RdmaHelper());
    EXPECT_EQ(star.GetSwitches().GetN(), 1u);
    EXPECT_EQ(star.GetFabric().GetNLinks(), 3u);
}

} // namespace
