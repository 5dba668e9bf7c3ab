// Maestro scenario tests at CI-small settings: ring collectives (single QP vs
// Maestro, core bottleneck), paths enabled and failed one by one, and the 2-byte
// token ring over paths of different latency.
#include "ns3/double.h"
#include "ns3/maestro-helper.h"
#include "ns3/maestro-message-stream.h"
#include "ns3/maestro-token-ring.h"
#include "ns3/rdma-leaf-spine-fabric.h"
#include "ns3/ring-allreduce.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <numeric>

using namespace ns3;

namespace
{

// hosts 0,1 on leaf 0 and 2,3 on leaf 1; ring 0 -> 2 -> 1 -> 3 -> 0: every hop crosses the core
const std::vector<uint32_t> RING = {0, 2, 1, 3};

std::vector<Ptr<MaestroRingLink>>
RingLinks(const RdmaLeafSpineFabric& fabric, bool maestro, const std::string& policy,
          bool notifyReceiver = false)
{
    std::vector<Ptr<MaestroRingLink>> links;
    MaestroHelper mh;
    mh.SetLoadBalancer(policy);
    const auto& nics = fabric.GetNics();
    for (uint32_t w = 0; w < RING.size(); ++w)
    {
        Ptr<RdmaNic> a = nics[RING[w]];
        Ptr<RdmaNic> b = nics[RING[(w + 1) % RING.size()]];
        if (maestro)
        {
            links.push_back(MaestroRingLink::OverEndpoint(mh.Install(a, b), notifyReceiver));
        }
        else if (notifyReceiver)
        {
            links.push_back(
                MaestroRingLink::OverQueuePairNotified(a, RdmaHelper::Connect(a, b), b));
        }
        else
        {
            links.push_back(MaestroRingLink::OverQueuePair(a, RdmaHelper::Connect(a, b).first));
        }
    }
    return links;
}

/** The links as RingAllreduce's hops. */
std::vector<Ptr<RingHop>>
Hops(const std::vector<Ptr<MaestroRingLink>>& links)
{
    return {links.begin(), links.end()};
}

class MaestroScenarioTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }
};

// Ring-allreduce of VGG19 (572 MB scaled by 1/200) over 4 workers; hosts 40 Gb/s,
// 4 core paths of 10 Gb/s (the core is the bottleneck).
Time
RunAllreduce(bool maestro, std::vector<Time>* perIteration)
{
    DcbHelper dcb;
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::RdmaNoCongestionControl");
    RdmaLeafSpineFabric fabric({0, 0, 1, 1}, 2, 4);
    fabric.SetHostRate(DataRate("40Gbps"));
    fabric.SetCoreRate(DataRate("10Gbps"));
    fabric.Build(dcb, rdma);
    Ptr<RingAllreduce> c = CreateObject<RingAllreduce>();
    c->SetAttribute("ModelScale", DoubleValue(1.0 / 200));
    c->SetAttribute("Iterations", UintegerValue(2));
    c->SetAttribute("ComputeTime", TimeValue(MilliSeconds(1)));
    c->SetHops(Hops(RingLinks(fabric, maestro, "ns3::MaestroProportional")));
    c->Start();
    Simulator::Run();
    *perIteration = c->GetCommunicationTimes();
    Simulator::Destroy();
    return std::accumulate(perIteration->begin(), perIteration->end(), Time());
}

/** StepDone of a collective: (iteration, step, time since the communication began). */
struct StepRecord
{
    uint32_t iteration;
    uint32_t step;
    Time since;
};

void
RecordStep(std::vector<StepRecord>* out, uint32_t iteration, uint32_t step, Time since)
{
    out->push_back({iteration, step, since});
}

// StepDone fires once per step and iteration, in order, after every worker has completed
// that step; the last step of an iteration ends with its communication time.
TEST_F(MaestroScenarioTest, StepDoneReportsEveryStepInOrder)
{
    DcbHelper dcb;
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::RdmaNoCongestionControl");
    RdmaLeafSpineFabric fabric({0, 0, 1, 1}, 2, 2);
    fabric.Build(dcb, rdma);
    Ptr<RingAllreduce> c = CreateObject<RingAllreduce>();
    c->SetAttribute("ModelSize", UintegerValue(400000));
    c->SetAttribute("Iterations", UintegerValue(2));
    c->SetHops(Hops(RingLinks(fabric, false, "ns3::MaestroRoundRobin")));
    std::vector<StepRecord> steps;
    c->TraceConnectWithoutContext("StepDone", MakeBoundCallback(&RecordStep, &steps));
    c->Start();
    Simulator::Run();
    const std::vector<Time> times = c->GetCommunicationTimes();
    ASSERT_EQ(times.size(), 2u);
    ASSERT_EQ(steps.size(), 12u); // 2 x 2(N - 1)
    for (uint32_t k = 0; k < steps.size(); ++k)
    {
        EXPECT_EQ(steps[k].iteration, k / 6);
        EXPECT_EQ(steps[k].step, k % 6);
        if (k % 6 > 0)
        {
            EXPECT_GT(steps[k].since, steps[k - 1].since);
        }
    }
    EXPECT_EQ(steps[5].since, times[0]);
    EXPECT_EQ(steps[11].since, times[1]);
    // A step moves 100 kB per hop at 40 Gb/s: at least 20 us.
    EXPECT_GT(steps[0].since, MicroSeconds(20));
}

void
RecordDone(std::vector<Time>* done, Time t)
{
    done->push_back(t);
}

/** Bytes placed by one queue pair. */
struct PlacedBytes
{
    uint32_t qpn;
    uint64_t bytes{0};
};

void
AddPlaced(PlacedBytes* placed, uint32_t qpn, uint64_t /* address */, uint32_t bytes)
{
    placed->bytes += qpn == placed->qpn ? bytes : 0;
}

// A collective "over": "qps" may move up to 2^40 bytes, and a single
// work request larger than the 24-bit PSN window allows aborted the run. A link over one
// queue pair posts a large message as consecutive WRITEs of at most MaxMessageBytes (1 GiB
// by default), and is done once, when the last of them completes.
TEST_F(MaestroScenarioTest, AMessageBeyondMaxMessageBytesGoesAsSeveralWrites)
{
    DcbHelper dcb;
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::RdmaNoCongestionControl");
    RdmaLeafSpineFabric fabric({0, 1}, 2, 1);
    fabric.Build(dcb, rdma);
    Ptr<RdmaNic> a = fabric.GetNics()[0];
    Ptr<RdmaNic> b = fabric.GetNics()[1];
    Ptr<RdmaQueuePair> big = RdmaHelper::Connect(a, b).first;
    Ptr<MaestroRingLink> link = MaestroRingLink::OverQueuePair(a, big);
    link->Send((uint64_t(3) << 30) + 1, 0); // 3 GiB + 1 B: four work requests
    EXPECT_EQ(big->GetOutstandingWorkRequests(), 4u);

    // Small enough to run: 10 kB as WRITEs of at most 4 kB, placed once, done once.
    const auto pair = RdmaHelper::Connect(a, b);
    Ptr<RdmaQueuePair> qp = pair.first;
    Ptr<MaestroRingLink> small = MaestroRingLink::OverQueuePair(a, qp);
    small->SetAttribute("MaxMessageBytes", UintegerValue(4096));
    std::vector<Time> done;
    small->SetDoneCallback(MakeBoundCallback(&RecordDone, &done));
    PlacedBytes placed{pair.second->GetQpn()};
    b->TraceConnectWithoutContext("DataPlaced", MakeBoundCallback(&AddPlaced, &placed));
    small->Send(10000, 0);
    EXPECT_EQ(qp->GetOutstandingWorkRequests(), 3u);
    big->SetError(); // leave the rest of the 3 GiB unsent
    Simulator::Run();
    ASSERT_EQ(done.size(), 1u);
    EXPECT_FALSE(small->IsBusy());
    EXPECT_EQ(small->GetNFailed(), 0u);
    EXPECT_EQ(qp->GetOutstandingWorkRequests(), 0u);
    EXPECT_EQ(placed.bytes, 10000u);
}

TEST_F(MaestroScenarioTest, RingAllreduceIsAtLeastTwiceFasterWhenTheCoreIsTheBottleneck)
{
    std::vector<Time> single;
    std::vector<Time> multi;
    const Time a = RunAllreduce(false, &single);
    const Time b = RunAllreduce(true, &multi);
    ASSERT_EQ(single.size(), 2u);
    ASSERT_EQ(multi.size(), 2u);
    std::cout << "allreduce 2.86 MB x 2 iterations: single QP " << a.As(Time::MS) << ", Maestro "
              << b.As(Time::MS) << ", speed-up " << a / b << ", cut "
              << (1 - b.GetSeconds() / a.GetSeconds()) * 100 << " %" << std::endl;
    // 6 steps x 0.715 MB: one 10 Gb/s path >= 3.43 ms per iteration; Maestro shares
    // 40 Gb/s of core between the 2 hops per direction, 20 Gb/s each (~1.72 ms)
    EXPECT_GT(single[0], MilliSeconds(3.4));
    EXPECT_GT(a / b, 2.0);
    EXPECT_LT(a / b, 4.2); // at most the 4 paths
    EXPECT_GT(multi[0], MilliSeconds(1.7));
}

struct PathRun
{
    std::vector<std::vector<uint64_t>> bytes; //!< [interval][vp] bytes completed
    uint64_t posted{0};
    uint64_t completed{0};
    uint64_t badStatus{0};
    uint64_t restores{0};
    std::vector<int64_t> spine;   //!< spine of each vp
    std::vector<int64_t> reverse; //!< spine of each vp's ACKs (at Connect)
};

// One sender, one receiver across the core (4 x 10 Gb/s); spines are switched every
// step (30 s in the paper, 2 ms here); a backlog of 500 KB messages is kept posted.
PathRun
RunPathSteps(bool enable)
{
    const Time step = MilliSeconds(2);
    DcbHelper dcb;
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::RdmaNoCongestionControl");
    RdmaLeafSpineFabric fabric({0, 1}, 2, 4);
    fabric.SetCoreRate(DataRate("10Gbps"));
    fabric.Build(dcb, rdma);
    MaestroHelper mh;
    mh.SetEndpointAttribute("ChunkTimeout", TimeValue(MicroSeconds(500)));
    mh.SetEndpointAttribute("ReprobeInterval", TimeValue(MicroSeconds(250)));
    Ptr<MaestroEndpoint> ep = mh.Install(fabric.GetNics()[0], fabric.GetNics()[1]);
    PathRun r;
    for (uint32_t vp = 0; vp < 4; ++vp)
    {
        r.spine.push_back(fabric.SpineOfLink(ep->GetQpManager()->GetPath(vp).links[0]));
        r.reverse.push_back(fabric.SpineOfLink(ep->GetQpManager()->GetPath(vp).reverse[0]));
    }
    if (enable)
    {
        for (uint32_t s = 1; s < 4; ++s)
        {
            fabric.SetSpineUp(s, false);
            Simulator::Schedule(step * s, &RdmaLeafSpineFabric::SetSpineUp, &fabric, s, true);
        }
    }
    else
    {
        for (uint32_t s = 0; s < 3; ++s)
        {
            Simulator::Schedule(step * (s + 1), &RdmaLeafSpineFabric::SetSpineUp, &fabric, s,
                                false);
        }
    }
    Ptr<MaestroMessageStream> stream = CreateObject<MaestroMessageStream>();
    stream->SetAttribute("MessageSize", UintegerValue(500000));
    stream->SetAttribute("Outstanding", UintegerValue(6));
    stream->SetAttribute("Duration", TimeValue(step * 4));
    stream->SetEndpoint(ep);
    stream->TraceConnectWithoutContext("MessageDone",
                                       MakeBoundCallback(
                                           +[](PathRun* r, const MaestroMessageCompletion& c) {
                                               r->badStatus += c.status != RdmaWcStatus::Success ||
                                                               c.bytes != 500000;
                                           },
                                           &r));
    stream->Start();
    for (uint32_t k = 1; k <= 4; ++k)
    {
        Simulator::Schedule(step * k,
                            [ep, &r]()
                            {
                                std::vector<uint64_t> b;
                                for (uint32_t vp = 0; vp < 4; ++vp)
                                {
                                    b.push_back(ep->GetPathMonitor()->Get(vp).bytesCompleted);
                                }
                                r.bytes.push_back(b);
                            });
    }
    Simulator::Run();
    r.posted = stream->GetNPosted();
    r.completed = stream->GetNCompleted();
    r.restores = ep->GetNRestores();
    for (int k = int(r.bytes.size()) - 1; k > 0; --k)
    {
        for (uint32_t vp = 0; vp < 4; ++vp)
        {
            r.bytes[k][vp] -= r.bytes[k - 1][vp];
        }
    }
    Simulator::Destroy();
    return r;
}

void
ShowSteps(const char* name, const PathRun& r)
{
    std::cout << name << ": " << r.completed << "/" << r.posted << " messages, restores "
              << r.restores << "; reverse spines";
    for (uint32_t vp = 0; vp < 4; ++vp)
    {
        std::cout << " " << r.spine[vp] << "<-" << r.reverse[vp];
    }
    std::cout << "; Gb/s per step and spine:";
    for (const auto& b : r.bytes)
    {
        std::cout << " [";
        for (uint32_t s = 0; s < 4; ++s)
        {
            for (uint32_t vp = 0; vp < 4; ++vp)
            {
                if (r.spine[vp] == int64_t(s))
                {
                    std::cout << (s ? " " : "") << b[vp] * 8 / 2e-3 / 1e9;
                }
            }
        }
        std::cout << "]";
    }
    std::cout << std::endl;
}

TEST_F(MaestroScenarioTest, PathsEnabledOneByOneAreDetectedAndUsed)
{
    PathRun r = RunPathSteps(true);
    ShowSteps("enable", r);
    ASSERT_EQ(r.bytes.size(), 4u);
    EXPECT_EQ(r.completed, r.posted);
    EXPECT_EQ(r.badStatus, 0u);
    EXPECT_GE(r.restores, 3u);
    for (uint32_t k = 0; k < 4; ++k)
    {
        uint64_t total = 0;
        for (uint32_t vp = 0; vp < 4; ++vp)
        {
            total += r.bytes[k][vp];
            if (r.spine[vp] > int64_t(k))
            {
                EXPECT_EQ(r.bytes[k][vp], 0u) << "spine " << r.spine[vp] << " still down";
            }
            else
            {
                EXPECT_GT(r.bytes[k][vp], 1000000u) << "spine " << r.spine[vp] << " step " << k;
            }
        }
        // k + 1 paths of 10 Gb/s (2.5 MB per 2 ms each), less detection time
        EXPECT_GT(total, (k + 1) * 2500000 * 0.6) << "step " << k;
        EXPECT_LT(total, (k + 1) * 2500000 * 1.01) << "step " << k;
    }
}

TEST_F(MaestroScenarioTest, PathsFailedOneByOneLeaveTrafficOnSurvivorsWithNoMessageLost)
{
    PathRun r = RunPathSteps(false);
    ShowSteps("fail", r);
    ASSERT_EQ(r.bytes.size(), 4u);
    EXPECT_EQ(r.completed, r.posted); // no message lost
    EXPECT_EQ(r.badStatus, 0u);
    EXPECT_EQ(r.restores, 0u);
    for (uint32_t k = 0; k < 4; ++k)
    {
        uint64_t total = 0;
        for (uint32_t vp = 0; vp < 4; ++vp)
        {
            total += r.bytes[k][vp];
            if (r.spine[vp] >= int64_t(k)) // up during all of step k
            {
                EXPECT_GT(r.bytes[k][vp], 1500000u) << "spine " << r.spine[vp] << " step " << k;
            }
            if (r.spine[vp] < int64_t(k) - 1) // failed before step k - 1
            {
                EXPECT_EQ(r.bytes[k][vp], 0u) << "spine " << r.spine[vp] << " step " << k;
            }
        }
        EXPECT_GT(total, (4 - k) * 2500000 * 0.6) << "step " << k;
    }
}

// 2-byte token around 4 workers; spine 0 links 1 us, the others 5 us.
Time
RunTokenRing(bool maestro, uint64_t* fastChunks, uint64_t* chunks)
{
    DcbHelper dcb;
    RdmaHelper rdma;
    RdmaLeafSpineFabric fabric({0, 0, 1, 1}, 2, 4);
    fabric.SetSpineDelays({MicroSeconds(1), MicroSeconds(5), MicroSeconds(5), MicroSeconds(5)});
    fabric.Build(dcb, rdma);
    // the token is passed on when it arrives (receiver notified by the immediate)
    std::vector<Ptr<MaestroRingLink>> links =
        RingLinks(fabric, maestro, "ns3::MaestroMinLatency", true);
    Ptr<MaestroTokenRing> ring = CreateObject<MaestroTokenRing>();
    ring->SetAttribute("Rounds", UintegerValue(50));
    ring->SetLinks(links);
    if (maestro)
    {
        for (auto& l : links)
        {
            Ptr<MaestroEndpoint> ep = l->GetEndpoint();
            std::vector<int64_t> spine;
            for (uint32_t vp = 0; vp < ep->GetQpManager()->GetNPaths(); ++vp)
            {
                const MaestroVirtualPath& p = ep->GetQpManager()->GetPath(vp);
                // round-trip spine delay: data one way, ACK the other
                spine.push_back(fabric.SpineOfLink(p.links[0]) == 0 &&
                                        fabric.SpineOfLink(p.reverse[0]) == 0
                                    ? 0
                                    : 1);
            }
            ep->Probe(); // latency samples of every path
            ep->TraceConnectWithoutContext("ChunkPosted",
                                           MakeBoundCallback(
                                               +[](std::vector<int64_t> spine, uint64_t* fast,
                                                   uint64_t* all, const MaestroWrDescriptor& d)
                                               {
                                                   if (Simulator::Now() > MicroSeconds(100))
                                                   {
                                                       ++*all;
                                                       *fast += spine[d.vpId] == 0;
                                                   }
                                               },
                                               spine, fastChunks, chunks));
        }
    }
    Simulator::Schedule(MicroSeconds(100), &MaestroTokenRing::Start, ring);
    Simulator::Run();
    const auto& t = ring->GetRoundTimes();
    EXPECT_EQ(t.size(), 50u);
    const Time mean = std::accumulate(t.begin() + 10, t.end(), Time()) / double(t.size() - 10);
    Simulator::Destroy();
    return mean;
}

TEST_F(MaestroScenarioTest, TokenRingTakesTheLowestLatencyPath)
{
    uint64_t fast = 0;
    uint64_t all = 0;
    const Time ecmp = RunTokenRing(false, &fast, &all);
    const Time maestro = RunTokenRing(true, &fast, &all);
    std::cout << "token ring round: ECMP " << ecmp.As(Time::US) << ", Maestro min-latency "
              << maestro.As(Time::US) << " (" << ecmp / maestro
              << "x), tokens on the 1-us spine both ways " << fast << "/" << all << std::endl;
    EXPECT_EQ(fast, all); // every token after the probes takes the fastest round trip
    EXPECT_GT(all, 150u);
    // per hop (one way, the receiver is told by the immediate): 2 host-leaf us + 2 x
    // spine delay: 4 us fast, 12 us slow
    EXPECT_LT(maestro, MicroSeconds(4 * 5));
    EXPECT_LE(maestro, ecmp);
}

} // namespace
