// Unit tests of RdmaRequester with no NIC and no network: a FakeQpOwner records what it
// reports, the tests build the packets it sends and hand it the ACKs, NAKs and READ
// responses a responder would send.
#include "fake-qp-owner.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/rdma-go-back-n.h"
#include "ns3/rdma-no-congestion-control.h"
#include "ns3/rdma-requester.h"
#include "ns3/rdma-selective-repeat.h"
#include "ns3/roce-reth-header.h"
#include "ns3/roce-sack-header.h"
#include "ns3/roce-srnic-ext-header.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <vector>

namespace ns3
{
namespace
{

constexpr uint32_t MTU = 1024;

/** One request packet the requester built, decoded. */
struct Sent
{
    RoceBthHeader bth;
    uint32_t payload; //!< bytes after the BTH and its extension headers
    RoceRethHeader reth;
};

class RdmaRequesterTest : public ::testing::Test
{
  public:
    void TearDown() override
    {
        m_requester.Dispose();
        Simulator::Destroy();
    }

    /** Set the requester up with go-back-N (\p lossRecovery) and no congestion control. */
    void Setup(Ptr<RdmaLossRecovery> lossRecovery = CreateObject<RdmaGoBackN>(),
               bool srnicExtensions = false)
    {
        RdmaRequester::Config config = m_owner.RequesterConfig(
            MTU, CreateObject<RdmaNoCongestionControl>(), lossRecovery, &m_counters);
        config.srnicExtensions = srnicExtensions;
        m_requester.Setup(config);
        m_requester.SetRemoteQpn(0x200);
    }

    void Post(uint64_t wrId, RdmaVerb verb, uint64_t length)
    {
        RdmaWorkRequest wr;
        wr.wrId = wrId;
        wr.verb = verb;
        wr.length = length;
        wr.localAddr = 0x1000;
        wr.remoteAddr = 0x8000;
        wr.rkey = 7;
        m_requester.PostSend(wr);
    }

    /** Build every packet the requester may send now. */
    std::vector<Sent> SendAll()
    {
        std::vector<Sent> sent;
        while (Ptr<Packet> p = m_requester.BuildRequestPacket())
        {
            Sent s;
            p->RemoveHeader(s.bth);
            const RoceOpcode op = s.bth.GetOpcode();
            if (RoceBthHeader::HasReth(op) || op == RoceOpcode::ReadRequest)
            {
                p->RemoveHeader(s.reth);
            }
            s.payload = p->GetSize();
            sent.push_back(s);
        }
        return sent;
    }

    /** Hand the requester an ACK (\p nak: a PSN-sequence-error NAK) for \p psn. */
    void Acknowledge(uint64_t psn, bool nak = false, bool rnr = false)
    {
        RoceAethHeader aeth;
        if (rnr)
        {
            aeth.SetRnrNak(1);
        }
        else if (nak)
        {
            aeth.SetNak(RoceNakCode::PsnSequenceError);
        }
        else
        {
            aeth.SetAck();
        }
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(aeth);
        RoceBthHeader bth;
        bth.SetOpcode(RoceOpcode::Acknowledge);
        bth.SetPsn(RoceBthHeader::WirePsn(psn));
        m_requester.ReceiveAcknowledge(bth, p);
    }

    /** Hand the requester a PSN-sequence-error NAK at \p psn whose SACK names \p sack. */
    void SackNak(uint64_t psn, uint64_t sack)
    {
        RoceSackHeader sh;
        sh.SetSackPsn(RoceBthHeader::WirePsn(sack));
        RoceAethHeader aeth;
        aeth.SetNak(RoceNakCode::PsnSequenceError);
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(sh);
        p->AddHeader(aeth);
        RoceBthHeader bth;
        bth.SetOpcode(RoceOpcode::Acknowledge);
        bth.SetPsn(RoceBthHeader::WirePsn(psn));
        m_requester.ReceiveAcknowledge(bth, p);
    }

    /** Hand the requester READ response \p index of \p count at \p psn. */
    void Respond(uint64_t psn, uint32_t index, uint32_t count, uint32_t payload)
    {
        const bool first = index == 0;
        const bool last = index + 1 == count;
        const RoceOpcode op =
            first ? (last ? RoceOpcode::ReadResponseOnly : RoceOpcode::ReadResponseFirst)
                  : (last ? RoceOpcode::ReadResponseLast : RoceOpcode::ReadResponseMiddle);
        Ptr<Packet> p = Create<Packet>(payload);
        if (RoceBthHeader::HasAeth(op))
        {
            RoceAethHeader aeth;
            aeth.SetAck();
            p->AddHeader(aeth);
        }
        RoceBthHeader bth;
        bth.SetOpcode(op);
        bth.SetPsn(RoceBthHeader::WirePsn(psn));
        m_requester.ReceiveReadResponse(bth, p);
    }

    FakeQpOwner m_owner;
    RdmaQpCounters m_counters;
    RdmaRequester m_requester;
};

TEST_F(RdmaRequesterTest, SegmentsAtTheMtuWithConsecutivePsns)
{
    Setup();
    Post(1, RdmaVerb::Write, 2500);
    Post(2, RdmaVerb::Send, 100);
    EXPECT_EQ(m_owner.txNotifications, 2u);
    EXPECT_EQ(m_requester.GetOutstandingWorkRequests(), 2u);
    const std::vector<Sent> sent = SendAll();
    ASSERT_EQ(sent.size(), 4u);
    const RoceOpcode ops[] = {RoceOpcode::WriteFirst, RoceOpcode::WriteMiddle,
                              RoceOpcode::WriteLast, RoceOpcode::SendOnly};
    const uint32_t payloads[] = {1024, 1024, 452, 100};
    for (uint32_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(sent[i].bth.GetPsn(), i);
        EXPECT_EQ(sent[i].bth.GetDestQp(), 0x200u);
        EXPECT_EQ(sent[i].bth.GetOpcode(), ops[i]);
        EXPECT_EQ(sent[i].payload, payloads[i]);
        // An ACK is asked for at each message end.
        EXPECT_EQ(sent[i].bth.GetAckRequest(), i == 2 || i == 3);
    }
    EXPECT_EQ(sent[0].reth.GetVirtualAddress(), 0x8000u);
    EXPECT_EQ(sent[0].reth.GetDmaLength(), 2500u);
    EXPECT_EQ(m_counters.dataPacketsSent, 4u);
    EXPECT_EQ(m_counters.payloadBytesSent, 2600u);
    EXPECT_EQ(m_counters.retransmittedPackets, 0u);
    EXPECT_FALSE(m_requester.HasTxWork());
}

TEST_F(RdmaRequesterTest, CumulativeAckCompletesWorkRequestsInOrder)
{
    Setup();
    Post(1, RdmaVerb::Write, 2048);
    Post(2, RdmaVerb::Write, 2048);
    ASSERT_EQ(SendAll().size(), 4u);
    Acknowledge(0); // mid-message: nothing completes
    EXPECT_TRUE(m_owner.completions.empty());
    Acknowledge(1);
    ASSERT_EQ(m_owner.completions.size(), 1u);
    EXPECT_EQ(m_owner.completions[0].wrId, 1u);
    EXPECT_EQ(m_owner.completions[0].status, RdmaWcStatus::Success);
    EXPECT_EQ(m_owner.completions[0].bytes, 2048u);
    EXPECT_FALSE(m_owner.completions[0].receive);
    Acknowledge(3);
    ASSERT_EQ(m_owner.completions.size(), 2u);
    EXPECT_EQ(m_owner.completions[1].wrId, 2u);
    EXPECT_EQ(m_requester.GetOutstandingWorkRequests(), 0u);
    EXPECT_EQ(m_requester.GetSequence().una, 4u);
}

TEST_F(RdmaRequesterTest, SequenceNakGoesBackToTheNakedPsn)
{
    Setup();
    Post(1, RdmaVerb::Write, 4 * MTU);
    ASSERT_EQ(SendAll().size(), 4u);
    Acknowledge(2, true); // PSN 2 lost: 0 and 1 arrived
    EXPECT_EQ(m_counters.naksReceived, 1u);
    EXPECT_EQ(m_requester.GetSequence().una, 2u);
    const std::vector<Sent> resent = SendAll();
    ASSERT_EQ(resent.size(), 2u); // go-back-N: 2 and 3 again
    EXPECT_EQ(resent[0].bth.GetPsn(), 2u);
    EXPECT_EQ(resent[1].bth.GetPsn(), 3u);
    EXPECT_EQ(m_counters.retransmittedPackets, 2u);
    Acknowledge(3);
    ASSERT_EQ(m_owner.completions.size(), 1u);
    EXPECT_EQ(m_owner.completions[0].status, RdmaWcStatus::Success);
}

// A NAK held for NakReactionTime whose gap is filled meanwhile: the NAK'd packet was
// overtaken, not lost (per-packet path entropy), and ACKs move una past the NAK'd PSN
// before the rewind. The responder dropped what arrived between the NAK and that packet
// and NAKs a gap once, so the rewind must still go back, to una. Before, it was taken as
// stale and nothing was resent: the dropped packets waited for the retransmission timeout
// (67 ms, the IBTA default of the CX-6 profile the sim fuzzer uses), and two flows of
// sim-fuzz seed 777011296 (a ring, oblivious NIC entropy) took more than 2 s, ideal 0.9 ms.
TEST_F(RdmaRequesterTest, GoBackNRewindsToUnaWhenTheNakedGapFilledBeforeTheRewind)
{
    Ptr<RdmaGoBackN> gbn = CreateObject<RdmaGoBackN>();
    gbn->SetAttribute("NakReactionTime", TimeValue(MicroSeconds(24)));
    Setup(gbn);
    Post(1, RdmaVerb::Write, 8 * MTU);
    ASSERT_EQ(SendAll().size(), 8u);
    Acknowledge(5, true); // 6 arrived before 5: NAK 5, then 6 and 7 dropped
    Acknowledge(5);       // 5 arrived after all: accepted
    EXPECT_EQ(m_requester.GetSequence().una, 6u);
    EXPECT_TRUE(SendAll().empty()); // the NAK waits for its reaction time
    Simulator::Stop(MicroSeconds(25));
    Simulator::Run();
    const std::vector<Sent> resent = SendAll();
    ASSERT_EQ(resent.size(), 2u);
    EXPECT_EQ(resent[0].bth.GetPsn(), 6u);
    EXPECT_EQ(resent[1].bth.GetPsn(), 7u);
    EXPECT_EQ(m_counters.timeouts, 0u);
    Acknowledge(7);
    ASSERT_EQ(m_owner.completions.size(), 1u);
    EXPECT_EQ(m_owner.completions[0].status, RdmaWcStatus::Success);
}

TEST_F(RdmaRequesterTest, RnrNakWaitsForTheRnrTimerThenResends)
{
    Setup();
    Post(1, RdmaVerb::Send, 100);
    ASSERT_EQ(SendAll().size(), 1u);
    Acknowledge(0, false, true);
    EXPECT_FALSE(m_requester.HasTxWork()); // waiting out the RNR timer
    Simulator::Stop(MicroSeconds(11));
    Simulator::Run();
    const std::vector<Sent> resent = SendAll();
    ASSERT_EQ(resent.size(), 1u);
    EXPECT_EQ(resent[0].bth.GetPsn(), 0u);
}

TEST_F(RdmaRequesterTest, TimeoutResendsThenFlushesAfterTheRetryLimit)
{
    Ptr<RdmaGoBackN> gbn = CreateObject<RdmaGoBackN>();
    gbn->SetAttribute("AckTimeoutExponent", UintegerValue(1)); // 8.192 us
    gbn->SetAttribute("RetryCount", UintegerValue(2));
    Setup(gbn);
    Post(1, RdmaVerb::Write, 2 * MTU);
    Post(2, RdmaVerb::Send, 10);
    ASSERT_EQ(SendAll().size(), 3u);
    Simulator::Stop(MicroSeconds(10));
    Simulator::Run(); // the timeout fires: nothing was acknowledged
    EXPECT_EQ(m_counters.timeouts, 1u);
    EXPECT_GE(Simulator::Now(), NanoSeconds(8192));
    std::vector<Sent> resent = SendAll();
    ASSERT_EQ(resent.size(), 3u);
    EXPECT_EQ(resent[0].bth.GetPsn(), 0u);
    EXPECT_EQ(m_counters.retransmittedPackets, 3u);
    for (int i = 0; i < 5 && !m_requester.IsInError(); ++i)
    {
        Simulator::Run();
        SendAll();
    }
    EXPECT_TRUE(m_requester.IsInError());
    EXPECT_EQ(m_counters.timeouts, 3u); // RetryCount 2: the third timeout fails the QP
    ASSERT_EQ(m_owner.completions.size(), 2u);
    EXPECT_EQ(m_owner.completions[0].status, RdmaWcStatus::RetryExceeded);
    EXPECT_EQ(m_owner.completions[1].status, RdmaWcStatus::Flushed);
    Post(3, RdmaVerb::Write, 10); // flushed at once, nothing sent
    ASSERT_EQ(m_owner.completions.size(), 3u);
    EXPECT_EQ(m_owner.completions[2].status, RdmaWcStatus::Flushed);
    EXPECT_FALSE(m_requester.HasTxWork());
}

TEST_F(RdmaRequesterTest, AckBeforeTheTimeoutKeepsTheQpAlive)
{
    Ptr<RdmaGoBackN> gbn = CreateObject<RdmaGoBackN>();
    gbn->SetAttribute("AckTimeoutExponent", UintegerValue(1)); // 8.192 us
    Setup(gbn);
    Post(1, RdmaVerb::Write, 10);
    ASSERT_EQ(SendAll().size(), 1u);
    Simulator::Schedule(MicroSeconds(5), &RdmaRequesterTest::Acknowledge, this, uint64_t{0}, false,
                        false);
    Simulator::Run();
    EXPECT_EQ(m_counters.timeouts, 0u);
    ASSERT_EQ(m_owner.completions.size(), 1u);
    EXPECT_EQ(m_owner.completions[0].status, RdmaWcStatus::Success);
}

/** No congestion control, but packets paced at \p rate (a CC pacing below one packet per
 *  RTT, as Swift does with its window under one packet). */
class PacedNoCongestionControl : public RdmaNoCongestionControl
{
  public:
    explicit PacedNoCongestionControl(DataRate rate)
        : m_pacedRate(rate)
    {
    }

    void Init(RdmaCcState* state) override
    {
        RdmaNoCongestionControl::Init(state);
        state->m_rate = m_pacedRate;
        state->m_targetRate = m_pacedRate;
    }

  private:
    DataRate m_pacedRate;
};

/** Send what the requester has whenever its pacer lets it, every microsecond, as a NIC
 *  would; counts the packets in \p sent. */
void
PumpPaced(RdmaRequester* requester, uint32_t* sent)
{
    while (requester->HasTxWork() && requester->GetNextTxTime() <= Simulator::Now())
    {
        requester->BuildRequestPacket();
        RdmaWireSize wire;
        wire.bytes = MTU;
        requester->OnPacketSent(wire);
        ++*sent;
    }
    if (!requester->IsInError())
    {
        Simulator::Schedule(MicroSeconds(1), &PumpPaced, requester, sent);
    }
}

// A timeout whose resend the QP's rate limiter still holds spends no retry: the transport
// timer runs from the send of a packet (IBTA 9.7.6.1). Here each packet waits 100 us for
// the pacer and the timeout is 8.192 us; every ACK is lost. The QP fails only once the
// retries are spent on resends that left: the original and RetryCount = 7 resends, the
// last timing out at 708.192 us. (Before, the timeouts that fired while the first resend
// waited spent them all: the QP failed at 65.5 us with one packet sent.)
TEST_F(RdmaRequesterTest, TimeoutWhileThePacerHoldsTheResendSpendsNoRetry)
{
    Ptr<RdmaGoBackN> gbn = CreateObject<RdmaGoBackN>();
    gbn->SetAttribute("AckTimeoutExponent", UintegerValue(1)); // 8.192 us
    gbn->SetAttribute("RetryCount", UintegerValue(7));
    // 1024 wire bytes every 100 us.
    RdmaRequester::Config config = m_owner.RequesterConfig(
        MTU, CreateObject<PacedNoCongestionControl>(DataRate("81920000bps")), gbn, &m_counters);
    m_requester.Setup(config);
    m_requester.SetRemoteQpn(0x200);
    Post(1, RdmaVerb::Write, MTU);
    uint32_t sent = 0;
    PumpPaced(&m_requester, &sent);
    Simulator::Stop(MilliSeconds(2));
    Simulator::Run();
    EXPECT_TRUE(m_requester.IsInError());
    EXPECT_EQ(sent, 8u);
    EXPECT_EQ(m_counters.timeouts, 8u);
    ASSERT_EQ(m_owner.completions.size(), 1u);
    EXPECT_EQ(m_owner.completions[0].status, RdmaWcStatus::RetryExceeded);
    EXPECT_EQ(m_owner.completions[0].completionTime, MicroSeconds(700) + NanoSeconds(8192));
}

// RdmaQueuePair InFlightCap: at most that many bytes of requests unacknowledged whatever
// the congestion control (none here: no window of its own), and with
// InFlightCapFollowsRate the cap scaled by the rate over the line rate (the HPCC
// simulator's HAS_WIN 1 and VAR_WIN 1).
TEST_F(RdmaRequesterTest, InFlightCapHoldsUnderAnyCongestionControl)
{
    RdmaRequester::Config config = m_owner.RequesterConfig(
        MTU, CreateObject<RdmaNoCongestionControl>(), CreateObject<RdmaGoBackN>(), &m_counters);
    config.inFlightCap = 3 * MTU;
    m_requester.Setup(config);
    m_requester.SetRemoteQpn(0x200);
    Post(1, RdmaVerb::Write, 10 * MTU);
    std::vector<Sent> sent = SendAll();
    ASSERT_EQ(sent.size(), 3u);
    // The packet that fills the cap asks for an ACK (the responder may ACK every n).
    EXPECT_FALSE(sent[1].bth.GetAckRequest());
    EXPECT_TRUE(sent[2].bth.GetAckRequest());
    Acknowledge(0);
    sent = SendAll();
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_EQ(sent[0].bth.GetPsn(), 3u);
    Acknowledge(3);
    EXPECT_EQ(SendAll().size(), 3u); // PSNs 4..6
}

TEST_F(RdmaRequesterTest, InFlightCapFollowsTheRateWhenAsked)
{
    // 25 Gb/s of a 100 Gb/s line: a quarter of the 8-packet cap.
    for (const bool follows : {false, true})
    {
        RdmaRequester requester;
        RdmaQpCounters counters;
        RdmaRequester::Config config =
            m_owner.RequesterConfig(MTU, CreateObject<PacedNoCongestionControl>(DataRate("25Gbps")),
                                    CreateObject<RdmaGoBackN>(), &counters);
        config.inFlightCap = 8 * MTU;
        config.inFlightCapFollowsRate = follows;
        requester.Setup(config);
        requester.SetRemoteQpn(0x200);
        RdmaWorkRequest wr;
        wr.wrId = 1;
        wr.verb = RdmaVerb::Write;
        wr.length = 20 * MTU;
        requester.PostSend(wr);
        uint32_t n = 0;
        while (requester.BuildRequestPacket())
        {
            ++n;
        }
        EXPECT_EQ(n, follows ? 2u : 8u) << follows;
        requester.Dispose();
    }
}

TEST_F(RdmaRequesterTest, ReadTakesOnePsnPerResponseAndCompletesOnTheLast)
{
    Setup();
    Post(9, RdmaVerb::Read, 2500);
    const std::vector<Sent> sent = SendAll();
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_EQ(sent[0].bth.GetOpcode(), RoceOpcode::ReadRequest);
    EXPECT_TRUE(sent[0].bth.GetAckRequest());
    EXPECT_EQ(sent[0].reth.GetDmaLength(), 2500u);
    EXPECT_EQ(m_requester.GetSequence().nxt, 3u); // three response PSNs
    Respond(0, 0, 3, 1024);
    Respond(1, 1, 3, 1024);
    EXPECT_TRUE(m_owner.completions.empty());
    Respond(2, 2, 3, 452);
    ASSERT_EQ(m_owner.completions.size(), 1u);
    EXPECT_EQ(m_owner.completions[0].wrId, 9u);
    EXPECT_EQ(m_owner.completions[0].verb, RdmaVerb::Read);
    EXPECT_EQ(m_owner.completions[0].bytes, 2500u);
    ASSERT_EQ(m_owner.placements.size(), 3u);
    EXPECT_EQ(m_owner.placements[1].address, 0x1000u + MTU);
    EXPECT_EQ(m_owner.placements[2].bytes, 452u);
}

TEST_F(RdmaRequesterTest, GoBackNReadRerequestsFromAMissingResponse)
{
    Setup();
    Post(9, RdmaVerb::Read, 3 * MTU);
    ASSERT_EQ(SendAll().size(), 1u);
    Respond(0, 0, 3, MTU);
    Respond(2, 2, 3, MTU); // response 1 lost: dropped, the rest re-requested
    EXPECT_EQ(m_counters.outOfOrderDropped, 1u);
    const std::vector<Sent> again = SendAll();
    ASSERT_EQ(again.size(), 1u);
    EXPECT_EQ(again[0].bth.GetOpcode(), RoceOpcode::ReadRequest);
    EXPECT_EQ(again[0].bth.GetPsn(), 1u);
    EXPECT_EQ(again[0].reth.GetVirtualAddress(), 0x8000u + MTU);
    EXPECT_EQ(again[0].reth.GetDmaLength(), 2 * MTU);
    Respond(1, 0, 2, MTU);
    Respond(1, 0, 2, MTU); // a duplicate
    EXPECT_EQ(m_counters.duplicatesReceived, 1u);
    Respond(2, 1, 2, MTU);
    ASSERT_EQ(m_owner.completions.size(), 1u);
    EXPECT_EQ(m_owner.completions[0].status, RdmaWcStatus::Success);
}

TEST_F(RdmaRequesterTest, GoBackNLaterReadsResponseImpliesTheEarlierReadsLoss)
{
    // Two outstanding READs (PSNs 0-2 and 3-5); the first READ's last response is lost.
    // A response of the second READ implies that loss (IBTA 9.7.5.1.1): it is dropped,
    // and the requester goes back to PSN 2, resending the rest of the first READ and then
    // the second one; both complete from the re-executed responses, in order.
    Setup();
    Post(1, RdmaVerb::Read, 3 * MTU);
    Post(2, RdmaVerb::Read, 3 * MTU);
    ASSERT_EQ(SendAll().size(), 2u);
    Respond(0, 0, 3, MTU);
    Respond(1, 1, 3, MTU);
    Respond(3, 0, 3, MTU); // response 2 lost
    Respond(4, 1, 3, MTU); // the same gap: one re-request only
    EXPECT_EQ(m_counters.outOfOrderDropped, 2u);
    const std::vector<Sent> again = SendAll();
    ASSERT_EQ(again.size(), 2u);
    EXPECT_EQ(again[0].bth.GetPsn(), 2u);
    EXPECT_EQ(again[0].reth.GetVirtualAddress(), 0x8000u + 2 * MTU);
    EXPECT_EQ(again[0].reth.GetDmaLength(), MTU);
    EXPECT_EQ(again[1].bth.GetPsn(), 3u);
    EXPECT_EQ(again[1].reth.GetDmaLength(), 3 * MTU);
    Respond(5, 2, 3, MTU); // the rest of the original stream: dropped, no new go-back
    EXPECT_TRUE(SendAll().empty());
    Respond(2, 0, 1, MTU);
    ASSERT_EQ(m_owner.completions.size(), 1u);
    for (uint32_t i = 0; i < 3; ++i)
    {
        Respond(3 + i, i, 3, MTU);
    }
    ASSERT_EQ(m_owner.completions.size(), 2u);
    EXPECT_EQ(m_owner.completions[1].wrId, 2u);
    EXPECT_EQ(m_owner.completions[1].status, RdmaWcStatus::Success);
    EXPECT_EQ(m_owner.placements.size(), 6u);
}

// BDP-FC counts READ responses: with BdpCap 4 a READ of 10 responses goes out as requests
// for 4, 4 and 2 responses, each once the responses before it leave room. Before, one
// request asked for all 10 (1,596 for a 1.6 MB READ of the SRNIC fuzz case): responses
// past the cap overran the SACK bitmap, and a timeout re-requested every one of them at
// once, which at 10 Gb/s outlasted the next timeout: the READ failed with RetryExceeded.
TEST_F(RdmaRequesterTest, SelectiveRepeatReadAsksForAtMostBdpCapResponsesInFlight)
{
    Ptr<RdmaSelectiveRepeat> sr = CreateObject<RdmaSelectiveRepeat>();
    sr->SetAttribute("BdpCap", UintegerValue(4));
    Setup(sr->Fork());
    Post(9, RdmaVerb::Read, 10 * MTU - 100);
    std::vector<Sent> sent = SendAll();
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_EQ(sent[0].bth.GetPsn(), 0u);
    EXPECT_EQ(sent[0].reth.GetVirtualAddress(), 0x8000u);
    EXPECT_EQ(sent[0].reth.GetDmaLength(), 4 * MTU);
    EXPECT_EQ(m_requester.GetSequence().nxt, 4u);
    Respond(0, 0, 4, MTU);
    Respond(1, 1, 4, MTU);
    sent = SendAll(); // room for two more responses
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_EQ(sent[0].bth.GetPsn(), 4u);
    EXPECT_EQ(sent[0].reth.GetVirtualAddress(), 0x8000u + 4 * MTU);
    EXPECT_EQ(sent[0].reth.GetDmaLength(), 2 * MTU);
    Respond(2, 2, 4, MTU);
    Respond(3, 3, 4, MTU);
    Respond(4, 0, 2, MTU);
    Respond(5, 1, 2, MTU);
    sent = SendAll();
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_EQ(sent[0].bth.GetPsn(), 6u);
    EXPECT_EQ(sent[0].reth.GetDmaLength(), 4 * MTU - 100); // the rest
    EXPECT_TRUE(m_owner.completions.empty());
    for (uint32_t i = 0; i < 4; ++i)
    {
        Respond(6 + i, i, 4, i == 3 ? MTU - 100 : MTU);
    }
    ASSERT_EQ(m_owner.completions.size(), 1u);
    EXPECT_EQ(m_owner.completions[0].status, RdmaWcStatus::Success);
    EXPECT_EQ(m_owner.completions[0].bytes, 10 * MTU - 100);
    EXPECT_EQ(m_owner.placements.size(), 10u);
}

// PSN 0 is lost, 1..3 arrive out of order and are SACKed, the resend
// of 0 arrives and the responder acknowledges each message end (PSNs 1 and 3); the ACK of
// PSN 3 is lost. Every outstanding PSN (2, 3) is SACKed: the timeout must still send
// something (the oldest, whose duplicate the responder acknowledges again), or the QP
// waits forever with no timer pending.
TEST_F(RdmaRequesterTest, SelectiveRepeatTimeoutProbesWhenEveryOutstandingPsnWasSacked)
{
    Setup(CreateObject<RdmaSelectiveRepeat>()->Fork());
    Post(1, RdmaVerb::Write, 2 * MTU); // PSNs 0, 1
    Post(2, RdmaVerb::Write, 2 * MTU); // PSNs 2, 3
    ASSERT_EQ(SendAll().size(), 4u);
    for (uint64_t sack = 1; sack < 4; ++sack)
    {
        SackNak(0, sack);
    }
    std::vector<Sent> resent = SendAll();
    ASSERT_EQ(resent.size(), 1u);
    EXPECT_EQ(resent[0].bth.GetPsn(), 0u);
    Acknowledge(1); // the first message; the ACK of PSN 3 is lost
    ASSERT_EQ(m_owner.completions.size(), 1u);
    EXPECT_EQ(m_requester.GetSequence().una, 2u);
    EXPECT_TRUE(SendAll().empty()); // 2 and 3 were SACKed: nothing to resend yet
    Simulator::Stop(MicroSeconds(150));
    Simulator::Run(); // the retransmission timer fires (RtoLow, 100 us)
    EXPECT_EQ(m_counters.timeouts, 1u);
    EXPECT_FALSE(m_requester.IsInError());
    resent = SendAll();
    ASSERT_EQ(resent.size(), 1u) << "a timeout with every outstanding PSN SACKed sent nothing";
    EXPECT_EQ(resent[0].bth.GetPsn(), 2u);
    Acknowledge(3); // the duplicate's ACK
    ASSERT_EQ(m_owner.completions.size(), 2u);
    EXPECT_EQ(m_owner.completions[1].status, RdmaWcStatus::Success);
    EXPECT_EQ(m_requester.GetSequence().una, 4u);
}

// The invariant behind it: while data is unacknowledged and the QP is not in error, a
// retransmission timer is pending, even when a timeout found nothing to resend at once.
TEST_F(RdmaRequesterTest, UnacknowledgedDataAlwaysHasAPendingTimer)
{
    Setup(CreateObject<RdmaSelectiveRepeat>()->Fork());
    Post(1, RdmaVerb::Write, 2 * MTU);
    Post(2, RdmaVerb::Write, 2 * MTU);
    SendAll();
    EXPECT_TRUE(m_requester.IsRetransmitTimerPending());
    for (uint64_t sack = 1; sack < 4; ++sack)
    {
        SackNak(0, sack);
    }
    SendAll();
    Acknowledge(1);
    EXPECT_TRUE(m_requester.IsRetransmitTimerPending());
    for (uint32_t timeouts = 1; timeouts <= 3; ++timeouts)
    {
        // A timeout (RtoLow: 2 packets outstanding); its probe is not sent: the next one.
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        EXPECT_EQ(m_counters.timeouts, timeouts);
        EXPECT_TRUE(m_requester.IsRetransmitTimerPending()) << timeouts;
        EXPECT_FALSE(m_requester.IsStalled());
    }
    SendAll();
    Acknowledge(3);
    EXPECT_FALSE(m_requester.IsRetransmitTimerPending());
    EXPECT_EQ(m_requester.GetOutstandingWorkRequests(), 0u);
}

TEST_F(RdmaRequesterTest, SrnicExtensionsCarryTheSsnOnSends)
{
    Setup(CreateObject<RdmaGoBackN>(), true);
    Post(1, RdmaVerb::Write, 10);
    Post(2, RdmaVerb::Send, 2 * MTU);
    ASSERT_NE(m_requester.BuildRequestPacket(), nullptr); // the WRITE, PSN 0
    Ptr<Packet> p = m_requester.BuildRequestPacket();     // SEND, PSN 1
    ASSERT_NE(p, nullptr);
    p = m_requester.BuildRequestPacket(); // SEND, PSN 2 (offset 1)
    ASSERT_NE(p, nullptr);
    RoceBthHeader bth;
    p->RemoveHeader(bth);
    RoceSrnicExtHeader ext;
    ext.SetKind(RoceSrnicExtHeader::Kind::Send);
    p->RemoveHeader(ext);
    EXPECT_EQ(ext.GetSsn(), 1u); // the message's first PSN
    EXPECT_EQ(ext.GetPsnOffset(), 1u);
    EXPECT_EQ(p->GetSize(), MTU);
}

} // namespace
} // namespace ns3
