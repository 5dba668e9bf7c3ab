// NIC-side entropy (RdmaNic attribute PathEntropy): the oblivious stream, REPS's buffer
// recycling and exploring (units, no network), and a WRITE across a leaf-spine whose
// packets the entropy spreads over the spines, with ACKs that echo it back.
#include "rdma-test-fabric.h"

#include "ns3/oblivious-path-entropy.h"
#include "ns3/reps-path-entropy.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

class PathEntropyTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }
};

TEST_F(PathEntropyTest, ObliviousDrawsEvenlyFromTheRangeAndRepeatsWithItsStream)
{
    auto draw = [](int64_t stream)
    {
        Ptr<ObliviousPathEntropy> e = CreateObject<ObliviousPathEntropy>();
        e->SetAttribute("FirstValue", UintegerValue(1000));
        e->SetAttribute("Values", UintegerValue(4));
        e->AssignStreams(stream);
        e->AddConnection(1);
        std::vector<uint16_t> v;
        for (uint32_t i = 0; i < 40000; ++i)
        {
            v.push_back(e->Select(i % 2));
        }
        EXPECT_EQ(e->GetExplored(), 40000u);
        return v;
    };
    const std::vector<uint16_t> a = draw(3);
    std::vector<uint32_t> count(4, 0);
    for (uint16_t x : a)
    {
        ASSERT_GE(x, 1000);
        ASSERT_LT(x, 1004);
        count[x - 1000]++;
    }
    for (uint32_t c : count) // 10000 each, binomial sd 87: 3% is 3.5 sd
    {
        EXPECT_NEAR(c, 10000.0, 300.0);
    }
    EXPECT_EQ(draw(3), a); // the same stream, the same values
    EXPECT_NE(draw(4), a);
}

TEST_F(PathEntropyTest, ObliviousDefaultRangeIsTheDynamicPortRange)
{
    Ptr<ObliviousPathEntropy> e = CreateObject<ObliviousPathEntropy>();
    e->AssignStreams(1);
    e->AddConnection(0);
    uint16_t lo = 0xFFFF;
    uint16_t hi = 0;
    for (uint32_t i = 0; i < 100000; ++i)
    {
        const uint16_t x = e->Select(0);
        lo = std::min(lo, x);
        hi = std::max(hi, x);
    }
    EXPECT_GE(lo, 0xC000);
    EXPECT_LT(lo, 0xC000 + 16);
    EXPECT_GT(hi, 0xFFFF - 16);
}

/** A REPS sender of \p connections connections, buffers of \p size, values from 50000. */
Ptr<RepsPathEntropy>
Reps(uint32_t connections, uint32_t size = 8)
{
    Ptr<RepsPathEntropy> e = CreateObject<RepsPathEntropy>();
    e->SetAttribute("BufferSize", UintegerValue(size));
    e->SetAttribute("FirstValue", UintegerValue(50000));
    e->SetAttribute("Values", UintegerValue(1000));
    e->AssignStreams(5);
    e->AddConnection(connections - 1);
    return e;
}

TEST_F(PathEntropyTest, RepsExploresUntilAnUnmarkedAckComesBack)
{
    Ptr<RepsPathEntropy> e = Reps(1);
    for (uint32_t i = 0; i < 10; ++i) // a new connection knows no good path: it sprays
    {
        const uint16_t x = e->Select(0);
        EXPECT_GE(x, 50000);
        EXPECT_LT(x, 51000);
    }
    EXPECT_EQ(e->GetExplored(), 10u);
    EXPECT_EQ(e->GetRecycled(), 0u);
    e->NotifyAck(0, 7, true); // marked: not cached
    EXPECT_EQ(e->GetNValid(0), 0u);
    e->Select(0);
    EXPECT_EQ(e->GetExplored(), 11u);
    e->NotifyAck(0, 7, false); // unmarked: reused by the next packet, once
    EXPECT_EQ(e->GetNValid(0), 1u);
    EXPECT_EQ(e->Select(0), 7);
    EXPECT_EQ(e->GetRecycled(), 1u);
    EXPECT_EQ(e->GetNValid(0), 0u);
    const uint16_t next = e->Select(0); // its valid bit cleared: explore again
    EXPECT_GE(next, 50000);
    EXPECT_EQ(e->GetExplored(), 12u);
}

TEST_F(PathEntropyTest, RepsReusesTheOldestValidValueFirst)
{
    Ptr<RepsPathEntropy> e = Reps(1);
    for (uint16_t v : {11, 22, 33})
    {
        e->NotifyAck(0, v, false);
    }
    e->NotifyAck(0, 44, true);
    EXPECT_EQ(e->Select(0), 11);
    e->NotifyAck(0, 55, false); // written after 33: served after it
    EXPECT_EQ(e->Select(0), 22);
    EXPECT_EQ(e->Select(0), 33);
    EXPECT_EQ(e->Select(0), 55);
    EXPECT_EQ(e->GetRecycled(), 4u);
    EXPECT_EQ(e->GetExplored(), 0u);
}

TEST_F(PathEntropyTest, RepsBufferIsBoundedAndOverwritesTheOldest)
{
    Ptr<RepsPathEntropy> e = Reps(1, 8);
    for (uint16_t v = 100; v < 110; ++v) // ten unmarked ACKs into eight entries
    {
        e->NotifyAck(0, v, false);
    }
    EXPECT_EQ(e->GetNValid(0), 8u);
    for (uint16_t v = 102; v < 110; ++v) // 100 and 101 overwritten; the rest oldest first
    {
        EXPECT_EQ(e->Select(0), v);
    }
    EXPECT_EQ(e->GetNValid(0), 0u);
    EXPECT_GE(e->Select(0), 50000); // empty again: explore
}

TEST_F(PathEntropyTest, RepsKeepsEachConnectionsBufferApart)
{
    Ptr<RepsPathEntropy> e = Reps(3);
    e->NotifyAck(2, 9, false);
    EXPECT_EQ(e->GetNValid(0), 0u);
    EXPECT_EQ(e->GetNValid(2), 1u);
    EXPECT_GE(e->Select(0), 50000);
    EXPECT_EQ(e->Select(2), 9);
    e->AddConnection(5); // growing keeps what is there
    e->NotifyAck(1, 8, false);
    EXPECT_EQ(e->Select(1), 8);
}

/** Payload bytes each spine forwarded in class 3 (the data class) after a WRITE. */
struct SpreadResult
{
    std::vector<double> spineBytes;
    bool completed{false};
    uint64_t explored{0};
    uint64_t recycled{0};
};

void
OnCompletion(SpreadResult* r, const RdmaCompletion& c)
{
    r->completed = c.status == RdmaWcStatus::Success;
}

/**
 * Host 0 WRITEs 4 MB to host 1 across 2 leaves x 4 spines (100 Gb/s, selective repeat),
 * both NICs with a PathEntropy of type \p entropy ("" for none).
 */
SpreadResult
WriteAcrossSpines(const std::string& entropy)
{
    DcbHelper dcb;
    RdmaHelper rdma;
    rdma.SetLossRecovery("ns3::RdmaSelectiveRepeat");
    RdmaLeafSpineFabric f = BuildLeafSpine(2, 4, 1, "100Gbps", MicroSeconds(1), dcb, rdma);
    if (!entropy.empty())
    {
        int64_t stream = 100;
        for (const Ptr<RdmaNic>& nic : f.GetNics())
        {
            ObjectFactory factory(entropy);
            Ptr<RdmaPathEntropy> e = factory.Create<RdmaPathEntropy>();
            stream += e->AssignStreams(stream);
            nic->SetPathEntropy(e);
        }
    }
    SpreadResult r;
    auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[1]);
    qa->SetAttribute("Mtu", UintegerValue(4096));
    f.GetNics()[0]->TraceConnectWithoutContext("Completion", MakeBoundCallback(&OnCompletion, &r));
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Write;
    wr.length = 4000000;
    qa->PostSend(wr);
    Simulator::Run();
    for (uint32_t s = 2; s < 6; ++s)
    {
        Ptr<DcbSwitch> sw = f.GetSwitch(s);
        double bytes = 0;
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            bytes += sw->GetPort(p)->GetCounters(3).txBytes;
        }
        r.spineBytes.push_back(bytes);
    }
    if (Ptr<RdmaPathEntropy> e = f.GetNics()[0]->GetPathEntropy())
    {
        r.explored = e->GetExplored();
        if (Ptr<RepsPathEntropy> reps = DynamicCast<RepsPathEntropy>(e))
        {
            r.recycled = reps->GetRecycled();
        }
    }
    Simulator::Destroy();
    return r;
}

TEST_F(PathEntropyTest, NicEntropySpreadsOneQpOverEverySpine)
{
    // Without entropy the QP's one source port pins its packets (and its ACKs) to one spine.
    const SpreadResult fixed = WriteAcrossSpines("");
    ASSERT_TRUE(fixed.completed);
    uint32_t used = 0;
    double total = 0;
    for (double b : fixed.spineBytes)
    {
        used += b > 0;
        total += b;
    }
    EXPECT_LE(used, 2u); // the data on one spine, the ACKs perhaps on another
    // Oblivious entropy: about a quarter of the data on each spine (977 packets).
    const SpreadResult oblivious = WriteAcrossSpines("ns3::ObliviousPathEntropy");
    ASSERT_TRUE(oblivious.completed);
    EXPECT_GE(oblivious.explored, 977u);
    total = 0;
    for (double b : oblivious.spineBytes)
    {
        total += b;
    }
    for (double b : oblivious.spineBytes)
    {
        EXPECT_NEAR(b / total, 0.25, 0.05);
    }
    // REPS: the ACKs echo each packet's value, unmarked on this idle fabric, so after the
    // first round trip nearly every packet reuses a value that came back; the spines the
    // first explored values reached keep carrying the data.
    const SpreadResult reps = WriteAcrossSpines("ns3::RepsPathEntropy");
    ASSERT_TRUE(reps.completed);
    EXPECT_GT(reps.recycled, 800u);
    EXPECT_LT(reps.explored, 200u);
    used = 0;
    for (double b : reps.spineBytes)
    {
        used += b > 0;
    }
    EXPECT_GE(used, 3u);
}

} // namespace
