// Maestro virtual NICs (SOSR'21 §4.1, Fig. 4): virtual paths as QPs between IP
// aliases, a-priori path mapping when the ECMP hash ignores the UDP source port,
// candidate QPs over address pairs when it does, pinned virtual paths, and SEND
// translated to WRITE chunks whose last one carries the immediate (§4.2).
#include "ns3/boolean.h"
#include "ns3/dcb-switch.h"
#include "ns3/maestro-helper.h"
#include "ns3/rdma-leaf-spine-fabric.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <set>

using namespace ns3;

namespace
{

class MaestroVnicTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /** Two hosts on different leaves, 4 spines of \p coreRate, \p vnics addresses each. */
    static RdmaLeafSpineFabric Fabric(uint32_t vnics, bool hashSourcePort,
                                      const std::string& coreRate = "10Gbps")
    {
        RdmaLeafSpineFabric fabric({0, 1}, 2, 4);
        fabric.SetHostRate(DataRate("40Gbps"));
        fabric.SetCoreRate(DataRate(coreRate));
        fabric.GetFabric().SetVirtualNics(vnics);
        DcbHelper dcb;
        dcb.SetSwitchAttribute("EcmpHashSourcePort", BooleanValue(hashSourcePort));
        RdmaHelper rdma;
        rdma.SetCongestionControl("ns3::RdmaNoCongestionControl");
        fabric.Build(dcb, rdma);
        return fabric;
    }

    /** Packets each spine forwarded. */
    static std::vector<uint64_t> SpineTraffic(const RdmaLeafSpineFabric& fabric)
    {
        std::vector<uint64_t> n;
        for (uint32_t s = 0; s < 4; ++s)
        {
            n.push_back(fabric.GetSwitches().Get(2 + s)->GetObject<DcbSwitch>()->GetForwarded());
        }
        return n;
    }

    /** Time to WRITE \p bytes over \p ep (posted at 10 us). */
    static Time Transfer(Ptr<MaestroEndpoint> ep, uint64_t bytes)
    {
        Time done;
        ep->TraceConnectWithoutContext("MessageCompleted",
                                       MakeBoundCallback(
                                           +[](Time* t, const MaestroMessageCompletion& c)
                                           { *t = c.completionTime - c.postTime; },
                                           &done));
        Simulator::Schedule(MicroSeconds(10),
                            [ep, bytes]()
                            {
                                RdmaWorkRequest wr;
                                wr.length = bytes;
                                ep->PostSend(wr);
                            });
        Simulator::Run();
        return done;
    }

    static std::set<int64_t> Spines(const RdmaLeafSpineFabric& fabric, Ptr<MaestroEndpoint> ep)
    {
        std::set<int64_t> spines;
        for (uint32_t vp = 0; vp < ep->GetQpManager()->GetNPaths(); ++vp)
        {
            spines.insert(fabric.SpineOfLink(ep->GetQpManager()->GetPath(vp).links[0]));
        }
        return spines;
    }
};

// Hash over addresses only: with one address per NIC every QP takes the same
// spine; with 4 vNICs the QP manager computes every pair's path a priori, opens
// exactly one QP per spine, and the switches really spread the traffic.
TEST_F(MaestroVnicTest, VirtualNicPairsAreMappedToDistinctSpinesAPriori)
{
    const uint64_t bytes = 4000000;
    RdmaLeafSpineFabric one = Fabric(1, false);
    Ptr<MaestroEndpoint> single = MaestroHelper().Install(one.GetNics()[0], one.GetNics()[1]);
    EXPECT_TRUE(single->GetQpManager()->IsAPriori());
    EXPECT_EQ(single->GetQpManager()->GetNPaths(), 1u); // one address pair: one path
    const Time tSingle = Transfer(single, bytes);
    std::vector<uint64_t> spinesSingle = SpineTraffic(one);
    Simulator::Destroy();

    RdmaLeafSpineFabric four = Fabric(4, false);
    Ptr<MaestroEndpoint> ep = MaestroHelper().Install(four.GetNics()[0], four.GetNics()[1]);
    Ptr<MaestroQpManager> qm = ep->GetQpManager();
    EXPECT_TRUE(qm->IsAPriori());
    EXPECT_EQ(qm->GetNAddressPairs(), 16u);
    ASSERT_EQ(qm->GetNPaths(), 4u);
    EXPECT_EQ(qm->GetNCandidates(), 4u); // no QP opened in vain
    EXPECT_EQ(Spines(four, ep).size(), 4u);
    std::set<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t vp = 0; vp < 4; ++vp)
    {
        pairs.insert({qm->GetPath(vp).qp->GetLocalAddress().Get(),
                      qm->GetPath(vp).qp->GetRemoteAddress().Get()});
    }
    EXPECT_EQ(pairs.size(), 4u);
    const Time tFour = Transfer(ep, bytes);
    std::vector<uint64_t> spinesFour = SpineTraffic(four);
    std::cout << "4 MB over 4 x 10 Gb/s: 1 address " << tSingle.As(Time::US) << ", 4 vNICs "
              << tFour.As(Time::US) << "; packets per spine:";
    for (uint32_t s = 0; s < 4; ++s)
    {
        std::cout << " " << spinesSingle[s] << "/" << spinesFour[s];
    }
    std::cout << std::endl;
    uint32_t used = 0;
    for (uint32_t s = 0; s < 4; ++s)
    {
        used += spinesSingle[s] > 100 ? 1 : 0;
        EXPECT_GT(spinesFour[s], 600u) << "spine " << s; // ~1/4 of ~1000 MTU packets + ACKs
    }
    EXPECT_LE(used, 2u); // the data on one spine, its ACKs on (at most) another
    EXPECT_LT(tFour.GetSeconds(), tSingle.GetSeconds() * 0.35); // ideal 1/4
}

// 5-tuple hash: candidate QPs are opened over the address pairs in turn and the
// kept ones cover the 4 spines from several vNIC pairs.
TEST_F(MaestroVnicTest, SourcePortHashProbesCandidatesOverAddressPairs)
{
    RdmaLeafSpineFabric four = Fabric(4, true);
    Ptr<MaestroEndpoint> ep = MaestroHelper().Install(four.GetNics()[0], four.GetNics()[1]);
    Ptr<MaestroQpManager> qm = ep->GetQpManager();
    EXPECT_FALSE(qm->IsAPriori());
    ASSERT_EQ(qm->GetNPaths(), 4u);
    EXPECT_GE(qm->GetNCandidates(), 8u); // CandidateFactor x NumPaths at least
    EXPECT_EQ(Spines(four, ep).size(), 4u);
    std::set<uint32_t> locals;
    for (uint32_t vp = 0; vp < 4; ++vp)
    {
        locals.insert(qm->GetPath(vp).qp->GetLocalAddress().Get());
    }
    EXPECT_GE(locals.size(), 2u);
}

// The paper's probing (§4.1 steps 2-4): each candidate sends a 2-byte probe whose
// headers (and its ACK's) are captured at the hosts' ports; the paths are chosen
// from the captured 5-tuples once every probe was seen. A message posted at once
// waits for them and completes.
TEST_F(MaestroVnicTest, CapturedProbesSelectDistinctPathsBeforeTheFirstChunk)
{
    RdmaLeafSpineFabric four = Fabric(4, true);
    Ptr<MaestroEndpoint> ep = CreateObject<MaestroEndpoint>();
    Ptr<MaestroQpManager> qm = ep->GetQpManager();
    qm->SetAttribute("ProbeCandidates", BooleanValue(true));
    EXPECT_EQ(ep->Connect(four.GetNics()[0], four.GetNics()[1]), 0u);
    EXPECT_FALSE(qm->IsReady());
    Time firstChunk;
    ep->TraceConnectWithoutContext("ChunkPosted", MakeBoundCallback(
                                                      +[](Time* t, const MaestroWrDescriptor&)
                                                      {
                                                          if (t->IsZero())
                                                          {
                                                              *t = Simulator::Now();
                                                          }
                                                      },
                                                      &firstChunk));
    RdmaWorkRequest wr;
    wr.length = 1000000;
    ep->PostSend(wr);
    Simulator::Run();
    ASSERT_TRUE(qm->IsReady());
    ASSERT_EQ(qm->GetNPaths(), 4u);
    EXPECT_EQ(Spines(four, ep).size(), 4u);
    EXPECT_GE(qm->GetNCandidates(), 8u);
    for (uint32_t vp = 0; vp < 4; ++vp)
    {
        // the captured 5-tuple is the QP's own
        const MaestroVirtualPath& p = qm->GetPath(vp);
        EXPECT_EQ(p.links, MaestroQpManager::EcmpPath(
                               four.GetNics()[0]->GetDevice(), p.qp->GetLocalAddress(),
                               p.qp->GetRemoteAddress(), p.qp->GetUdpSourcePort()));
        EXPECT_EQ(ep->GetPathMonitor()->Get(vp).bytesCompleted > 0, true) << "vp " << vp;
    }
    std::cout << "probing: " << qm->GetNCandidates() << " candidates, first chunk at "
              << firstChunk.As(Time::US) << std::endl;
    EXPECT_TRUE(firstChunk.IsStrictlyPositive()); // waited for the probes
    EXPECT_LT(firstChunk, MicroSeconds(50));      // one probe round trip or a few
    EXPECT_EQ(ep->GetNPendingMessages(), 0u);
}

// An operator pins vNIC pair (v, v) to spine 3 - v: Maestro's paths are exactly the
// pinned ones, whatever the hash says, and the data follows them.
TEST_F(MaestroVnicTest, PinnedVirtualPathsAreUsedAsPinned)
{
    RdmaLeafSpineFabric f = Fabric(2, false);
    // pairs (0,0) (0,1) (1,0) (1,1) -> spines 3 2 1 0
    for (uint32_t a = 0; a < 2; ++a)
    {
        for (uint32_t b = 0; b < 2; ++b)
        {
            f.PinVirtualPath(0, a, 1, b, 3 - (2 * a + b));
        }
    }
    Ptr<MaestroEndpoint> ep = MaestroHelper().Install(f.GetNics()[0], f.GetNics()[1]);
    Ptr<MaestroQpManager> qm = ep->GetQpManager();
    ASSERT_EQ(qm->GetNPaths(), 4u);
    EXPECT_EQ(qm->GetNCandidates(), 4u);
    for (uint32_t vp = 0; vp < 4; ++vp)
    {
        const uint32_t a = qm->GetPath(vp).qp->GetLocalAddress() == f.VirtualAddress(0, 0) ? 0 : 1;
        const uint32_t b = qm->GetPath(vp).qp->GetRemoteAddress() == f.VirtualAddress(1, 0) ? 0 : 1;
        EXPECT_EQ(f.SpineOfLink(qm->GetPath(vp).links[0]), 3 - (2 * a + b)) << "vp " << vp;
        // ... and its ACKs come back over the same spine (the reverse pair is pinned too)
        EXPECT_EQ(f.SpineOfLink(qm->GetPath(vp).reverse[0]), 3 - (2 * a + b)) << "vp " << vp;
    }
    Transfer(ep, 2000000);
    for (uint64_t n : SpineTraffic(f))
    {
        EXPECT_GT(n, 300u); // ~1/4 of ~500 packets each way
    }
}

// The topology-agnostic pin: the path of another 5-tuple, given as links, is
// pinned for a vNIC pair; a link that is no switch port is refused, naming it.
TEST_F(MaestroVnicTest, PinPathPinsAnExplicitPathAndRejectsABadLink)
{
    RdmaLeafSpineFabric f = Fabric(2, false);
    Ptr<DcbNetDevice> dev = f.GetNics()[0]->GetDevice();
    const Ipv4Address a = f.VirtualAddress(0, 1);
    const Ipv4Address b = f.VirtualAddress(1, 1);
    const std::vector<uint64_t> before = MaestroQpManager::EcmpPath(dev, a, b, 0);
    ASSERT_EQ(before.size(), 3u); // leaf 0 -> spine -> leaf 1 -> host
    // some other spine's path, from leaf 0's port towards it
    std::vector<uint64_t> target;
    for (uint32_t v = 0; v < 2 && target.empty(); ++v)
    {
        for (uint32_t w = 0; w < 2 && target.empty(); ++w)
        {
            auto p =
                MaestroQpManager::EcmpPath(dev, f.VirtualAddress(0, v), f.VirtualAddress(1, w), 0);
            if (f.SpineOfLink(p[0]) != f.SpineOfLink(before[0]))
            {
                target = p;
            }
        }
    }
    ASSERT_FALSE(target.empty());
    const JsonSchemaReader reader("paths.json");
    EXPECT_NO_THROW(MaestroHelper::PinPath(a, b, target, reader, "/path"));
    EXPECT_EQ(MaestroQpManager::EcmpPath(dev, a, b, 0), target);
    std::string error;
    try
    {
        MaestroHelper::PinPath(a, b, {(uint64_t(999) << 32) | 1}, reader, "/path");
    }
    catch (const ConfigError& e)
    {
        error = e.what();
    }
    EXPECT_NE(error.find("paths.json: /path/0: "), std::string::npos) << error;
    EXPECT_NE(error.find("node 999, port 1"), std::string::npos) << error;
}

// SEND of several chunks over paths of different delay (chunks arrive out of
// order): the peer is told once per message, by the immediate of the last chunk,
// and only after every byte of the message was placed; also when a path fails
// mid-message and chunks are reposted.
TEST_F(MaestroVnicTest, SendIsNotifiedOnceByTheImmediateOfTheLastChunk)
{
    for (int fail = 0; fail < 2; ++fail)
    {
        RdmaLeafSpineFabric f({0, 1}, 2, 4);
        f.SetHostRate(DataRate("40Gbps"));
        f.SetCoreRate(DataRate("10Gbps"));
        f.SetSpineDelays({MicroSeconds(1), MicroSeconds(4), MicroSeconds(8), MicroSeconds(16)});
        f.GetFabric().SetVirtualNics(4);
        DcbHelper dcb;
        RdmaHelper rdma;
        rdma.SetCongestionControl("ns3::RdmaNoCongestionControl");
        f.Build(dcb, rdma);
        MaestroHelper mh;
        mh.SetEndpointAttribute("ChunkTimeout", TimeValue(MicroSeconds(500)));
        mh.SetEndpointAttribute("ReprobeInterval", TimeValue(Seconds(0)));
        Ptr<MaestroEndpoint> ep = mh.Install(f.GetNics()[0], f.GetNics()[1]);
        ASSERT_EQ(ep->GetQpManager()->GetNPaths(), 4u);
        const uint64_t region = 1 << 24;
        const std::vector<uint64_t> sizes = {1000000, 2, 777777, 2000000};
        struct State
        {
            std::vector<uint64_t> placed;
            std::vector<uint32_t> notified;
            std::vector<uint64_t> placedAtNotify;
            std::vector<Time> receivedAt;
            std::vector<Time> completedAt;
        } st;
        st.placed.assign(sizes.size(), 0);
        st.notified.assign(sizes.size(), 0);
        st.placedAtNotify.assign(sizes.size(), 0);
        st.receivedAt.assign(sizes.size(), Time());
        st.completedAt.assign(sizes.size(), Time());
        f.GetNics()[1]->TraceConnectWithoutContext(
            "DataPlaced", MakeBoundCallback(
                              +[](State* s, uint32_t, uint64_t addr, uint32_t bytes)
                              { s->placed[addr / (1 << 24)] += bytes; },
                              &st));
        ep->TraceConnectWithoutContext("MessageReceived",
                                       MakeBoundCallback(
                                           +[](State* s, uint32_t id)
                                           {
                                               ++s->notified.at(id);
                                               s->placedAtNotify[id] = s->placed[id];
                                               s->receivedAt[id] = Simulator::Now();
                                           },
                                           &st));
        ep->TraceConnectWithoutContext("MessageCompleted",
                                       MakeBoundCallback(
                                           +[](State* s, const MaestroMessageCompletion& c)
                                           { s->completedAt.at(c.messageId) = c.completionTime; },
                                           &st));
        for (uint32_t m = 0; m < sizes.size(); ++m)
        {
            RdmaWorkRequest wr;
            wr.verb = RdmaVerb::Send;
            wr.length = sizes[m];
            wr.remoteAddr = m * region;
            ep->PostSend(wr);
        }
        if (fail)
        {
            const auto spine =
                static_cast<uint32_t>(f.SpineOfLink(ep->GetQpManager()->GetPath(1).links[0]));
            Simulator::Schedule(MicroSeconds(300), [&f, spine]() { f.SetSpineUp(spine, false); });
        }
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        EXPECT_EQ(ep->GetNReceivedMessages(), sizes.size());
        for (uint32_t m = 0; m < sizes.size(); ++m)
        {
            EXPECT_EQ(st.notified[m], 1u) << "message " << m << " fail " << fail;
            EXPECT_GE(st.placedAtNotify[m], sizes[m]) << "message " << m << " fail " << fail;
            EXPECT_TRUE(st.completedAt[m] >= st.receivedAt[m]) << "message " << m;
        }
        if (fail)
        {
            EXPECT_GT(ep->GetNReposts(), 0u);
        }
        Simulator::Destroy();
    }
}

} // namespace
