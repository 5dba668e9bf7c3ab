// The load balancers of DcbSwitch (attribute LoadBalancer), each driven on its own:
// spraying and round robin spread packets evenly, a flowlet keeps its port within the
// gap and may move after it, adaptive routing picks the emptiest queue.
#include "udp-frame.h"

#include "ns3/adaptive-load-balancer.h"
#include "ns3/dcb-helper.h"
#include "ns3/dcb-net-device.h"
#include "ns3/dcb-switch.h"
#include "ns3/enum.h"
#include "ns3/flowlet-load-balancer.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/round-robin-load-balancer.h"
#include "ns3/simulator.h"
#include "ns3/spray-load-balancer.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint32_t PORTS[] = {4, 5, 6, 7};

class LoadBalancerTest : public ::testing::Test
{
  public:
    void TearDown() override { Simulator::Destroy(); }

    /** A switch with no ports: enough for the balancers that look at no queue. */
    Ptr<DcbSwitch> sw = CreateObject<DcbSwitch>();
};

DcbEcmpGroup
Group(uint32_t n, uint32_t id = 0)
{
    return DcbEcmpGroup{PORTS, n, id};
}

/** How often each index of a group of \p n comes out of \p draws selections. */
std::vector<uint32_t>
Histogram(Ptr<DcbLoadBalancer> lb, const DcbSwitch& sw, uint32_t n, uint32_t draws)
{
    std::vector<uint32_t> count(n, 0);
    for (uint32_t i = 0; i < draws; ++i)
    {
        count.at(lb->Select(sw, Group(n), 12345, NanoSeconds(i)))++;
    }
    return count;
}

TEST_F(LoadBalancerTest, SprayIsUniformOverTheGroupWhateverTheFlow)
{
    Ptr<SprayLoadBalancer> lb = CreateObject<SprayLoadBalancer>();
    lb->AssignStreams(7);
    // 40000 draws over 4 ports: 10000 each, binomial sd 87; a 3% band is 3.5 sd.
    for (uint32_t c : Histogram(lb, *sw, 4, 40000))
    {
        EXPECT_NEAR(c, 10000.0, 300.0);
    }
    // The same flow hash every time, and still both ports of a pair.
    for (uint32_t c : Histogram(lb, *sw, 2, 10000))
    {
        EXPECT_NEAR(c, 5000.0, 200.0);
    }
}

TEST_F(LoadBalancerTest, SprayRepeatsWithItsStreamAndDiffersWithAnother)
{
    auto draws = [this](int64_t stream)
    {
        Ptr<SprayLoadBalancer> lb = CreateObject<SprayLoadBalancer>();
        EXPECT_EQ(lb->AssignStreams(stream), 1);
        std::vector<uint32_t> out;
        for (int i = 0; i < 64; ++i)
        {
            out.push_back(lb->Select(*sw, Group(4), 1, Time(0)));
        }
        return out;
    };
    EXPECT_EQ(draws(3), draws(3));
    EXPECT_NE(draws(3), draws(4));
}

TEST_F(LoadBalancerTest, RoundRobinTakesThePortsInTurnPerGroup)
{
    Ptr<RoundRobinLoadBalancer> lb = CreateObject<RoundRobinLoadBalancer>();
    // Two groups (ids 0 and 9) interleaved: each keeps its own turn.
    std::vector<uint32_t> a;
    std::vector<uint32_t> b;
    for (int i = 0; i < 7; ++i)
    {
        a.push_back(lb->Select(*sw, Group(3, 0), uint32_t(i), Time(0)));
        b.push_back(lb->Select(*sw, Group(2, 9), 99, Time(0)));
    }
    EXPECT_EQ(a, (std::vector<uint32_t>{0, 1, 2, 0, 1, 2, 0}));
    EXPECT_EQ(b, (std::vector<uint32_t>{0, 1, 0, 1, 0, 1, 0}));
    // Exactly even over a multiple of the group size.
    Ptr<RoundRobinLoadBalancer> fresh = CreateObject<RoundRobinLoadBalancer>();
    for (uint32_t c : Histogram(fresh, *sw, 4, 4000))
    {
        EXPECT_EQ(c, 1000u);
    }
}

TEST_F(LoadBalancerTest, ABalancerServesOneSwitchOnly)
{
    Ptr<RoundRobinLoadBalancer> lb = CreateObject<RoundRobinLoadBalancer>();
    lb->Select(*sw, Group(2), 0, Time(0));
    Ptr<DcbSwitch> other = CreateObject<DcbSwitch>();
    EXPECT_DEATH(lb->Select(*other, Group(2), 0, Time(0)), "one load balancer object per switch");
}

TEST_F(LoadBalancerTest, AFlowletKeepsItsPortWithinTheGapAndMayMoveAfter)
{
    Ptr<FlowletLoadBalancer> lb = CreateObject<FlowletLoadBalancer>();
    lb->SetAttribute("Gap", TimeValue(MicroSeconds(50)));
    lb->SetAttribute("TableSize", UintegerValue(1u << 16));
    lb->AssignStreams(11);
    // 1000 flows (distinct table entries), 4 ports. Packets every 40 us for 2 ms: each
    // flow's port never changes.
    constexpr uint32_t FLOWS = 1000;
    std::vector<uint32_t> first(FLOWS);
    for (uint32_t f = 0; f < FLOWS; ++f)
    {
        first[f] = lb->Select(*sw, Group(4), f, Time(0));
    }
    for (Time t = MicroSeconds(40); t <= MilliSeconds(2); t += MicroSeconds(40))
    {
        for (uint32_t f = 0; f < FLOWS; ++f)
        {
            ASSERT_EQ(lb->Select(*sw, Group(4), f, t), first[f]) << "flow " << f << " at " << t;
        }
    }
    // A gap of exactly 50 us still continues the flowlet.
    const Time last = MilliSeconds(2);
    for (uint32_t f = 0; f < FLOWS; ++f)
    {
        ASSERT_EQ(lb->Select(*sw, Group(4), f, last + MicroSeconds(50)), first[f]);
    }
    // After 51 us idle each flow starts a new flowlet on a random port: 3/4 move
    // (750, binomial sd 14).
    uint32_t moved = 0;
    std::vector<uint32_t> count(4, 0);
    for (uint32_t f = 0; f < FLOWS; ++f)
    {
        const uint32_t p = lb->Select(*sw, Group(4), f, last + MicroSeconds(101));
        moved += p != first[f];
        count[p]++;
    }
    EXPECT_NEAR(moved, 750.0, 60.0);
    for (uint32_t c : count)
    {
        EXPECT_NEAR(c, 250.0, 60.0);
    }
}

TEST_F(LoadBalancerTest, AFlowletEntryUsedByAnotherGroupStartsAFlowlet)
{
    Ptr<FlowletLoadBalancer> lb = CreateObject<FlowletLoadBalancer>();
    lb->SetAttribute("TableSize", UintegerValue(1));
    lb->AssignStreams(5);
    // One entry: a flow of group 3 (4 ports), new flowlets 1 ms apart until one draws
    // a port beyond the range of group 1 (2 ports)...
    Time t;
    uint32_t wide = 0;
    for (uint32_t i = 0; i < 50 && wide < 2; ++i)
    {
        t = MilliSeconds(i);
        wide = lb->Select(*sw, DcbEcmpGroup{PORTS, 4, 3}, 1, t);
    }
    ASSERT_GE(wide, 2u);
    // ...then, 1 us later (well within the gap), a flow of group 1 on the same entry:
    // a new flowlet in its own group.
    EXPECT_LT(lb->Select(*sw, DcbEcmpGroup{PORTS, 2, 1}, 1, t + MicroSeconds(1)), 2u);
}

/**
 * A switch with four ports 0..3 whose class-\p tc queues hold queued[i] frames of 1000
 * bytes of payload each (frames enqueued before the switch is installed: nothing
 * dequeues, the simulation never runs).
 */
Ptr<DcbSwitch>
SwitchWithQueues(const std::vector<uint32_t>& queued, uint8_t tc,
                 const std::vector<uint32_t>& queuedOtherClass = {})
{
    DcbHelper h;
    Ptr<Node> s = CreateObject<Node>();
    for (uint32_t i = 0; i < queued.size(); ++i)
    {
        Ptr<DcbNetDevice> dev =
            DynamicCast<DcbNetDevice>(h.Install(s, CreateObject<Node>()).Get(0));
        const Ipv4Address a("10.0.0.1");
        // The first frame goes on the wire at once; the others wait behind it.
        for (uint32_t k = 0; k <= queued[i]; ++k)
        {
            dev->Enqueue(UdpFrame(a, a, 1, tc, 1000), tc, 0);
        }
        for (uint32_t k = 0; i < queuedOtherClass.size() && k < queuedOtherClass[i]; ++k)
        {
            dev->Enqueue(UdpFrame(a, a, 1, 0, 1000), 0, 0);
        }
    }
    return h.InstallSwitch(s);
}

TEST_F(LoadBalancerTest, AdaptivePicksTheEmptiestQueueTiesByFlowHash)
{
    const uint32_t ports[] = {0, 1, 2, 3};
    const DcbEcmpGroup group{ports, 4, 0};
    {
        Ptr<DcbSwitch> s = SwitchWithQueues({5, 2, 7, 3}, 3);
        ASSERT_GT(s->GetPort(1)->GetQueueBytes(3), 0u);
        Ptr<AdaptiveLoadBalancer> lb = CreateObject<AdaptiveLoadBalancer>();
        for (uint32_t h = 0; h < 20; ++h)
        {
            EXPECT_EQ(lb->Select(*s, group, h, Time(0)), 1u);
        }
    }
    {
        // Ports 0 and 2 tie at 1 frame: the flow hash chooses, both get chosen.
        Ptr<DcbSwitch> s = SwitchWithQueues({1, 4, 1, 6}, 3);
        Ptr<AdaptiveLoadBalancer> lb = CreateObject<AdaptiveLoadBalancer>();
        std::vector<uint32_t> count(4, 0);
        for (uint32_t h = 0; h < 100; ++h)
        {
            const uint32_t p = lb->Select(*s, group, h, Time(0));
            EXPECT_EQ(p, lb->Select(*s, group, h, Time(0))); // a flow keeps its tie-break
            count[p]++;
        }
        EXPECT_EQ(count, (std::vector<uint32_t>{50, 0, 50, 0}));
    }
}

TEST_F(LoadBalancerTest, AdaptiveCountsOneClassWhenAsked)
{
    const uint32_t ports[] = {0, 1, 2};
    const DcbEcmpGroup group{ports, 3, 0};
    // Class 3 queues 4, 1, 2 frames; port 1 also holds 10 frames of class 0.
    Ptr<DcbSwitch> s = SwitchWithQueues({4, 1, 2}, 3, {0, 10, 0});
    Ptr<AdaptiveLoadBalancer> all = CreateObject<AdaptiveLoadBalancer>();
    EXPECT_EQ(all->Select(*s, group, 0, Time(0)), 2u); // port 1 holds 11 frames in all
    Ptr<AdaptiveLoadBalancer> one = CreateObject<AdaptiveLoadBalancer>();
    one->SetAttribute("Queues", EnumValue(AdaptiveLoadBalancer::ONE_CLASS));
    one->SetAttribute("Class", UintegerValue(3));
    EXPECT_EQ(one->Select(*s, group, 0, Time(0)), 1u);
}

TEST_F(LoadBalancerTest, ANewFlowletCanTakeTheLeastQueuedPort)
{
    const uint32_t ports[] = {0, 1, 2, 3};
    const DcbEcmpGroup group{ports, 4, 0};
    Ptr<DcbSwitch> s = SwitchWithQueues({3, 3, 0, 3}, 3);
    Ptr<FlowletLoadBalancer> lb = CreateObject<FlowletLoadBalancer>();
    lb->SetAttribute("NewFlowletPort", EnumValue(FlowletLoadBalancer::LEAST_QUEUED));
    for (uint32_t f = 0; f < 50; ++f)
    {
        EXPECT_EQ(lb->Select(*s, group, f, Time(0)), 2u);
    }
}

} // namespace
