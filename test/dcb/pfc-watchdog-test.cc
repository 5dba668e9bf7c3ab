// PFC watchdog on a three-node harness: sender A -> switch -> peer B that pauses forever.
#include "udp-frame.h"

#include "ns3/dcb-helper.h"
#include "ns3/dcb-net-device.h"
#include "ns3/dcb-switch.h"
#include "ns3/ethernet-vlan-header.h"
#include "ns3/node.h"
#include "ns3/pfc-watchdog.h"
#include "ns3/simulator.h"
#include "ns3/sonic-buffer-config.h"
#include "ns3/sonic-buffer-manager.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

const Ipv4Address ADDR_A("10.0.0.1");
const Ipv4Address ADDR_B("10.0.0.2");
constexpr uint8_t LOSSLESS = 3;

/** An IPv4/UDP frame from A to B in class \p tc (DSCP = 8 × tc). */
Ptr<Packet>
Frame(uint8_t tc, uint32_t payload = 1000)
{
    return UdpFrame(ADDR_A, ADDR_B, 1000, tc, payload);
}

class PfcWatchdogTest : public ::testing::Test
{
  public:
    void Build()
    {
        a = CreateObject<Node>();
        b = CreateObject<Node>();
        s = CreateObject<Node>();
        DcbHelper h;
        h.SetBufferManager("ns3::SonicBufferManager");
        da = DynamicCast<DcbNetDevice>(h.Install(a, s).Get(0)); // switch port 0
        db = DynamicCast<DcbNetDevice>(h.Install(b, s).Get(0)); // switch port 1
        db->SetDcbReceiveCallback(MakeCallback(&PfcWatchdogTest::OnB, this));
        sw = h.InstallSwitch(s);
        if (sonic)
        {
            DynamicCast<SonicBufferManager>(sw->GetBufferManager())->SetConfig(*sonic);
            ASSERT_EQ(sw->Setup(), "");
        }
        sw->SetAddressRange(ADDR_A, 2);
        sw->SetRoute(ADDR_A, {0});
        sw->SetRoute(ADDR_B, {1});
        wd = DcbHelper::InstallPfcWatchdog(sw);
        wd->TraceConnectWithoutContext("StormDetected",
                                       MakeCallback(&PfcWatchdogTest::OnStorm, this));
        wd->TraceConnectWithoutContext("StormRestored",
                                       MakeCallback(&PfcWatchdogTest::OnRestore, this));
    }

    void Send()
    {
        da->Enqueue(Frame(LOSSLESS), LOSSLESS, 0);
        if (Simulator::Now() < MilliSeconds(1600))
        {
            Simulator::Schedule(MicroSeconds(100), &PfcWatchdogTest::Send, this);
        }
    }

    void OnB(Ptr<DcbNetDevice>, Ptr<Packet>, const EthernetVlanHeader&)
    {
        receivedAt.push_back(Simulator::Now());
    }

    void OnStorm(uint32_t port, uint8_t cls)
    {
        stormAt = Simulator::Now();
        stormPort = port;
        stormCls = cls;
        queueAtStorm = sw->GetPort(1)->GetQueueBytes(LOSSLESS);
        queueAfterStorm = 0;
        Simulator::ScheduleNow([this]() { queueAfterStorm = sw->GetPort(1)->GetQueueBytes(3); });
    }

    void OnRestore(uint32_t, uint8_t) { restoreAt = Simulator::Now(); }

    void TearDown() override { Simulator::Destroy(); }

    Ptr<Node> a, b, s;
    Ptr<DcbNetDevice> da, db;
    Ptr<DcbSwitch> sw;
    Ptr<PfcWatchdog> wd;
    const SonicBufferConfig* sonic{nullptr};
    std::vector<Time> receivedAt;
    Time stormAt{-1};
    Time restoreAt{-1};
    uint32_t stormPort{99};
    uint8_t stormCls{99};
    uint64_t queueAtStorm{0};
    uint64_t queueAfterStorm{1};
};

TEST_F(PfcWatchdogTest, EndlessPauseIsDetectedDrainedByDropAndRestored)
{
    Build();
    // B pauses class 3 from 1 ms until 1.05 s (XOFF refreshed every ~168 us at 100G).
    Simulator::Schedule(MilliSeconds(1), &DcbNetDevice::SetPfcXoff, db, LOSSLESS, true);
    Simulator::Schedule(MilliSeconds(1050), &DcbNetDevice::SetPfcXoff, db, LOSSLESS, false);
    Simulator::ScheduleNow(&PfcWatchdogTest::Send, this);
    Simulator::Stop(MilliSeconds(1700));
    Simulator::Run();

    // Spec §8.10: detection 200 ms = poll 200 ms: declared at the second poll
    // after the onset (pause true at two polls, PFC-RX rising), i.e. 200-400 ms
    // after it; polls are at 200, 400, ... ms and the onset is ~1 ms.
    EXPECT_EQ(stormAt, MilliSeconds(400));
    EXPECT_EQ(stormPort, 1u);
    EXPECT_EQ(stormCls, LOSSLESS);
    EXPECT_EQ(wd->GetStormsDetected(), 1u);
    EXPECT_GT(queueAtStorm, 1000000u); // the queue was full of stuck packets ...
    EXPECT_EQ(queueAfterStorm, 0u);    // ... and drained by the drop action
    // Every arrival for the queue while stormed is dropped too (one per 100 us for ~1 s).
    EXPECT_GT(sw->GetDrops(DcbSwitch::DROP_PFC_WATCHDOG), 9000u);
    EXPECT_EQ(sw->GetDrops(DcbSwitch::DROP_BUFFER), 0u);
    // Restoration: the first poll whose interval saw no PFC frame. The XON of
    // 1.05 s falls in (1.0, 1.2], so the 1.2 s poll resets and 1.4 s restores.
    EXPECT_EQ(restoreAt, MilliSeconds(1400));
    EXPECT_EQ(wd->GetStormsRestored(), 1u);
    EXPECT_FALSE(wd->IsStormed(1, LOSSLESS));
    // B received nothing while paused/stormed, and traffic flows again after restoration.
    uint32_t during = 0;
    uint32_t after = 0;
    for (const Time& t : receivedAt)
    {
        during += (t > MilliSeconds(2) && t < MilliSeconds(1400));
        after += (t > MilliSeconds(1400));
    }
    EXPECT_EQ(during, 0u);
    EXPECT_GT(after, 1000u);
    // The buffer is empty of the dropped packets (everything released).
    EXPECT_LT(sw->GetBufferManager()->GetOccupancy(), 100000u);
}

TEST_F(PfcWatchdogTest, ShortPausesAreNotStorms)
{
    Build();
    // Pause for 150 ms at a time with 100 ms gaps: never paused at two polls in a row
    // with the same ON2OFF count.
    for (int k = 0; k < 6; ++k)
    {
        Simulator::Schedule(MilliSeconds(50 + 250 * k), &DcbNetDevice::SetPfcXoff, db, LOSSLESS,
                            true);
        Simulator::Schedule(MilliSeconds(200 + 250 * k), &DcbNetDevice::SetPfcXoff, db, LOSSLESS,
                            false);
    }
    Simulator::ScheduleNow(&PfcWatchdogTest::Send, this);
    Simulator::Stop(MilliSeconds(1600));
    Simulator::Run();
    EXPECT_EQ(wd->GetStormsDetected(), 0u);
    EXPECT_EQ(sw->GetDrops(DcbSwitch::DROP_PFC_WATCHDOG), 0u);
}

TEST_F(PfcWatchdogTest, PfcWdTableSetsForwardActionAndTimes)
{
    // PFC_WD|Ethernet4: forward, detection 400 ms, restoration 800 ms; GLOBAL poll 100 ms.
    SonicBufferConfig c = SonicBufferConfig::AzureListing1(2);
    c.ports[1].watchdog = true;
    c.ports[1].watchdogAction = "forward";
    c.ports[1].detectionMs = 400;
    c.ports[1].restorationMs = 800;
    c.watchdogPollMs = 100;
    sonic = &c;
    Build();
    Simulator::Schedule(MilliSeconds(1), &DcbNetDevice::SetPfcXoff, db, LOSSLESS, true);
    Simulator::ScheduleNow(&PfcWatchdogTest::Send, this);
    Simulator::Stop(MilliSeconds(1000));
    Simulator::Run();
    // Countdown 400 -> 300 -> 200 -> 100 at the polls of 200..400 ms, storm at 500 ms
    // (within [onset + 400, onset + 400 + poll]).
    EXPECT_EQ(stormAt, MilliSeconds(500));
    // Forward: nothing dropped, the queue transmits in spite of B's pauses.
    EXPECT_EQ(sw->GetDrops(DcbSwitch::DROP_PFC_WATCHDOG), 0u);
    uint32_t after = 0;
    for (const Time& t : receivedAt)
    {
        after += (t > MilliSeconds(500));
    }
    EXPECT_GT(after, 4000u);
    EXPECT_EQ(restoreAt, Time(-1)); // B never stops pausing
}

} // namespace
