// Two long flows whose ECMP hashes collide on one of the two uplinks between two switches:
// under ECMP they share that uplink (half the line rate each); a load balancer that looks
// past the flow hash (spraying, round robin, adaptive routing) uses both uplinks and gives
// each flow about the full line rate. Receivers count bytes; reordering is not measured.
#include "dcb-bulk-source.h"

#include "ns3/adaptive-load-balancer.h"
#include "ns3/dcb-helper.h"
#include "ns3/dcb-net-device.h"
#include "ns3/dcb-switch.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/round-robin-load-balancer.h"
#include "ns3/simulator.h"
#include "ns3/spray-load-balancer.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <iostream>
#include <memory>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint8_t TC = 3;
const Time WARMUP = MicroSeconds(100); //!< queues and PFC settle before counting starts
const Time WINDOW = MilliSeconds(1);   //!< bytes are counted over this span

/** Counts the frame bytes a host NIC receives inside the measurement window. */
struct Receiver
{
    void Count(Ptr<DcbNetDevice>, Ptr<Packet> frame, const DcbFrameRecord&)
    {
        const Time now = Simulator::Now();
        if (now >= WARMUP && now < WARMUP + WINDOW)
        {
            bytes += frame->GetSize();
        }
    }

    /** \return the received rate as a fraction of 100 Gb/s */
    double Fraction() const { return bytes * 8.0 / WINDOW.GetSeconds() / 100e9; }

    uint64_t bytes{0};
};

struct Rates
{
    double flow0;
    double flow1;
};

/**
 * Hosts 0 and 1 on switch A send at line rate (100G) to hosts 2 and 3 on switch B; A and
 * B are joined by two 100G uplinks (A's ports 2, 3). A's ECMP seed makes both flows hash
 * to the same uplink. \p lb: the balancer type for both switches ("" = ECMP).
 */
Rates
RunTwoFlows(const std::string& lb)
{
    DcbHelper h;
    Ptr<Node> a = CreateObject<Node>();
    Ptr<Node> b = CreateObject<Node>();
    std::vector<Ptr<Node>> hosts;
    std::vector<Ptr<DcbNetDevice>> nics;
    for (uint32_t i = 0; i < 4; ++i)
    {
        hosts.push_back(CreateObject<Node>());
    }
    for (uint32_t i : {0u, 1u})
    {
        nics.push_back(DynamicCast<DcbNetDevice>(h.Install(hosts[i], a).Get(0)));
    }
    h.Install(a, b);
    h.Install(a, b);
    for (uint32_t i : {2u, 3u})
    {
        nics.push_back(DynamicCast<DcbNetDevice>(h.Install(hosts[i], b).Get(0)));
    }
    Ptr<DcbSwitch> swA = h.InstallSwitch(a);
    Ptr<DcbSwitch> swB = h.InstallSwitch(b);
    DcbHelper::AssignStreams(NodeContainer(a, b), 1);
    for (const Ptr<DcbSwitch>& sw : {swA, swB})
    {
        sw->SetAddressRange(BulkSource::Host(0), 4);
    }
    swA->SetRoute(BulkSource::Host(0), {0});
    swA->SetRoute(BulkSource::Host(1), {1});
    swA->SetRoute(BulkSource::Host(2), {2, 3});
    swA->SetRoute(BulkSource::Host(3), {2, 3});
    swB->SetRoute(BulkSource::Host(0), {0, 1});
    swB->SetRoute(BulkSource::Host(1), {0, 1});
    swB->SetRoute(BulkSource::Host(2), {2});
    swB->SetRoute(BulkSource::Host(3), {3});
    // The first seed under which both flows (UDP source ports 10000 + source) collide.
    uint32_t seed = 1;
    auto pick = [&swA](uint32_t src, uint32_t dst)
    {
        return swA->SelectPort(BulkSource::Host(src), BulkSource::Host(dst), 17,
                               uint16_t(10000 + src), 4791);
    };
    for (;; ++seed)
    {
        swA->SetAttribute("EcmpSeed", UintegerValue(seed));
        if (pick(0, 2) == pick(1, 3))
        {
            break;
        }
    }
    if (!lb.empty())
    {
        int64_t stream = 100;
        for (const Ptr<DcbSwitch>& sw : {swA, swB})
        {
            ObjectFactory f(lb);
            Ptr<DcbLoadBalancer> balancer = f.Create<DcbLoadBalancer>();
            stream += balancer->AssignStreams(stream);
            sw->SetAttribute("LoadBalancer", PointerValue(balancer));
        }
    }
    Receiver rx0;
    Receiver rx1;
    nics[2]->SetDcbFrameReceiveCallback(MakeCallback(&Receiver::Count, &rx0));
    nics[3]->SetDcbFrameReceiveCallback(MakeCallback(&Receiver::Count, &rx1));
    const uint64_t endless = 1ull << 40;
    BulkSource s0(0, 2, endless, TC);
    BulkSource s1(1, 3, endless, TC);
    nics[0]->SetTxSource(&s0);
    nics[1]->SetTxSource(&s1);
    Simulator::ScheduleNow(&DcbNetDevice::NotifyTxReady, nics[0]);
    Simulator::ScheduleNow(&DcbNetDevice::NotifyTxReady, nics[1]);
    Simulator::Stop(WARMUP + WINDOW);
    Simulator::Run();
    nics[0]->SetTxSource(nullptr);
    nics[1]->SetTxSource(nullptr);
    Simulator::Destroy();
    std::cout << (lb.empty() ? "ECMP" : lb) << " (seed " << seed << "): " << rx0.Fraction() << ", "
              << rx1.Fraction() << " of 100G" << std::endl;
    return Rates{rx0.Fraction(), rx1.Fraction()};
}

TEST(LoadBalancingScenario, CollidingFlowsShareOneUplinkUnderEcmp)
{
    const Rates r = RunTwoFlows("");
    // One 100G uplink for both: each flow at most half of it (frame bytes, less
    // preamble, FCS and gap), and PFC shares it evenly.
    EXPECT_NEAR(r.flow0, 0.49, 0.03);
    EXPECT_NEAR(r.flow1, 0.49, 0.03);
}

TEST(LoadBalancingScenario, SprayingUsesBothUplinks)
{
    const Rates r = RunTwoFlows("ns3::SprayLoadBalancer");
    EXPECT_GT(r.flow0, 0.9);
    EXPECT_GT(r.flow1, 0.9);
}

TEST(LoadBalancingScenario, RoundRobinUsesBothUplinks)
{
    const Rates r = RunTwoFlows("ns3::RoundRobinLoadBalancer");
    EXPECT_GT(r.flow0, 0.95);
    EXPECT_GT(r.flow1, 0.95);
}

TEST(LoadBalancingScenario, AdaptiveRoutingUsesBothUplinks)
{
    const Rates r = RunTwoFlows("ns3::AdaptiveLoadBalancer");
    EXPECT_GT(r.flow0, 0.95);
    EXPECT_GT(r.flow1, 0.95);
}

} // namespace
