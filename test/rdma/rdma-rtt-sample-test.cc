// NIC-timestamped RTT samples: the per-PSN timestamp ring, and the sample an ACK
// carries end to end (RTT of the newest PSN it covers, hops from the TTL decrement).
#include "fake-qp-owner.h"
#include "rdma-test-fabric.h"

#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-go-back-n.h"
#include "ns3/rdma-requester.h"
#include "ns3/rdma-tx-timestamp-ring.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <limits>
#include <vector>

using namespace ns3;

namespace
{

TEST(RdmaTxTimestampRing, RecordsLooksUpAndForgetsReusedSlots)
{
    RdmaTxTimestampRing ring;
    Time t;
    EXPECT_FALSE(ring.Lookup(0, t));
    EXPECT_EQ(ring.GetSlots(), 0u); // lazily allocated
    ring.SetMaxSlots(128);
    ring.Record(5, 5, MicroSeconds(1));
    EXPECT_EQ(ring.GetSlots(), 64u);
    ASSERT_TRUE(ring.Lookup(5, t));
    EXPECT_EQ(t, MicroSeconds(1));
    EXPECT_FALSE(ring.Lookup(4, t));
    EXPECT_FALSE(ring.Lookup(5 + 64, t)); // same slot, other PSN
    // A retransmission overwrites the timestamp.
    ring.Record(5, 5, MicroSeconds(3));
    ASSERT_TRUE(ring.Lookup(5, t));
    EXPECT_EQ(t, MicroSeconds(3));
}

TEST(RdmaTxTimestampRing, GrowsWithPsnsInFlightUpToTheCap)
{
    RdmaTxTimestampRing ring;
    ring.SetMaxSlots(100);
    for (uint64_t psn = 0; psn < 90; ++psn)
    {
        ring.Record(psn, 0, MicroSeconds(psn));
    }
    EXPECT_EQ(ring.GetSlots(), 100u); // 64 -> 128, capped at 100
    Time t;
    for (uint64_t psn = 0; psn < 90; ++psn)
    {
        ASSERT_TRUE(ring.Lookup(psn, t)) << psn;
        EXPECT_EQ(t, MicroSeconds(psn));
    }
    // With everything acknowledged, a later PSN reuses slots without growing.
    for (uint64_t psn = 90; psn < 1000; ++psn)
    {
        ring.Record(psn, psn, MicroSeconds(psn));
    }
    EXPECT_EQ(ring.GetSlots(), 100u);
    ASSERT_TRUE(ring.Lookup(999, t));
    EXPECT_FALSE(ring.Lookup(899, t));
}

/** Records every ACK sample it is given. */
class SampleRecorderCc : public RdmaCongestionOps
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::RttSampleTestRecorderCc")
                                .SetParent<RdmaCongestionOps>()
                                .SetGroupName("Rdma");
        return tid;
    }

    SampleRecorderCc(std::vector<RdmaAckSample>* out, bool wantsSamples)
        : m_out(out)
        , m_wantsSamples(wantsSamples)
    {
    }

    std::string GetName() const override { return "SampleRecorder"; }

    Ptr<RdmaCongestionOps> Fork() const override
    {
        return Create<SampleRecorderCc>(m_out, m_wantsSamples);
    }

    void Init(RdmaCcState* state) override
    {
        state->m_rate = state->m_lineRate;
        state->m_window = std::numeric_limits<uint64_t>::max();
    }

    void OnCnp() override {}

    void OnDataSent(uint32_t) override {}

    void OnAck(const RdmaAckSample& ack) override { m_out->push_back(ack); }

    bool OnDataReceived(bool) override { return false; }

    bool WantsRttSamples() const override { return m_wantsSamples; }

  private:
    std::vector<RdmaAckSample>* m_out;
    bool m_wantsSamples;
};

/** The requester alone (fake owner, no network): which PSN a sample is measured from. */
class RequesterRttTest : public ::testing::Test
{
  public:
    void SetUp() override
    {
        requester.Setup(owner.RequesterConfig(1000, Create<SampleRecorderCc>(&samples, true),
                                              CreateObject<RdmaGoBackN>(), &counters));
        requester.SetRemoteQpn(0x200);
        RdmaWorkRequest wr;
        wr.verb = RdmaVerb::Write;
        wr.length = 3000; // PSNs 0, 1, 2
        requester.PostSend(wr);
    }

    void TearDown() override
    {
        requester.Dispose();
        Simulator::Destroy();
    }

    void SendOne() { ASSERT_TRUE(requester.BuildRequestPacket()); }

    void Ack(uint64_t psn, uint8_t hops)
    {
        RoceAethHeader aeth;
        aeth.SetAck();
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(aeth);
        RoceBthHeader bth;
        bth.SetOpcode(RoceOpcode::Acknowledge);
        bth.SetPsn(RoceBthHeader::WirePsn(psn));
        requester.ReceiveAcknowledge(bth, p, hops);
    }

    void Nak(uint64_t psn)
    {
        RoceAethHeader aeth;
        aeth.SetNak(RoceNakCode::PsnSequenceError);
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(aeth);
        RoceBthHeader bth;
        bth.SetOpcode(RoceOpcode::Acknowledge);
        bth.SetPsn(RoceBthHeader::WirePsn(psn));
        requester.ReceiveAcknowledge(bth, p, 0);
    }

    FakeQpOwner owner;
    RdmaQpCounters counters;
    RdmaRequester requester;
    std::vector<RdmaAckSample> samples;
};

TEST_F(RequesterRttTest, SampleRunsFromTheNewestAcknowledgedPsnsTransmission)
{
    // PSN 0 at 1 us, PSN 1 at 2 us, PSN 2 at 4 us; a cumulative ACK of PSN 1 at 10 us and
    // of PSN 2 at 11 us.
    Simulator::Schedule(MicroSeconds(1), &RequesterRttTest::SendOne, this);
    Simulator::Schedule(MicroSeconds(2), &RequesterRttTest::SendOne, this);
    Simulator::Schedule(MicroSeconds(4), &RequesterRttTest::SendOne, this);
    Simulator::Schedule(MicroSeconds(10), &RequesterRttTest::Ack, this, 1, 3);
    Simulator::Schedule(MicroSeconds(11), &RequesterRttTest::Ack, this, 2, 3);
    Simulator::Run();
    ASSERT_EQ(samples.size(), 2u);
    EXPECT_EQ(samples[0].ackedBytes, 2000u);
    EXPECT_EQ(samples[0].rtt, MicroSeconds(8)); // from PSN 1, not PSN 0
    EXPECT_EQ(samples[0].hops, 3u);
    EXPECT_EQ(samples[1].ackedBytes, 1000u);
    EXPECT_EQ(samples[1].rtt, MicroSeconds(7));
}

// Karn's rule: after a go-back to PSN 1 (a NAK), the resend of PSN 1 makes the responder
// acknowledge up to its expected PSN, 2, which was sent once, long before: its send time
// says nothing of the RTT. Before the rule a go-back-N/Swift QP took such a sample (8 ms
// for a 5 us path after a few timeouts) and paced itself to a packet every few seconds.
// Without the rule's test (psn >= m_rttSampleFrom) it fails: a 102 us sample.
TEST_F(RequesterRttTest, NoSampleFromAPsnSentBeforeARetransmission)
{
    Simulator::Schedule(MicroSeconds(1), &RequesterRttTest::SendOne, this);
    Simulator::Schedule(MicroSeconds(2), &RequesterRttTest::SendOne, this);
    Simulator::Schedule(MicroSeconds(4), &RequesterRttTest::SendOne, this);
    Simulator::Schedule(MicroSeconds(10), &RequesterRttTest::Ack, this, 0, 3);
    // Stopped well before the retransmission timer, which would otherwise fire until the
    // retry limit fails the QP (nothing here answers the resends).
    Simulator::Stop(MicroSeconds(50));
    Simulator::Run();
    ASSERT_EQ(samples.size(), 1u);
    EXPECT_EQ(samples[0].rtt, MicroSeconds(9));
    // A go-back to PSN 1 (a NAK at 100 us), PSN 1 resent at 101 us, an ACK of PSN 2 at
    // 106 us: it may answer the resend or PSN 2's first send, so it gives no sample.
    Simulator::Schedule(MicroSeconds(50), &RequesterRttTest::Nak, this, 1);
    Simulator::Schedule(MicroSeconds(51), &RequesterRttTest::SendOne, this);
    Simulator::Schedule(MicroSeconds(56), &RequesterRttTest::Ack, this, 2, 3);
    Simulator::Stop(MicroSeconds(60));
    Simulator::Run();
    ASSERT_EQ(samples.size(), 2u);
    EXPECT_EQ(samples[1].ackedBytes, 2000u);
    EXPECT_FALSE(samples[1].HasRtt())
        << "a sample of " << samples[1].rtt.As(Time::US) << " from PSN 2's first send";
}

class RdmaRttSampleTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /**
     * host 0 -> switch -> host 1, 100 Gb/s, 1 us per link: one WRITE of \p length bytes
     * from a congestion control that asks for RTT samples or not (\p wantsRtt).
     * \return what each ACK handed to the congestion control
     */
    static std::vector<RdmaAckSample> OneWrite(uint64_t length, bool wantsRtt)
    {
        DcbHelper dcb;
        RdmaHelper rdma;
        RdmaLeafSpineFabric f = BuildStar(2, "100Gbps", MicroSeconds(1), dcb, rdma);
        std::vector<RdmaAckSample> samples;
        f.GetNics()[0]->SetCongestionControl(Create<SampleRecorderCc>(&samples, wantsRtt));
        auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[1]);
        RdmaWorkRequest wr;
        wr.verb = RdmaVerb::Write;
        wr.length = length;
        qa->PostSend(wr);
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        return samples;
    }
};

TEST_F(RdmaRttSampleTest, IdleRttIsPropagationPlusSerialisationAndHopsComeFromTtl)
{
    const std::vector<RdmaAckSample> samples = OneWrite(1024, true);
    ASSERT_EQ(samples.size(), 1u);
    const RdmaAckSample& s = samples[0];
    EXPECT_EQ(s.ackedBytes, 1024u);
    EXPECT_EQ(s.hops, 1u); // one switch decremented the ACK's TTL
    // 4 x 1 us propagation; the data frame (1024 + 12 BTH + 16 RETH + 50 B) serialised
    // twice at 100 Gb/s (88.4 ns each) and the ACK (12 + 4 + 50 B) twice (5.3 ns each).
    const double expectedNs = 4000 + 2 * (1102 * 8 / 100.0) + 2 * (66 * 8 / 100.0);
    EXPECT_NEAR(s.rtt.GetNanoSeconds(), expectedNs, 20.0);
    RecordProperty("rtt_ns", std::to_string(s.rtt.GetNanoSeconds()));
}

TEST_F(RdmaRttSampleTest, AlgorithmsThatDoNotAskGetNoSample)
{
    // DCQCN and DCTCP keep no timestamps: their ACKs carry rtt == 0.
    const std::vector<RdmaAckSample> samples = OneWrite(4096, false);
    ASSERT_FALSE(samples.empty());
    for (const auto& s : samples)
    {
        EXPECT_FALSE(s.HasRtt());
    }
}

} // namespace
