// Component tests of the queue pair's rate limiter as the DCQCN generation
// profiles use it: per-packet vs per-burst pacing (Azure NSDI'23 section 7.2,
// spec section 4 "Pacing semantics") and the optional "congestion leaking"
// head-of-line flaw of section 8.3 (RoundRobinQpScheduler::HeadOfLineBlocking).
// A test-local congestion controller holds a fixed rate so that the pacer is
// seen without any feedback loop.
#include "dcqcn-profile.h"
#include "rdma-test-fabric.h"

#include "ns3/boolean.h"
#include "ns3/dcb-net-device.h"
#include "ns3/round-robin-qp-scheduler.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

/** A rate-based controller that keeps the rate and burst it is given. */
class FixedRateCc : public RdmaCongestionOps
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::DcqcnPacingTestFixedRateCc")
                                .SetParent<RdmaCongestionOps>()
                                .SetGroupName("Rdma");
        return tid;
    }

    FixedRateCc(DataRate rate, uint32_t burst)
        : m_fixed(rate)
        , m_burst(burst)
    {
    }

    std::string GetName() const override { return "FixedRate"; }

    Ptr<RdmaCongestionOps> Fork() const override { return Create<FixedRateCc>(m_fixed, m_burst); }

    void Init(RdmaCcState* state) override
    {
        m_state = state;
        m_state->m_rate = m_fixed;
        m_state->m_targetRate = m_fixed;
        m_state->m_pacingBurstBytes = m_burst;
    }

    void SetRate(DataRate rate) { m_state->m_rate = rate; }

    void OnCnp() override {}

    void OnDataSent(uint32_t) override {}

    void OnAck(const RdmaAckSample&) override {}

    bool OnDataReceived(bool) override { return false; }

  private:
    DataRate m_fixed;
    uint32_t m_burst;
    RdmaCcState* m_state{nullptr};
};

class DcqcnPacingTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    void OnTx(Ptr<const Packet> frame) { txTimes.push_back(Simulator::Now()); }

    /**
     * Host 0 writes to host 1 over a 100 Gb/s link, paced at 10 Gb/s with
     * \p burst bytes per burst; records the start of every data frame for 1 ms.
     */
    void RunPaced(uint32_t burst)
    {
        DcbHelper dcb;
        dcb.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
        dcb.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        NodeContainer hosts;
        hosts.Create(2);
        dcb.Install(hosts.Get(0), hosts.Get(1));
        RdmaHelper rdma;
        Ptr<RdmaNic> a = rdma.Install(hosts.Get(0), Ipv4Address("10.0.0.1"));
        Ptr<RdmaNic> b = rdma.Install(hosts.Get(1), Ipv4Address("10.0.0.2"));
        a->SetCongestionControl(Create<FixedRateCc>(DataRate("10Gbps"), burst));
        a->GetDevice()->TraceConnectWithoutContext("PhyTxBegin",
                                                   MakeCallback(&DcqcnPacingTest::OnTx, this));
        auto [qa, qb] = RdmaHelper::Connect(a, b);
        RdmaWorkRequest wr;
        wr.verb = RdmaVerb::Write;
        wr.length = 100000000ULL;
        qa->PostSend(wr);
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        payload = qa->GetCounters().payloadBytesSent;
    }

    std::vector<Time> txTimes;
    uint64_t payload{0};
};

TEST_F(DcqcnPacingTest, PerPacketPacingSpacesEveryPacketAtTheRate)
{
    RunPaced(0);
    ASSERT_GT(txTimes.size(), 100u);
    // A ~1.1 KB frame at 10 Gb/s every ~0.87 us: no two frames back-to-back.
    const Time lineSer = NanoSeconds(100); // > 1.1 KB at 100 Gb/s (88 ns)
    for (std::size_t i = 1; i < txTimes.size(); ++i)
    {
        ASSERT_GT(txTimes[i] - txTimes[i - 1], 5 * lineSer) << "frame " << i;
    }
    // Average payload rate 10 Gb/s x 1024/1110 (wire overhead) within 2 %.
    const double gbps = payload * 8.0 / 1e-3 / 1e9;
    EXPECT_NEAR(gbps, 10.0 * 1024.0 / 1110.0, 0.2);
}

TEST_F(DcqcnPacingTest, PerBurstPacingSendsBurstsAtLineRateThenAGap)
{
    const uint32_t burst = 16384;
    RunPaced(burst);
    ASSERT_GT(txTimes.size(), 100u);
    // Count gaps: back-to-back (line rate, < 100 ns) vs pacing gaps (> 1 us).
    uint32_t backToBack = 0;
    uint32_t gaps = 0;
    for (std::size_t i = 1; i < txTimes.size(); ++i)
    {
        const Time d = txTimes[i] - txTimes[i - 1];
        if (d < NanoSeconds(100))
        {
            ++backToBack;
        }
        else if (d > MicroSeconds(1))
        {
            ++gaps;
        }
    }
    // 16 KB bursts of ~1.1 KB frames: 15 frames, 14 back-to-back gaps and one pause
    // of ~(15 x 1110 B at 10 Gb/s) - burst time = ~13.3 - 1.3 us.
    EXPECT_EQ(backToBack + gaps, txTimes.size() - 1);
    EXPECT_NEAR(static_cast<double>(backToBack) / gaps, 14.0, 0.5);
    // Same average as per-packet pacing.
    const double gbps = payload * 8.0 / 1e-3 / 1e9;
    EXPECT_NEAR(gbps, 10.0 * 1024.0 / 1110.0, 0.2);
}

TEST_F(DcqcnPacingTest, GenerationProfilesSetTheirPacingGranularity)
{
    RdmaCcState state;
    state.m_lineRate = DataRate("40Gbps");
    Ptr<RdmaDcqcn> gen1 = test::DcqcnOfProfile("gen1");
    gen1->Init(&state);
    EXPECT_EQ(state.m_pacingBurstBytes, 16384u);
    Ptr<RdmaDcqcn> fw = test::DcqcnOfProfile("gen2-gen3");
    fw->Init(&state);
    EXPECT_EQ(state.m_pacingBurstBytes, 0u); // Gen2/Gen3: per packet
    fw->ApplyInteropPreset(MicroSeconds(50), 16384);
    fw->Init(&state);
    EXPECT_EQ(state.m_pacingBurstBytes, 16384u);
    fw->Stop();
    gen1->Stop();
}

/**
 * Host 0 writes to hosts 1 and 2 through one switch, one QP each, the first
 * held at 2 Gb/s and the second at 20 Gb/s (no congestion anywhere). Returns
 * the payload goodput of each QP over 2 ms.
 */
std::pair<double, double>
RunTwoRates(bool headOfLineBlocking)
{
    DcbHelper dcb;
    RdmaHelper rdma;
    rdma.SetQpScheduler("ns3::RoundRobinQpScheduler");
    rdma.SetQpSchedulerAttribute("HeadOfLineBlocking", BooleanValue(headOfLineBlocking));
    RdmaLeafSpineFabric f = BuildStar(3, "100Gbps", MicroSeconds(1), dcb, rdma);
    f.GetNics()[0]->SetCongestionControl(Create<FixedRateCc>(DataRate("2Gbps"), 0));
    auto [q1, r1] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[1]);
    auto [q2, r2] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[2]);
    DynamicCast<FixedRateCc>(q2->GetCongestionOps())->SetRate(DataRate("20Gbps"));
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Write;
    wr.length = 100000000ULL;
    q1->PostSend(wr);
    q2->PostSend(wr);
    Simulator::Stop(MilliSeconds(2));
    Simulator::Run();
    const double secs = 2e-3;
    const std::pair<double, double> res{q1->GetCounters().payloadBytesSent * 8.0 / secs / 1e9,
                                        q2->GetCounters().payloadBytesSent * 8.0 / secs / 1e9};
    Simulator::Destroy();
    return res;
}

TEST(DcqcnCongestionLeaking, OffByDefaultEachQpKeepsItsRate)
{
    BooleanValue v;
    CreateObject<RoundRobinQpScheduler>()->GetAttribute("HeadOfLineBlocking", v);
    EXPECT_FALSE(v.Get());
    const auto [slow, fast] = RunTwoRates(false);
    ::testing::Test::RecordProperty("slow_gbps", std::to_string(slow));
    ::testing::Test::RecordProperty("fast_gbps", std::to_string(fast));
    const double share = 1024.0 / 1110.0;
    EXPECT_NEAR(slow, 2.0 * share, 0.1);
    EXPECT_NEAR(fast, 20.0 * share, 0.5);
}

TEST(DcqcnCongestionLeaking, HeadOfLineFlawThrottlesEveryQpToTheSlowest)
{
    const auto [slow, fast] = RunTwoRates(true);
    ::testing::Test::RecordProperty("slow_gbps", std::to_string(slow));
    ::testing::Test::RecordProperty("fast_gbps", std::to_string(fast));
    const double share = 1024.0 / 1110.0;
    // Azure section 8.3: "all the flows from a Gen2 NIC were throttled by the
    // slowest flow": the 20 Gb/s QP falls to the 2 Gb/s QP's rate.
    EXPECT_NEAR(slow, 2.0 * share, 0.1);
    EXPECT_NEAR(fast, slow, 0.1 * slow);
}

} // namespace
} // namespace ns3
