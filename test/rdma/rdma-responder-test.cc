// Unit tests of RdmaResponder with no NIC and no network: the tests hand it the request
// packets a requester would send and a FakeQpOwner records its ACKs, NAKs, completions
// and data placement; READ responses are built from it directly.
#include "fake-qp-owner.h"

#include "ns3/nstime.h"
#include "ns3/rdma-go-back-n.h"
#include "ns3/rdma-no-congestion-control.h"
#include "ns3/rdma-responder.h"
#include "ns3/rdma-selective-repeat.h"
#include "ns3/roce-reth-header.h"
#include "ns3/roce-sack-header.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <vector>

namespace ns3
{
namespace
{

constexpr uint32_t MTU = 1024;

class RdmaResponderTest : public ::testing::Test
{
  public:
    void TearDown() override
    {
        m_responder.Dispose();
        Simulator::Destroy();
    }

    void Setup(uint32_t ackInterval = 1,
               Ptr<RdmaLossRecovery> lossRecovery = CreateObject<RdmaGoBackN>())
    {
        m_responder.Setup(m_owner.ResponderConfig(
            MTU, ackInterval, CreateObject<RdmaNoCongestionControl>(), lossRecovery, &m_counters));
        m_responder.SetRemoteQpn(0x100);
    }

    /** Hand the responder request packet \p psn (\p op, \p payload bytes). */
    void Deliver(uint64_t psn, RoceOpcode op, uint32_t payload, bool ackRequest,
                 uint32_t rethLength = 0)
    {
        Ptr<Packet> p = Create<Packet>(payload);
        if (RoceBthHeader::HasReth(op) || op == RoceOpcode::ReadRequest)
        {
            RoceRethHeader reth;
            reth.SetVirtualAddress(0x8000 + (op == RoceOpcode::ReadRequest ? psn * MTU : 0));
            reth.SetDmaLength(rethLength);
            p->AddHeader(reth);
        }
        RoceBthHeader bth;
        bth.SetOpcode(op);
        bth.SetPsn(RoceBthHeader::WirePsn(psn));
        bth.SetAckRequest(ackRequest);
        m_responder.ReceiveRequest(bth, p, false);
    }

    /** Deliver the packets \p first .. \p last of a \p count-packet WRITE starting at PSN 0. */
    void DeliverWrite(uint32_t first, uint32_t last, uint32_t count)
    {
        for (uint32_t i = first; i <= last; ++i)
        {
            const RoceOpcode op =
                i == 0           ? (count == 1 ? RoceOpcode::WriteOnly : RoceOpcode::WriteFirst)
                : i + 1 == count ? RoceOpcode::WriteLast
                                 : RoceOpcode::WriteMiddle;
            Deliver(i, op, MTU, i + 1 == count, count * MTU);
        }
    }

    /** PSNs of the ACKs (not NAKs) sent so far. */
    std::vector<uint32_t> AckPsns() const
    {
        std::vector<uint32_t> psns;
        for (const auto& c : m_owner.controls)
        {
            if (c.aeth.IsAck())
            {
                psns.push_back(c.bth.GetPsn());
            }
        }
        return psns;
    }

    FakeQpOwner m_owner;
    RdmaQpCounters m_counters;
    RdmaResponder m_responder;
};

TEST_F(RdmaResponderTest, AcksEveryAckIntervalPacketsAndAtMessageEnd)
{
    Setup(4);
    DeliverWrite(0, 5, 6);
    EXPECT_EQ(AckPsns(), (std::vector<uint32_t>{3, 5})); // 4 packets, then the last (AckReq)
    EXPECT_EQ(m_counters.acksSent, 2u);
    EXPECT_EQ(m_responder.GetExpectedPsn(), 6u);
    ASSERT_EQ(m_owner.messages.size(), 1u);
    EXPECT_EQ(m_owner.messages[0], 6u * MTU);
    ASSERT_EQ(m_owner.placements.size(), 6u);
    EXPECT_EQ(m_owner.placements[5].address, 0x8000u + 5 * MTU);
    EXPECT_EQ(m_owner.controls[1].aeth.GetMsn(), 1u); // one message executed
    EXPECT_EQ(m_owner.controls[1].bth.GetDestQp(), 0x100u);
}

TEST_F(RdmaResponderTest, AcksEveryPacketByDefault)
{
    Setup();
    DeliverWrite(0, 3, 4);
    EXPECT_EQ(AckPsns(), (std::vector<uint32_t>{0, 1, 2, 3}));
}

TEST_F(RdmaResponderTest, SequenceErrorIsNakedOnceAndGapRefilled)
{
    Setup();
    DeliverWrite(0, 0, 4);
    DeliverWrite(2, 3, 4); // PSN 1 lost: go-back-N drops 2 and 3
    EXPECT_EQ(m_counters.outOfOrderDropped, 2u);
    ASSERT_EQ(m_owner.controls.size(), 2u); // the ACK of 0 and one NAK
    EXPECT_TRUE(m_owner.controls[1].aeth.IsNak());
    EXPECT_EQ(m_owner.controls[1].aeth.GetNakCode(), RoceNakCode::PsnSequenceError);
    EXPECT_EQ(m_owner.controls[1].bth.GetPsn(), 1u); // the expected PSN
    EXPECT_EQ(m_counters.naksSent, 1u);
    DeliverWrite(1, 3, 4); // the go-back resend
    EXPECT_EQ(AckPsns(), (std::vector<uint32_t>{0, 1, 2, 3}));
    EXPECT_EQ(m_owner.messages.size(), 1u);
}

TEST_F(RdmaResponderTest, DuplicateIsCountedAndReacknowledged)
{
    Setup();
    DeliverWrite(0, 1, 2);
    DeliverWrite(0, 0, 2); // a resend of a packet already executed
    EXPECT_EQ(m_counters.duplicatesReceived, 1u);
    EXPECT_EQ(AckPsns(), (std::vector<uint32_t>{0, 1, 1})); // the last executed PSN again
    EXPECT_EQ(m_owner.placements.size(), 2u);               // not placed twice
    EXPECT_EQ(m_responder.GetExpectedPsn(), 2u);
}

TEST_F(RdmaResponderTest, SelectiveRepeatKeepsOutOfOrderPacketsAndSacksThem)
{
    Setup(1, CreateObject<RdmaSelectiveRepeat>());
    DeliverWrite(0, 0, 4);
    DeliverWrite(2, 3, 4); // kept, each answered by a NAK with a SACK
    EXPECT_EQ(m_counters.outOfOrderBuffered, 2u);
    ASSERT_EQ(m_owner.controls.size(), 3u);
    RoceSackHeader sack;
    m_owner.controls[2].rest->RemoveHeader(sack);
    EXPECT_EQ(m_owner.controls[2].bth.GetPsn(), 1u);
    EXPECT_EQ(sack.GetSackPsn(), 3u);
    EXPECT_EQ(m_owner.placements.size(), 1u); // executed in PSN order only
    DeliverWrite(1, 1, 4);                    // the gap: 1, 2, 3 execute
    EXPECT_EQ(m_responder.GetExpectedPsn(), 4u);
    EXPECT_EQ(m_owner.placements.size(), 4u);
    ASSERT_EQ(m_owner.messages.size(), 1u);
}

TEST_F(RdmaResponderTest, SendWithoutReceiveIsRnrNakedThenCompletes)
{
    Setup();
    Deliver(0, RoceOpcode::SendOnly, 100, true);
    ASSERT_EQ(m_owner.controls.size(), 1u);
    EXPECT_TRUE(m_owner.controls[0].aeth.IsRnrNak());
    EXPECT_EQ(m_responder.GetExpectedPsn(), 0u); // not executed
    RdmaRecvRequest rr;
    rr.wrId = 5;
    rr.length = 64;
    m_responder.PostRecv(rr, false);
    Deliver(0, RoceOpcode::SendOnly, 100, true);
    ASSERT_EQ(m_owner.completions.size(), 1u);
    EXPECT_TRUE(m_owner.completions[0].receive);
    EXPECT_EQ(m_owner.completions[0].wrId, 5u);
    EXPECT_EQ(m_owner.completions[0].bytes, 100u);
    EXPECT_EQ(m_owner.completions[0].status, RdmaWcStatus::LengthError); // 100 B > 64 B
    EXPECT_EQ(AckPsns(), (std::vector<uint32_t>{0}));
}

TEST_F(RdmaResponderTest, ReadRequestProducesMtuSizedResponses)
{
    Setup();
    Deliver(0, RoceOpcode::ReadRequest, 0, true, 2500);
    EXPECT_EQ(m_responder.GetExpectedPsn(), 3u); // a PSN per response
    EXPECT_TRUE(m_owner.controls.empty());       // answered by its responses, not an ACK
    ASSERT_TRUE(m_responder.HasReadResponse());
    const RoceOpcode ops[] = {RoceOpcode::ReadResponseFirst, RoceOpcode::ReadResponseMiddle,
                              RoceOpcode::ReadResponseLast};
    const uint32_t payloads[] = {1024, 1024, 452};
    for (uint32_t i = 0; i < 3; ++i)
    {
        ASSERT_TRUE(m_responder.HasReadResponse());
        Ptr<Packet> p = m_responder.BuildReadResponse();
        RoceBthHeader bth;
        p->RemoveHeader(bth);
        EXPECT_EQ(bth.GetOpcode(), ops[i]);
        EXPECT_EQ(bth.GetPsn(), i);
        EXPECT_EQ(bth.GetDestQp(), 0x100u);
        if (RoceBthHeader::HasAeth(ops[i]))
        {
            RoceAethHeader aeth;
            p->RemoveHeader(aeth);
            EXPECT_TRUE(aeth.IsAck());
            EXPECT_EQ(aeth.GetMsn(), 1u);
        }
        EXPECT_EQ(p->GetSize(), payloads[i]);
    }
    EXPECT_FALSE(m_responder.HasReadResponse());
    EXPECT_EQ(m_counters.dataPacketsSent, 3u);
    EXPECT_EQ(m_counters.payloadBytesSent, 2500u);
}

TEST_F(RdmaResponderTest, DuplicateReadIsReexecutedFromTheRequestedPsn)
{
    Setup();
    Deliver(0, RoceOpcode::ReadRequest, 0, true, 3 * MTU);
    for (int i = 0; i < 3; ++i)
    {
        m_responder.BuildReadResponse();
    }
    Deliver(1, RoceOpcode::ReadRequest, 0, true, 2 * MTU); // response 1 was lost
    EXPECT_EQ(m_counters.duplicatesReceived, 1u);
    ASSERT_TRUE(m_responder.HasReadResponse());
    Ptr<Packet> p = m_responder.BuildReadResponse();
    RoceBthHeader bth;
    p->RemoveHeader(bth);
    EXPECT_EQ(bth.GetPsn(), 1u);
    EXPECT_EQ(bth.GetOpcode(), RoceOpcode::ReadResponseFirst);
    m_responder.BuildReadResponse();
    EXPECT_FALSE(m_responder.HasReadResponse());
    EXPECT_EQ(m_counters.retransmittedPackets, 2u);
}

TEST_F(RdmaResponderTest, GoBackOverTwoReadsKeepsTheEarlierReadsResponses)
{
    // Two READs of 3 responses (PSNs 0-2 and 3-5); response 1 is lost. The go-back
    // requester resends the first READ from PSN 1 and then the second one, back to back:
    // the second duplicate voids what is queued from PSN 3 on (the original responses of
    // the second READ), not the re-executed rest of the first READ before it. (It did, and
    // two outstanding READs under go-back-N and loss never finished.)
    Setup();
    Deliver(0, RoceOpcode::ReadRequest, 0, true, 3 * MTU);
    Deliver(3, RoceOpcode::ReadRequest, 0, true, 3 * MTU);
    for (int i = 0; i < 3; ++i)
    {
        m_responder.BuildReadResponse(); // 0, 1 (lost), 2
    }
    Deliver(1, RoceOpcode::ReadRequest, 0, true, 2 * MTU);
    Deliver(3, RoceOpcode::ReadRequest, 0, true, 3 * MTU);
    EXPECT_EQ(m_counters.duplicatesReceived, 2u);
    std::vector<uint32_t> psns;
    while (m_responder.HasReadResponse())
    {
        Ptr<Packet> p = m_responder.BuildReadResponse();
        RoceBthHeader bth;
        p->RemoveHeader(bth);
        psns.push_back(bth.GetPsn());
    }
    EXPECT_EQ(psns, (std::vector<uint32_t>{1, 2, 3, 4, 5}));
}

TEST_F(RdmaResponderTest, GoBackIntoAQueuedReadVoidsItsRest)
{
    // A duplicate READ at a PSN inside a READ whose responses are still queued: the
    // requester has every response before that PSN, so the queued rest is void and the
    // responses restart there, once each.
    Setup();
    Deliver(0, RoceOpcode::ReadRequest, 0, true, 4 * MTU);
    m_responder.BuildReadResponse(); // 0
    Deliver(2, RoceOpcode::ReadRequest, 0, true, 2 * MTU);
    std::vector<uint32_t> psns;
    while (m_responder.HasReadResponse())
    {
        Ptr<Packet> p = m_responder.BuildReadResponse();
        RoceBthHeader bth;
        p->RemoveHeader(bth);
        psns.push_back(bth.GetPsn());
    }
    EXPECT_EQ(psns, (std::vector<uint32_t>{2, 3}));
}

TEST_F(RdmaResponderTest, FlushCompletesPostedReceivesAndDropsResponses)
{
    Setup();
    RdmaRecvRequest rr;
    rr.wrId = 1;
    m_responder.PostRecv(rr, false);
    Deliver(0, RoceOpcode::ReadRequest, 0, true, 2 * MTU);
    m_responder.Flush();
    EXPECT_FALSE(m_responder.HasReadResponse());
    ASSERT_EQ(m_owner.completions.size(), 1u);
    EXPECT_EQ(m_owner.completions[0].status, RdmaWcStatus::Flushed);
    m_responder.PostRecv(rr, true); // the QP is in error: flushed at once
    ASSERT_EQ(m_owner.completions.size(), 2u);
    EXPECT_EQ(m_owner.completions[1].status, RdmaWcStatus::Flushed);
}

TEST_F(RdmaResponderTest, CountsReorderedArrivalsAndTheirDistance)
{
    // Selective repeat: 0, 2, 3, 1, 5, 4. Packet 1 arrives behind 3 (distance 2), packet 4
    // behind 5 (distance 1): two reordered packets, the largest distance 2.
    Setup(1, CreateObject<RdmaSelectiveRepeat>());
    for (uint32_t psn : {0u, 2u, 3u, 1u, 5u, 4u})
    {
        DeliverWrite(psn, psn, 6);
    }
    EXPECT_EQ(m_counters.reorderedPackets, 2u);
    EXPECT_EQ(m_counters.maxReorderDistance, 2u);
    EXPECT_EQ(m_owner.messages.size(), 1u);
    // A duplicate of the highest PSN is not reordered; one below it is.
    DeliverWrite(5, 5, 6);
    EXPECT_EQ(m_counters.reorderedPackets, 2u);
    DeliverWrite(1, 1, 6);
    EXPECT_EQ(m_counters.reorderedPackets, 3u);
    EXPECT_EQ(m_counters.maxReorderDistance, 4u);
}

TEST_F(RdmaResponderTest, InOrderArrivalsAreNotReordered)
{
    Setup();
    DeliverWrite(0, 7, 8);
    EXPECT_EQ(m_counters.reorderedPackets, 0u);
    EXPECT_EQ(m_counters.maxReorderDistance, 0u);
}

TEST_F(RdmaResponderTest, GoBackResendsArriveReordered)
{
    // Go-back-N: 0, 2, 3 (1 late: 2 and 3 dropped, NAK), then the resend 1, 2, 3. The
    // resent 1 and 2 arrive behind 3; the resent 3 equals the highest PSN.
    Setup();
    DeliverWrite(0, 0, 4);
    DeliverWrite(2, 3, 4);
    DeliverWrite(1, 3, 4);
    EXPECT_EQ(m_counters.reorderedPackets, 2u);
    EXPECT_EQ(m_counters.maxReorderDistance, 2u);
}

} // namespace
} // namespace ns3
