// Maestro algorithm units with no network: decomposer, reassembler, policies,
// and the ECMP path-utilisation oracle with the switches' real hash.
#include "ns3/dcb-switch.h"
#include "ns3/maestro-decomposer.h"
#include "ns3/maestro-flowlet.h"
#include "ns3/maestro-min-latency.h"
#include "ns3/maestro-path-monitor.h"
#include "ns3/maestro-proportional.h"
#include "ns3/maestro-reassembler.h"
#include "ns3/maestro-round-robin.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <set>

using namespace ns3;

namespace
{

class MaestroUnitTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }
};

TEST_F(MaestroUnitTest, ChunksCoverEachMessageExactlyOnce)
{
    Ptr<MaestroDecomposer> d = CreateObject<MaestroDecomposer>();
    EXPECT_EQ(d->GetChunkSize(), 50000u); // SOSR'21 default
    for (uint64_t chunk : {1ULL, 4096ULL, 50000ULL, 65536ULL})
    {
        d->SetChunkSize(chunk);
        for (uint64_t len : {1ULL, 2ULL, 4095ULL, 4096ULL, 50000ULL, 123457ULL, 1600000ULL})
        {
            if (len / chunk > 200000)
            {
                continue;
            }
            RdmaWorkRequest wr;
            wr.wrId = 77;
            wr.length = len;
            wr.localAddr = 0x1000;
            wr.remoteAddr = 0x900000;
            wr.rkey = 5;
            auto chunks = d->Decompose(wr, 9);
            ASSERT_EQ(chunks.size(), (len + chunk - 1) / chunk) << len << "/" << chunk;
            uint64_t next = 0;
            for (uint32_t k = 0; k < chunks.size(); ++k)
            {
                EXPECT_EQ(chunks[k].chunkId, k);
                EXPECT_EQ(chunks[k].messageId, 9u);
                EXPECT_EQ(chunks[k].wrId, 77u);
                EXPECT_EQ(chunks[k].offset, next); // contiguous, no gap, no overlap
                EXPECT_GT(chunks[k].length, 0u);
                EXPECT_LE(chunks[k].length, chunk);
                RdmaWorkRequest c = MaestroDecomposer::ChunkRequest(wr, chunks[k], 1000 + k, false);
                EXPECT_EQ(c.verb, RdmaVerb::Write);
                EXPECT_EQ(c.remoteAddr, wr.remoteAddr + next); // sender-oriented placement
                EXPECT_EQ(c.localAddr, wr.localAddr + next);
                EXPECT_EQ(c.rkey, 5u);
                next += chunks[k].length;
            }
            EXPECT_EQ(next, len);
        }
    }
    RdmaWorkRequest empty;
    EXPECT_TRUE(d->Decompose(empty, 1).empty());
}

TEST_F(MaestroUnitTest, MessageCompletesExactlyOnceInAnyOrder)
{
    std::mt19937 rng(1);
    for (uint32_t n : {1u, 2u, 7u, 32u, 100u})
    {
        for (int trial = 0; trial < 20; ++trial)
        {
            MaestroReassembler r;
            RdmaWorkRequest wr;
            wr.wrId = 5;
            wr.length = n * 10;
            r.Add(3, wr, n, Seconds(1));
            std::vector<uint32_t> order;
            for (uint32_t k = 0; k < n; ++k)
            {
                order.push_back(k);
                if (rng() % 3 == 0)
                {
                    order.push_back(k); // a reposted chunk completing twice
                }
            }
            std::shuffle(order.begin(), order.end(), rng);
            uint32_t done = 0;
            uint32_t duplicates = 0;
            bool finished = false;
            for (uint32_t k : order)
            {
                auto res = r.Complete(3, k);
                if (finished)
                {
                    EXPECT_EQ(res, MaestroReassembler::UNKNOWN_MESSAGE); // forgotten
                    continue;
                }
                if (res == MaestroReassembler::MESSAGE_DONE)
                {
                    ++done;
                    EXPECT_EQ(r.Take(3, Seconds(2)).wrId, 5u);
                    finished = true;
                }
                duplicates += res == MaestroReassembler::DUPLICATE;
            }
            EXPECT_EQ(done, 1u);
            EXPECT_EQ(r.GetNMessages(), 0u);
            EXPECT_EQ(r.Complete(3, 0), MaestroReassembler::UNKNOWN_MESSAGE);
        }
    }
}

Ptr<MaestroPathMonitor>
Monitor(std::vector<double> gbps)
{
    Ptr<MaestroPathMonitor> m = CreateObject<MaestroPathMonitor>();
    for (double g : gbps)
    {
        m->AddPath(DataRate(static_cast<uint64_t>(g * 1e9)));
    }
    return m;
}

TEST_F(MaestroUnitTest, RoundRobinTakesTurnsAndSkipsFailedPaths)
{
    Ptr<MaestroPathMonitor> m = Monitor({40, 10, 40});
    Ptr<MaestroRoundRobin> rr = CreateObject<MaestroRoundRobin>();
    std::vector<int64_t> got;
    for (int i = 0; i < 6; ++i)
    {
        got.push_back(rr->SelectPath(*m, 100, 1000, 8));
        m->NotifyPosted(got.back(), 100);
    }
    EXPECT_EQ(got, (std::vector<int64_t>{0, 1, 2, 0, 1, 2}));
    m->MarkFailed(1);
    EXPECT_EQ(rr->SelectPath(*m, 100, 1000, 8), 0);
    m->NotifyPosted(0, 100);
    EXPECT_EQ(rr->SelectPath(*m, 100, 1000, 8), 2);
    m->NotifyPosted(2, 100);
    // path 0 full (3 live, limit 3): strict turn means wait
    EXPECT_EQ(rr->SelectPath(*m, 100, 1000, 3), -1);
}

TEST_F(MaestroUnitTest, ProportionalFillsPathsInProportionToBandwidth)
{
    Ptr<MaestroPathMonitor> m = Monitor({40, 30, 20, 10});
    Ptr<MaestroProportional> p = CreateObject<MaestroProportional>();
    std::vector<uint32_t> count(4, 0);
    for (int i = 0; i < 100; ++i)
    {
        int64_t vp = p->SelectPath(*m, 1000, 1e9, 1000);
        ASSERT_GE(vp, 0);
        m->NotifyPosted(vp, 1000);
        ++count[vp];
    }
    EXPECT_NEAR(count[0], 40, 1);
    EXPECT_NEAR(count[1], 30, 1);
    EXPECT_NEAR(count[2], 20, 1);
    EXPECT_NEAR(count[3], 10, 1);
    m->MarkFailed(0);
    for (int i = 0; i < 10; ++i)
    {
        EXPECT_NE(p->SelectPath(*m, 1000, 1e9, 1000), 0);
    }
}

TEST_F(MaestroUnitTest, MinLatencyPicksTheFastestMeasuredPathForSmallMessages)
{
    Ptr<MaestroPathMonitor> m = Monitor({40, 40, 40});
    Ptr<MaestroMinLatency> ml = CreateObject<MaestroMinLatency>();
    // unmeasured paths are probed first
    EXPECT_EQ(ml->SelectPath(*m, 2, 2, 8), 0);
    const Time lat[] = {MicroSeconds(30), MicroSeconds(10), MicroSeconds(20)};
    for (uint32_t vp = 0; vp < 3; ++vp)
    {
        m->NotifyPosted(vp, 2);
        m->NotifyCompleted(vp, 2, Seconds(0), lat[vp], true, 0, true);
    }
    for (int i = 0; i < 5; ++i)
    {
        EXPECT_EQ(ml->SelectPath(*m, 2, 2, 8), 1);
    }
    m->MarkFailed(1);
    EXPECT_EQ(ml->SelectPath(*m, 2, 2, 8), 2);
    // large messages are placed proportionally: the idle paths first
    EXPECT_GE(ml->SelectPath(*m, 50000, 1000000, 8), 0);
}

TEST_F(MaestroUnitTest, FlowletStaysOnOnePathUntilACnpBurstThenMovesToTheLeastMarked)
{
    Ptr<MaestroPathMonitor> m = Monitor({40, 40, 40, 40});
    Ptr<MaestroFlowlet> f = CreateObject<MaestroFlowlet>(); // CnpBurst 4
    auto complete = [&](uint32_t vp, uint64_t cnps)
    {
        m->NotifyPosted(vp, 50000);
        m->NotifyCompleted(vp, 50000, Seconds(0), MicroSeconds(10), true, cnps, false);
    };
    for (int i = 0; i < 10; ++i)
    {
        EXPECT_EQ(f->SelectPath(*m, 50000, 1000000, 8), 0);
    }
    // a full current path means wait, not spill
    for (int i = 0; i < 8; ++i)
    {
        m->NotifyPosted(0, 50000);
    }
    EXPECT_EQ(f->SelectPath(*m, 50000, 1000000, 8), -1);
    for (int i = 0; i < 8; ++i)
    {
        m->NotifyCompleted(0, 50000, Seconds(0), MicroSeconds(10), true, 0, false);
    }
    complete(0, 3); // 3 CNPs: below the burst, stay
    complete(1, 9); // path 1 congested meanwhile
    EXPECT_EQ(f->SelectPath(*m, 50000, 1000000, 8), 0);
    complete(0, 4); // burst on path 0: move to the least-marked (2, not 1)
    EXPECT_EQ(f->SelectPath(*m, 50000, 1000000, 8), 2);
    EXPECT_EQ(f->GetNReassignments(), 1u);
    complete(2, 2);
    EXPECT_EQ(f->SelectPath(*m, 50000, 1000000, 8), 2);
    m->MarkFailed(2); // failover: next path after 2 with fewest CNPs since the epoch
    EXPECT_EQ(f->SelectPath(*m, 50000, 1000000, 8), 3);
    EXPECT_EQ(f->GetNReassignments(), 2u);
}

TEST_F(MaestroUnitTest, MonitorEstimatesDrainRateOfABackloggedPath)
{
    Ptr<MaestroPathMonitor> m = Monitor({100});
    // 50 KB chunks completing every 20 us = 20 Gb/s
    for (int k = 0; k < 64; ++k)
    {
        m->NotifyPosted(0, 50000);
        m->NotifyCompleted(0, 50000, Seconds(0), MicroSeconds(20 * (k + 1)), true, k, false);
    }
    EXPECT_NEAR(m->Get(0).rate.GetBitRate() / 1e9, 20.0, 0.1);
    EXPECT_EQ(m->Get(0).cnps, 63u);
    EXPECT_EQ(m->Get(0).chunksCompleted, 64u);
}

// Oracle 2 of reference-nic-host-multipath.md §4: n flows hashed onto m paths use on
// average 1 - (1 - 1/m)^n of them. Checked with DcbSwitch's own hash on random ports.
TEST_F(MaestroUnitTest, EcmpUtilisationMatchesOneMinusOneMinusOneOverMToTheN)
{
    Ptr<DcbSwitch> sw = CreateObject<DcbSwitch>();
    std::mt19937 rng(7);
    std::uniform_int_distribution<uint32_t> port(0xC000, 0xFFFF);
    const uint32_t m = 4;
    for (uint32_t n : {2u, 4u, 8u})
    {
        const int trials = 20000;
        double used = 0;
        for (int t = 0; t < trials; ++t)
        {
            std::set<uint32_t> paths;
            for (uint32_t f = 0; f < n; ++f)
            {
                paths.insert(sw->HashFlow(Ipv4Address("10.0.0.1"), Ipv4Address("10.0.0.3"), 17,
                                          port(rng), 4791) %
                             m);
            }
            used += paths.size();
        }
        const double measured = used / trials / m;
        const double expected = 1 - std::pow(1 - 1.0 / m, n);
        std::cout << "ECMP utilisation m=4 n=" << n << ": measured " << measured << ", expected "
                  << expected << std::endl;
        EXPECT_NEAR(measured, expected, 0.01);
    }
}

} // namespace
