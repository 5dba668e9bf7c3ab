// Example: a new congestion control. An RdmaCongestionOps subclass works on the queue
// pair's RdmaCcState (here it sets a quarter of the line rate and ignores congestion); a
// NIC forks it for every queue pair it creates. doc/architecture.md points here.
#include "ns3/dcb-helper.h"
#include "ns3/rdma-helper.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

namespace ns3
{
namespace
{

/** Sends at a quarter of the line rate; no reaction to CNPs, ACKs or marks. */
class QuarterRateCc : public RdmaCongestionOps
{
  public:
    std::string GetName() const override { return "QuarterRate"; }
    Ptr<RdmaCongestionOps> Fork() const override { return Create<QuarterRateCc>(); }

    void Init(RdmaCcState* state) override
    {
        state->m_rate = DataRate(state->m_lineRate.GetBitRate() / 4);
    }

    void OnCnp() override {}
    void OnDataSent(uint32_t /* bytes */) override {}
    void OnAck(const RdmaAckSample& /* ack */) override {}
    bool OnDataReceived(bool /* ceMarked */) override { return false; }
};

TEST(ExampleCongestionControl, TheNicPacesTheQueuePairAtTheRateTheAlgorithmSets)
{
    DcbHelper dcb;
    dcb.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
    NodeContainer hosts;
    hosts.Create(2);
    dcb.Install(hosts.Get(0), hosts.Get(1));
    RdmaHelper rdma;
    Ptr<RdmaNic> a = rdma.Install(hosts.Get(0), Ipv4Address("10.0.0.1"));
    Ptr<RdmaNic> b = rdma.Install(hosts.Get(1), Ipv4Address("10.0.0.2"));
    a->SetCongestionControl(Create<QuarterRateCc>());
    auto [qa, qb] = RdmaHelper::Connect(a, b);
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Write;
    wr.length = 100000000ULL;
    qa->PostSend(wr);
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    EXPECT_EQ(qa->GetCongestionOps()->GetName(), "QuarterRate");
    // 25 Gb/s of frames, of which 1024 B payload per 1110 B frame, within 2 %.
    EXPECT_NEAR(qa->GetCounters().payloadBytesSent * 8.0 / 1e-3 / 1e9, 25.0 * 1024 / 1110, 0.5);
    Simulator::Destroy();
}

} // namespace
} // namespace ns3
