// RC transport on small fabrics: verbs, go-back-N recovery, timeouts.
#include "rdma-test-psn-drop.h"
#include "two-host-transfer-test.h"

#include "ns3/error-model.h"
#include "ns3/ethernet-vlan-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/pointer.h"
#include "ns3/roce-bth-header.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <map>
#include <vector>

using namespace ns3;

namespace
{

class RdmaTransportTest : public TwoHostTransferTest
{
  protected:
    void SetUp() override
    {
        rdma.SetCongestionControl("ns3::RdmaNoCongestionControl");
        rdma.SetLossRecoveryAttribute("AckTimeoutExponent", UintegerValue(8)); // 1.05 ms
    }

    /** The two hosts, with the PSN of every data packet host 0 sends in \c sentPsns. */
    RdmaLeafSpineFabric TwoHosts()
    {
        RdmaLeafSpineFabric f = TwoHostTransferTest::TwoHosts();
        f.GetNics()[0]->GetDevice()->TraceConnectWithoutContext(
            "PhyTxBegin", MakeCallback(&RdmaTransportTest::OnTx, this));
        return f;
    }

    std::vector<uint32_t> sentPsns;

  private:
    void OnTx(Ptr<const Packet> frame)
    {
        RoceBthHeader bth;
        if (PeekBth(frame, bth) && IsDataPacket(bth))
        {
            sentPsns.push_back(bth.GetPsn());
        }
    }
};

TEST_F(RdmaTransportTest, WriteSegmentsAtMtuAndCompletes)
{
    RdmaLeafSpineFabric f = TwoHosts();
    auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[1]);
    RdmaWorkRequest wr;
    wr.wrId = 7;
    wr.verb = RdmaVerb::Write;
    wr.length = 10000;
    wr.remoteAddr = 0x10000;
    qa->PostSend(wr);
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_EQ(completions[0].wrId, 7u);
    EXPECT_EQ(completions[0].status, RdmaWcStatus::Success);
    EXPECT_EQ(qa->GetCounters().dataPacketsSent, 10u); // ceil(10000 / 1024)
    EXPECT_EQ(qa->GetCounters().retransmittedPackets, 0u);
    ExpectEveryByteOnce(0x10000, 10000);
}

TEST_F(RdmaTransportTest, SendConsumesPostedReceiveAndWaitsWithoutOne)
{
    RdmaLeafSpineFabric f = TwoHosts();
    auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[1]);
    RdmaWorkRequest wr;
    wr.wrId = 1;
    wr.verb = RdmaVerb::Send;
    wr.length = 3000;
    qa->PostSend(wr);
    // No receive posted yet: RNR NAKs until the receive arrives at 50 us.
    RdmaRecvRequest rr;
    rr.wrId = 99;
    rr.length = 4096;
    Simulator::Schedule(MicroSeconds(50), &RdmaQueuePair::PostRecv, qb, rr);
    Simulator::Run();
    ASSERT_EQ(completions.size(), 2u);
    const RdmaCompletion& recv = completions[0].receive ? completions[0] : completions[1];
    const RdmaCompletion& send = completions[0].receive ? completions[1] : completions[0];
    EXPECT_EQ(recv.wrId, 99u);
    EXPECT_EQ(recv.bytes, 3000u);
    EXPECT_EQ(send.wrId, 1u);
    EXPECT_GT(send.completionTime, MicroSeconds(50));
    EXPECT_GT(qa->GetCounters().naksReceived, 0u);
}

TEST_F(RdmaTransportTest, ReadReturnsResponsesAndCompletes)
{
    RdmaLeafSpineFabric f = TwoHosts();
    auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[1]);
    RdmaWorkRequest wr;
    wr.wrId = 5;
    wr.verb = RdmaVerb::Read;
    wr.length = 50000;
    wr.localAddr = 0x2000;
    qa->PostSend(wr);
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_EQ(completions[0].verb, RdmaVerb::Read);
    EXPECT_EQ(completions[0].status, RdmaWcStatus::Success);
    EXPECT_EQ(qb->GetCounters().dataPacketsSent, 49u); // responses: ceil(50000 / 1024)
    ExpectEveryByteOnce(0x2000, 50000);
}

TEST_F(RdmaTransportTest, GoBackNResendsEverythingInFlightAfterTheLoss)
{
    RdmaLeafSpineFabric f = TwoHosts();
    const uint32_t k = 20;
    f.GetNics()[1]->GetDevice()->SetAttribute("ReceiveErrorModel",
                                              PointerValue(Create<PsnDropModel>(k, 1)));
    auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[1]);
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Write;
    wr.length = 200 * 1024;
    qa->PostSend(wr);
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_EQ(completions[0].status, RdmaWcStatus::Success);
    ExpectEveryByteOnce(0, 200 * 1024);
    // The sender went back to k when the NAK arrived: every packet sent from k up to
    // the highest PSN sent by then is sent again.
    std::size_t resend = 0;
    while (resend < sentPsns.size() && !(sentPsns[resend] == k && resend > k))
    {
        resend++;
    }
    ASSERT_LT(resend, sentPsns.size());
    uint32_t highestBefore = 0;
    for (std::size_t i = 0; i < resend; ++i)
    {
        highestBefore = std::max(highestBefore, sentPsns[i]);
    }
    const uint64_t inFlightFromK = highestBefore - k + 1;
    EXPECT_GT(inFlightFromK, 10u); // a 2 x 1 us RTT at 100 Gb/s holds ~ 25 packets
    EXPECT_EQ(qa->GetCounters().retransmittedPackets, inFlightFromK);
    EXPECT_EQ(qa->GetCounters().naksReceived, 1u);
    EXPECT_EQ(qb->GetCounters().naksSent, 1u);
    EXPECT_EQ(qa->GetCounters().timeouts, 0u);
}

TEST_F(RdmaTransportTest, TailLossRecoveredByTimeout)
{
    RdmaLeafSpineFabric f = TwoHosts();
    f.GetNics()[1]->GetDevice()->SetAttribute("ReceiveErrorModel",
                                              PointerValue(Create<PsnDropModel>(9, 1)));
    auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[1]);
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Write;
    wr.length = 10 * 1024; // PSN 9 is the last packet: no later packet reveals the gap
    qa->PostSend(wr);
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_EQ(completions[0].status, RdmaWcStatus::Success);
    EXPECT_EQ(qa->GetCounters().timeouts, 1u);
    // 4.096 us x 2^8 = 1.048576 ms
    EXPECT_GT(completions[0].completionTime, NanoSeconds(1048576));
    ExpectEveryByteOnce(0, 10 * 1024);
}

TEST_F(RdmaTransportTest, ReadResponseLossIsReRequested)
{
    RdmaLeafSpineFabric f = TwoHosts();
    // Requester side drops response PSN 5 once.
    f.GetNics()[0]->GetDevice()->SetAttribute("ReceiveErrorModel",
                                              PointerValue(Create<PsnDropModel>(5, 1)));
    auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[1]);
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Read;
    wr.length = 40 * 1024;
    qa->PostSend(wr);
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_EQ(completions[0].status, RdmaWcStatus::Success);
    ExpectEveryByteOnce(0, 40 * 1024);
    EXPECT_GT(qb->GetCounters().dataPacketsSent, 40u);
    // Every response sent again counts as a retransmission at the responder.
    EXPECT_EQ(qb->GetCounters().retransmittedPackets, qb->GetCounters().dataPacketsSent - 40);
    EXPECT_GT(qb->GetCounters().retransmittedPackets, 0u);
}

TEST_F(RdmaTransportTest, RetryExceededFailsTheQp)
{
    RdmaLeafSpineFabric f = TwoHosts();
    f.GetNics()[1]->GetDevice()->SetAttribute("ReceiveErrorModel",
                                              PointerValue(Create<PsnDropModel>(0, 100)));
    auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[1]);
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Write;
    wr.length = 1000;
    qa->PostSend(wr);
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_EQ(completions[0].status, RdmaWcStatus::RetryExceeded);
    EXPECT_EQ(qa->GetCounters().timeouts, 8u); // 7 retries, then failure
    EXPECT_TRUE(qa->IsInError());
}

} // namespace
