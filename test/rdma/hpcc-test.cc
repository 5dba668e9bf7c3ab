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
#include <memory>
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
    RdmaLeafSpineFabric f = BuildLeafSpine(2, 1, 2, "100Gbps", MicroSeconds(1), dcb, rdma);
    Capture cap;
    // The port of leaf 1 towards h2 (its first port: hosts are installed first).
    f.GetSwitch(1)->GetPort(0)->TraceConnectWithoutContext("PhyTxBegin",
                                                           MakeCallback(&Capture::OnTx, &cap));
    auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[2]);
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
    // The 100 Gb/s marking of the HPCC-simulator setting (bench/README.md).
    dcb.SetEcnMarkerAttribute("Kmin", QueueSizeValue(QueueSize("400KB")));
    dcb.SetEcnMarkerAttribute("Kmax", QueueSizeValue(QueueSize("1600KB")));
    dcb.SetEcnMarkerAttribute("Pmax", DoubleValue(0.2));
    RdmaHelper rdma;
    rdma.SetCongestionControl(cc);
    RdmaLeafSpineFabric f = BuildStar(5, "100Gbps", MicroSeconds(1), dcb, rdma);
    std::vector<Ptr<RdmaQueuePair>> qps;
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Write;
    wr.length = 4000000000ULL;
    for (uint32_t s = 0; s < 4; ++s)
    {
        auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[s], f.GetNics()[4]);
        qa->PostSend(wr);
        qps.push_back(qa);
    }
    Ptr<DcbNetDevice> port = f.GetSwitch(0)->GetPort(4);
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
    RdmaLeafSpineFabric f = BuildStar(3, "100Gbps", MicroSeconds(1), dcb, rdma);
    auto [q1, r1] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[2]);
    auto [q2, r2] = RdmaHelper::Connect(f.GetNics()[1], f.GetNics()[2]);
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

/** Flow 1's rate and the bottleneck queue around a second flow's arrival (a 2 -> 1 star). */
struct JoinResult
{
    double rateBefore{0};     //!< flow 1, bit/s of payload over the 20 us before the join
    double rateAfter{0};      //!< flow 1, bit/s of payload over [join + 5 T, join + 10 T]
    double meanQueue{0};      //!< bytes, sampled every 100 ns over [join + 10 T, join + 50 T]
    double maxQueue{0};       //!< bytes, the same samples' largest
    double meanQueueEarly{0}; //!< bytes, over [join, join + 10 T]: the reaction's transient
};

/**
 * The paper's Fig. 2/9 setting in small: flow 1 runs alone at line rate, flow 2 joins at
 * 300 us; T = the star's base RTT (4 links of 1 us: 4.2 us with serialization).
 */
JoinResult
RunJoin(const std::string& cc, double eta)
{
    const Time t = NanoSeconds(4200);
    Config::SetDefault("ns3::RdmaHpcc::TargetUtilization", DoubleValue(eta));
    Config::SetDefault("ns3::RdmaHpcc::BaseRtt", TimeValue(t));
    DcbHelper dcb;
    dcb.SetEcnMarkerAttribute("Kmin", QueueSizeValue(QueueSize("400KB")));
    dcb.SetEcnMarkerAttribute("Kmax", QueueSizeValue(QueueSize("1600KB")));
    dcb.SetEcnMarkerAttribute("Pmax", DoubleValue(0.2));
    RdmaHelper rdma;
    rdma.SetCongestionControl(cc);
    RdmaLeafSpineFabric f = BuildStar(3, "100Gbps", MicroSeconds(1), dcb, rdma);
    auto [q1, r1] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[2]);
    auto [q2, r2] = RdmaHelper::Connect(f.GetNics()[1], f.GetNics()[2]);
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Write;
    wr.length = 4000000000ULL;
    q1->PostSend(wr);
    const Time join = MicroSeconds(300);
    Simulator::Schedule(join, &RdmaQueuePair::PostSend, q2, wr);
    JoinResult r;
    auto sent = [q = q1]() { return q->GetCounters().payloadBytesSent; };
    auto rate = [&sent](Time from, Time to, double& out)
    {
        auto at = std::make_shared<uint64_t>(0);
        Simulator::Schedule(from, [at, &sent]() { *at = sent(); });
        Simulator::Schedule(to, [at, &sent, &out, from, to]()
                            { out = (sent() - *at) * 8.0 / (to - from).GetSeconds(); });
    };
    rate(join - MicroSeconds(20), join, r.rateBefore);
    rate(join + 5 * t, join + 10 * t, r.rateAfter);
    Ptr<DcbNetDevice> port = f.GetSwitch(0)->GetPort(2);
    double early = 0;
    uint64_t nEarly = 0;
    double late = 0;
    uint64_t nLate = 0;
    for (Time at = join; at < join + 50 * t; at += NanoSeconds(100))
    {
        Simulator::Schedule(at,
                            [&, at]()
                            {
                                uint64_t q = 0;
                                for (uint8_t c = 0; c < 8; ++c)
                                {
                                    q += port->GetQueueBytes(c);
                                }
                                if (at < join + 10 * t)
                                {
                                    early += static_cast<double>(q);
                                    nEarly++;
                                }
                                else
                                {
                                    late += static_cast<double>(q);
                                    nLate++;
                                    r.maxQueue = std::max(r.maxQueue, static_cast<double>(q));
                                }
                            });
    }
    Simulator::Stop(join + 50 * t + NanoSeconds(1));
    Simulator::Run();
    Simulator::Destroy();
    Config::Reset();
    r.meanQueueEarly = nEarly ? early / nEarly : 0;
    r.meanQueue = nLate ? late / nLate : 0;
    return r;
}

TEST_F(HpccTest, FirstFlowHalvesWithinAFewRttsAndTheQueueStaysNearZero)
{
    // HPCC (SIGCOMM'19) Fig. 2/9: a flow joining a long one; INT tells the first flow the
    // link is at 2x its capacity on the first ACK after the join, so its window W_c/(U/eta)
    // falls to about half at once (DCQCN needs the queue to pass Kmin first).
    const JoinResult hpcc = RunJoin("ns3::RdmaHpcc", 0.95);
    const JoinResult overTarget = RunJoin("ns3::RdmaHpcc", 1.5);
    const JoinResult dcqcn = RunJoin("ns3::RdmaDcqcn", 0.95);
    for (const auto& [name, r] : {std::pair<const char*, const JoinResult&>{"HPCC", hpcc},
                                  {"HPCC eta=1.5", overTarget},
                                  {"DCQCN", dcqcn}})
    {
        std::cout << name << " join: flow 1 " << r.rateBefore / 1e9 << " -> " << r.rateAfter / 1e9
                  << " Gb/s (5-10 T after); queue " << r.meanQueueEarly << " B (0-10 T), "
                  << r.meanQueue << " B mean / " << r.maxQueue << " B max (10-50 T)" << std::endl;
    }
    const double line = 93.26e9; // payload share 1024/1098 of 100 Gb/s
    // Flow 1 near eta of line rate before the join ...
    EXPECT_GT(hpcc.rateBefore, 0.85 * line);
    // ... about half (eta/2 of the link) between 5 and 10 base RTTs after it ...
    EXPECT_GT(hpcc.rateAfter, 0.35 * line);
    EXPECT_LT(hpcc.rateAfter, 0.65 * line);
    // ... and the queue near zero from 10 base RTTs on: under ten MTUs on average, under
    // one BDP (52 KB) at any sample.
    EXPECT_LT(hpcc.meanQueue, 10000.0);
    EXPECT_LT(hpcc.maxQueue, 52500.0);
    // Controls that fail the bounds: a target above line rate keeps a standing queue ...
    EXPECT_GT(overTarget.meanQueue, 10000.0);
    // ... and DCQCN, without INT, has not made room yet 5-10 RTTs after the join.
    EXPECT_GT(dcqcn.rateAfter, 0.65 * line);
}

} // namespace
