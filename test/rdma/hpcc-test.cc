// HPCC (SIGCOMM'19) with in-band network telemetry: the INT trailer's bytes, the switch
// egress records in a captured frame, the near-zero queue on an incast and the reaction
// to a new flow, each with a control that fails.
#include "rdma-test-fabric.h"

#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/int-trailer.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-hpcc.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

class HpccTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }
};

uint64_t
Be64(const uint8_t* p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
    {
        v = (v << 8) | p[i];
    }
    return v;
}

TEST_F(HpccTest, IntTrailerRoundTripAndLayout)
{
    IntTrailer t(5);
    const uint64_t w0 =
        IntTrailer::EncodeHop(DataRate("100Gbps"), NanoSeconds(1234567), 1000000, 12800);
    t.PushHop(w0);
    EXPECT_EQ(t.GetSerializedSize(), 42u); // 5 x 8 + 2
    Ptr<Packet> p = Create<Packet>(100);
    p->AddTrailer(t);
    ASSERT_EQ(p->GetSize(), 142u);
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    // Slot 0 at byte 100: B = 5 (100G), ts = 1234567, tx = 1000000 / 128, q = 100.
    const uint64_t word = Be64(&b[100]);
    EXPECT_EQ(word >> 60, 5u);
    EXPECT_EQ((word >> 36) & 0xFFFFFF, 1234567u);
    EXPECT_EQ((word >> 16) & 0xFFFFF, 1000000u / 128);
    EXPECT_EQ(word & 0xFFFF, 100u);
    for (int i = 108; i < 140; ++i)
    {
        EXPECT_EQ(b[i], 0) << "free slot byte " << i;
    }
    EXPECT_EQ(b[140], 1); // hop count
    EXPECT_EQ(b[141], 5); // capacity
    IntTrailer back;
    p->RemoveTrailer(back);
    EXPECT_EQ(back.GetCapacity(), 5);
    ASSERT_EQ(back.GetNHops(), 1);
    EXPECT_EQ(back.GetHopWord(0), w0);
    EXPECT_EQ(back.GetHop(0).rateBps, 100000000000ULL);
    EXPECT_EQ(p->GetSize(), 100u);
}

TEST_F(HpccTest, StampHopRewritesOnlyTheTail)
{
    Ptr<Packet> p = Create<Packet>(64);
    p->AddTrailer(IntTrailer(3));
    const uint8_t icrc[4] = {0xde, 0xad, 0xbe, 0xef};
    p->AddAtEnd(Create<Packet>(icrc, 4));
    IntTrailer::StampHop(p, 0, 3, 0x1111222233334444ULL);
    IntTrailer::StampHop(p, 1, 3, 0x5555666677778888ULL);
    EXPECT_EQ(IntTrailer::PeekNHops(p), 2);
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    ASSERT_EQ(b.size(), 64u + 26 + 4);
    EXPECT_EQ(Be64(&b[64]), 0x1111222233334444ULL);
    EXPECT_EQ(Be64(&b[72]), 0x5555666677778888ULL);
    EXPECT_EQ(Be64(&b[80]), 0u);
    EXPECT_EQ(b[88], 2);
    EXPECT_EQ(b[89], 3);
    EXPECT_EQ(b[90], 0xde);
    EXPECT_EQ(b[93], 0xef);
}

/** Data frames (BTH IntHops set, not an echo) that a port started to send. */
struct Capture
{
    std::vector<std::vector<uint8_t>> frames;

    void OnTx(Ptr<const Packet> frame)
    {
        std::vector<uint8_t> b(frame->GetSize());
        frame->CopyData(b.data(), b.size());
        // Ethernet + 802.1Q (18) + IPv4 (20) + UDP (8); BTH byte 4 = resv8a.
        if (b.size() > 18 + 28 + 12 && (b[18 + 28 + 4] & 0x07) != 0 && !(b[18 + 28 + 4] & 0x08))
        {
            frames.push_back(b);
        }
    }
};

TEST_F(HpccTest, SwitchesAppendHopRecordsInCapturedFrames)
{
    DcbHelper dcb;
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::RdmaHpcc");
    // h0 on leaf 0, h2 on leaf 1: three switch hops (leaf, spine, leaf).
    RdmaTestFabric f = RdmaTestFabric::LeafSpine(2, 1, 2, "100Gbps", MicroSeconds(1), dcb, rdma);
    Capture cap;
    // The port of leaf 1 towards h2 (its first port: hosts are installed first).
    f.Switch(1)->GetPort(0)->TraceConnectWithoutContext("PhyTxBegin",
                                                        MakeCallback(&Capture::OnTx, &cap));
    auto [qa, qb] = RdmaHelper::Connect(f.nics[0], f.nics[2]);
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Write;
    wr.length = 200000;
    qa->PostSend(wr);
    Simulator::Run();
    ASSERT_GT(cap.frames.size(), 100u);
    uint64_t lastTx[3] = {0, 0, 0};
    for (const auto& b : cap.frames)
    {
        const size_t n = b.size();
        ASSERT_EQ(b[n - 5], 5) << "capacity (MaxHops default)";
        ASSERT_EQ(b[n - 6], 3) << "hop count: leaf, spine, leaf";
        const size_t slots = n - 4 - 42;
        uint32_t prevTs = 0;
        for (int h = 0; h < 3; ++h)
        {
            const uint64_t w = Be64(&b[slots + 8 * h]);
            EXPECT_EQ(w >> 60, 5u) << "100 Gb/s code";
            const auto ts = static_cast<uint32_t>((w >> 36) & 0xFFFFFF);
            if (h > 0)
            {
                // Each hop later than the one before: serialization + 1 us propagation.
                EXPECT_GT((ts - prevTs) & 0xFFFFFF, 1000u);
            }
            prevTs = ts;
            const uint64_t tx = (w >> 16) & 0xFFFFF;
            EXPECT_GE(tx, lastTx[h]) << "txBytes is cumulative";
            lastTx[h] = tx;
        }
        for (int h = 3; h < 5; ++h)
        {
            EXPECT_EQ(Be64(&b[slots + 8 * h]), 0u);
        }
    }
    // The ports sent the 200 KB (+ headers) between the first and the last frame.
    EXPECT_GT(lastTx[2] * 128, 150000u);
}

/** 4 -> 1 incast of long flows; the bottleneck queue sampled every 1 us over [from, to]. */
struct IncastResult
{
    double meanQueue{0};
    double goodput{0}; //!< bit/s of payload into the receiver
};

IncastResult
RunIncast(const std::string& cc, double eta, Time from, Time to)
{
    Config::SetDefault("ns3::RdmaHpcc::TargetUtilization", DoubleValue(eta));
    DcbHelper dcb;
    // The 100 Gb/s marking of the HPCC-simulator setting (shared/bench).
    dcb.SetEcnMarkerAttribute("Kmin", QueueSizeValue(QueueSize("400KB")));
    dcb.SetEcnMarkerAttribute("Kmax", QueueSizeValue(QueueSize("1600KB")));
    dcb.SetEcnMarkerAttribute("Pmax", DoubleValue(0.2));
    RdmaHelper rdma;
    rdma.SetCongestionControl(cc);
    RdmaTestFabric f = RdmaTestFabric::Star(5, "100Gbps", MicroSeconds(1), dcb, rdma);
    std::vector<Ptr<RdmaQueuePair>> qps;
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Write;
    wr.length = 4000000000ULL;
    for (uint32_t s = 0; s < 4; ++s)
    {
        auto [qa, qb] = RdmaHelper::Connect(f.nics[s], f.nics[4]);
        qa->PostSend(wr);
        qps.push_back(qa);
    }
    Ptr<DcbNetDevice> port = f.Switch(0)->GetPort(4);
    double sum = 0;
    uint64_t samples = 0;
    for (Time t = from; t < to; t += MicroSeconds(1))
    {
        Simulator::Schedule(t,
                            [&]()
                            {
                                uint64_t q = 0;
                                for (uint8_t c = 0; c < 8; ++c)
                                {
                                    q += port->GetQueueBytes(c);
                                }
                                sum += static_cast<double>(q);
                                samples++;
                            });
    }
    uint64_t sentFrom = 0;
    IncastResult r;
    Simulator::Schedule(from,
                        [&]()
                        {
                            for (auto& q : qps)
                            {
                                sentFrom += q->GetCounters().payloadBytesSent;
                            }
                        });
    Simulator::Schedule(to,
                        [&]()
                        {
                            uint64_t sent = 0;
                            for (auto& q : qps)
                            {
                                sent += q->GetCounters().payloadBytesSent;
                            }
                            r.goodput = (sent - sentFrom) * 8.0 / (to - from).GetSeconds();
                            Simulator::Stop();
                        });
    Simulator::Run();
    Simulator::Destroy();
    Config::Reset();
    r.meanQueue = samples ? sum / samples : 0;
    return r;
}

TEST_F(HpccTest, IncastKeepsNearZeroQueueAtLineRateUnlikeDcqcn)
{
    const Time from = MicroSeconds(500);
    const Time to = MicroSeconds(1500);
    const IncastResult hpcc = RunIncast("ns3::RdmaHpcc", 0.95, from, to);
    const IncastResult dcqcn = RunIncast("ns3::RdmaDcqcn", 0.95, from, to);
    const IncastResult overTarget = RunIncast("ns3::RdmaHpcc", 1.5, from, to);
    std::cout << "incast 4:1 mean queue / goodput: HPCC " << hpcc.meanQueue << " B / "
              << hpcc.goodput / 1e9 << " Gb/s; DCQCN " << dcqcn.meanQueue << " B / "
              << dcqcn.goodput / 1e9 << " Gb/s; HPCC eta=1.5 " << overTarget.meanQueue << " B / "
              << overTarget.goodput / 1e9 << " Gb/s" << std::endl;
    // Near-zero standing queue: under 10 KB (ten MTUs) at eta = 0.95 ...
    EXPECT_LT(hpcc.meanQueue, 10000.0);
    // ... with the link near eta of line rate (payload share 1024/1098 of 100 Gb/s).
    EXPECT_GT(hpcc.goodput, 0.85 * 93.26e9);
    // Control: DCQCN holds its queue in the marking range.
    EXPECT_GT(dcqcn.meanQueue, 100000.0);
    // Control: a target above line rate builds the standing queue the bound rejects.
    EXPECT_GT(overTarget.meanQueue, 10000.0);
}

TEST_F(HpccTest, NewFlowGetsItsShareWithinAFewRtts)
{
    DcbHelper dcb;
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::RdmaHpcc");
    RdmaTestFabric f = RdmaTestFabric::Star(3, "100Gbps", MicroSeconds(1), dcb, rdma);
    auto [q1, r1] = RdmaHelper::Connect(f.nics[0], f.nics[2]);
    auto [q2, r2] = RdmaHelper::Connect(f.nics[1], f.nics[2]);
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Write;
    wr.length = 4000000000ULL;
    q1->PostSend(wr);
    const Time start = MicroSeconds(300);
    Simulator::Schedule(start, &RdmaQueuePair::PostSend, q2, wr);
    // Measure over [start + 20 base RTTs, + 200 us]: the paper's Fig. 2/9 convergence.
    const Time from = start + MicroSeconds(170);
    const Time to = from + MicroSeconds(200);
    uint64_t s1 = 0;
    uint64_t s2 = 0;
    double rate1 = 0;
    double rate2 = 0;
    Simulator::Schedule(from,
                        [&]()
                        {
                            s1 = q1->GetCounters().payloadBytesSent;
                            s2 = q2->GetCounters().payloadBytesSent;
                        });
    Simulator::Schedule(to,
                        [&]()
                        {
                            const double secs = (to - from).GetSeconds();
                            rate1 = (q1->GetCounters().payloadBytesSent - s1) * 8.0 / secs;
                            rate2 = (q2->GetCounters().payloadBytesSent - s2) * 8.0 / secs;
                            Simulator::Stop();
                        });
    Simulator::Run();
    std::cout << "HPCC two flows after a join: " << rate1 / 1e9 << " / " << rate2 / 1e9 << " Gb/s"
              << std::endl;
    // Fast reaction: the joining flow holds a substantial share at once (the old one made
    // room within a few RTTs) and the link stays full; exact equality comes later, from
    // the additive increase W_AI (the paper's fairness argument), which this window does
    // not wait for.
    EXPECT_GT(rate2, 0.30 * (rate1 + rate2));
    EXPECT_GT(rate1, 0.30 * (rate1 + rate2));
    EXPECT_GT(rate1 + rate2, 0.85 * 93.26e9);
}

} // namespace
