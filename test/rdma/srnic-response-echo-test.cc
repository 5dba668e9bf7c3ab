// SRNIC header extensions on responses (NSDI'23 section 4.4.1): ACK/NAKs and READ
// responses echo the request's metadata; wire sizes with and without extensions; an
// out-of-order READ response placed at the echoed address; and READ responses lost
// under selective repeat re-fetched alone, against go-back-N's re-fetch to the end.
#include "rdma-test-fabric.h"
#include "rdma-test-psn-drop.h"

#include "ns3/boolean.h"
#include "ns3/error-model.h"
#include "ns3/ethernet-vlan-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/pointer.h"
#include "ns3/roce-aeth-header.h"
#include "ns3/roce-sack-header.h"
#include "ns3/roce-srnic-ext-header.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <map>

using namespace ns3;

namespace
{

/** Frame bytes outside the transport headers: Ethernet + 802.1Q, IPv4, UDP, ICRC. */
constexpr uint32_t kEncap = 18 + 20 + 8 + 4;
constexpr uint32_t kBth = 12;

/** A frame's outer headers down to the BTH, taken off so that they can be put back. */
struct OuterHeaders
{
    EthernetVlanHeader eth;
    Ipv4Header ip;
    UdpHeader udp;
    RoceBthHeader bth;

    void Strip(Ptr<Packet> p)
    {
        p->RemoveHeader(eth);
        p->RemoveHeader(ip);
        p->RemoveHeader(udp);
        p->RemoveHeader(bth);
    }

    void Restore(Ptr<Packet> p) const
    {
        p->AddHeader(bth);
        p->AddHeader(udp);
        p->AddHeader(ip);
        p->AddHeader(eth);
    }
};
constexpr uint64_t kLocal = 0x100000; //!< READ destination in the requester

/** Rewrites the echoed address of READ response PSN \p psn (a probe, not a drop). */
class EchoRewriteModel : public ErrorModel
{
  public:
    EchoRewriteModel(uint32_t psn, uint64_t va)
        : m_psn(psn)
        , m_va(va)
    {
    }

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        RoceBthHeader bth;
        if (!PeekBth(p, bth) || !RoceBthHeader::IsReadResponse(bth.GetOpcode()) ||
            bth.GetPsn() != m_psn)
        {
            return false;
        }
        OuterHeaders outer;
        RoceSrnicExtHeader ext;
        ext.SetKind(RoceSrnicExtHeader::Kind::Read);
        outer.Strip(p);
        p->RemoveHeader(ext);
        ext.SetVirtualAddress(m_va);
        p->AddHeader(ext);
        outer.Restore(p);
        return false;
    }

    void DoReset() override {}

    uint32_t m_psn;
    uint64_t m_va;
};

class SrnicResponseEchoTest : public ::testing::Test
{
  protected:
    void SetUp() override { rdma.SetCongestionControl("ns3::RdmaNoCongestionControl"); }

    void TearDown() override { Simulator::Destroy(); }

    RdmaLeafSpineFabric TwoHosts(const std::string& lossRecovery, bool extensions)
    {
        rdma.SetLossRecovery(lossRecovery);
        if (bdpCap != 0)
        {
            rdma.SetLossRecoveryAttribute("BdpCap", UintegerValue(bdpCap));
        }
        rdma.SetQueuePairAttribute("SrnicHeaderExtensions", BooleanValue(extensions));
        m_ext = extensions;
        RdmaLeafSpineFabric f = BuildStar(2, "100Gbps", MicroSeconds(1), dcb, rdma);
        for (auto& nic : f.GetNics())
        {
            nic->TraceConnectWithoutContext(
                "Completion", MakeCallback(&SrnicResponseEchoTest::OnCompletion, this));
            nic->TraceConnectWithoutContext("DataPlaced",
                                            MakeCallback(&SrnicResponseEchoTest::OnPlaced, this));
            nic->GetDevice()->TraceConnectWithoutContext(
                "PhyTxBegin", MakeCallback(&SrnicResponseEchoTest::OnTx, this));
        }
        return f;
    }

    void OnCompletion(const RdmaCompletion& c) { completions.push_back(c); }

    void OnPlaced(uint32_t, uint64_t addr, uint32_t bytes)
    {
        order.push_back(addr);
        for (uint32_t i = 0; i < bytes; ++i)
        {
            placed[addr + i]++;
        }
    }

    /** Frame sizes by response type, as sent. */
    void OnTx(Ptr<const Packet> frame)
    {
        RoceBthHeader bth;
        if (!PeekBth(frame, bth))
        {
            return;
        }
        const RoceOpcode op = bth.GetOpcode();
        if (op == RoceOpcode::Acknowledge)
        {
            Ptr<Packet> p = frame->Copy();
            OuterHeaders().Strip(p);
            RoceSrnicExtHeader echo;
            if (m_ext)
            {
                echo.SetKind(RoceSrnicExtHeader::Kind::Echo);
                p->RemoveHeader(echo);
            }
            RoceAethHeader aeth;
            p->RemoveHeader(aeth);
            uint32_t sackPsn = UINT32_MAX;
            if (!aeth.IsAck() && p->GetSize() >= 4)
            {
                RoceSackHeader sack;
                p->PeekHeader(sack);
                sackPsn = sack.GetSackPsn();
            }
            if (m_ext)
            {
                echoes.push_back(
                    {bth.GetPsn(), echo.GetSsn(), echo.GetPsnOffset(), aeth.IsAck(), sackPsn});
            }
            sizes[aeth.IsAck() ? "ACK" : (p->GetSize() >= 4 ? "SACK-NAK" : "NAK")] =
                frame->GetSize();
        }
        else if (RoceBthHeader::IsReadResponse(op))
        {
            const bool aeth = RoceBthHeader::HasAeth(op);
            sizes[aeth ? "READ-response-first/last/only" : "READ-response-middle"] =
                frame->GetSize();
            if (m_ext)
            {
                Ptr<Packet> p = frame->Copy();
                RoceSrnicExtHeader ext;
                ext.SetKind(RoceSrnicExtHeader::Kind::Read);
                OuterHeaders().Strip(p);
                p->RemoveHeader(ext);
                echoedVa[bth.GetPsn()] = ext.GetVirtualAddress();
            }
        }
        else if (op == RoceOpcode::ReadRequest)
        {
            sizes["READ-request"] = frame->GetSize();
        }
    }

    void ExpectEveryByteOnce(uint64_t base, uint64_t length)
    {
        uint64_t bad = 0;
        for (uint64_t a = base; a < base + length; ++a)
        {
            auto it = placed.find(a);
            bad += (it == placed.end() || it->second != 1) ? 1 : 0;
        }
        EXPECT_EQ(bad, 0u);
        EXPECT_EQ(placed.size(), length);
    }

    struct Echo
    {
        uint32_t psn;
        uint32_t ssn;
        uint32_t offset;
        bool ack;
        uint32_t sackPsn; //!< SACK-NAK: the PSN held out of order
    };

    DcbHelper dcb;
    RdmaHelper rdma;
    bool m_ext{false};
    uint32_t bdpCap{0}; //!< selective repeat's BdpCap; 0: default
    std::vector<RdmaCompletion> completions;
    std::map<uint64_t, uint32_t> placed;
    std::vector<uint64_t> order;
    std::map<std::string, uint32_t> sizes;
    std::vector<Echo> echoes;
    std::map<uint32_t, uint64_t> echoedVa;
};

RdmaWorkRequest
Read(uint64_t length)
{
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Read;
    wr.length = length;
    wr.localAddr = kLocal;
    wr.remoteAddr = 0x7000000;
    return wr;
}

// Every response type's frame size with and without the extensions: ACK +8 B (SSN +
// PSN offset), SACK-NAK +8 B, READ responses +20 B (address, key, length, PSN offset).
TEST_F(SrnicResponseEchoTest, ResponseWireSizesWithAndWithoutExtensions)
{
    std::map<std::string, uint32_t> plain;
    for (bool ext : {false, true})
    {
        sizes.clear();
        echoes.clear();
        RdmaLeafSpineFabric f = TwoHosts("ns3::RdmaSelectiveRepeat", ext);
        // Responder drops WRITE PSN 2 once: the later packets come back as SACK-NAKs.
        f.GetNics()[1]->GetDevice()->SetAttribute("ReceiveErrorModel",
                                                  PointerValue(Create<PsnDropModel>(2, 1)));
        auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[1]);
        RdmaWorkRequest wr;
        wr.verb = RdmaVerb::Write;
        wr.length = 8 * 1024;
        qa->PostSend(wr);
        qa->PostSend(Read(3 * 1024));
        Simulator::Run();
        ASSERT_EQ(completions.size(), 2u);
        completions.clear();
        const uint32_t x = ext ? 1 : 0;
        EXPECT_EQ(sizes["ACK"], kEncap + kBth + 4 + 8 * x);
        EXPECT_EQ(sizes["SACK-NAK"], kEncap + kBth + 4 + 4 + 8 * x);
        EXPECT_EQ(sizes["READ-response-middle"], kEncap + kBth + 1024 + 20 * x);
        EXPECT_EQ(sizes["READ-response-first/last/only"], kEncap + kBth + 4 + 1024 + 20 * x);
        EXPECT_EQ(sizes["READ-request"], kEncap + kBth + 16 + 20 * x);
        if (ext)
        {
            // Each ACK echoes the SSN (the message's first PSN) and PSN offset of the
            // request packet it answers (WRITE PSNs 0..7 are offsets 0..7 of SSN 0); a
            // SACK-NAK those of the packet it reports held (the READ request is PSN 8).
            uint32_t acks = 0;
            uint32_t sacks = 0;
            for (const Echo& e : echoes)
            {
                if (e.ack && e.psn < 8)
                {
                    acks++;
                    EXPECT_EQ(e.ssn, 0u);
                    EXPECT_EQ(e.offset, e.psn);
                }
                else if (!e.ack && e.sackPsn != UINT32_MAX)
                {
                    sacks++;
                    EXPECT_EQ(e.ssn + e.offset, e.sackPsn);
                    EXPECT_EQ(e.ssn, e.sackPsn < 8 ? 0u : 8u);
                }
            }
            EXPECT_GE(acks, 7u);
            EXPECT_GE(sacks, 5u);
            // READ responses echo where their data goes (READ at PSNs 8..10).
            for (uint32_t k = 0; k < 3; ++k)
            {
                EXPECT_EQ(echoedVa[8 + k], kLocal + k * 1024);
            }
        }
        else
        {
            plain = sizes;
        }
        Simulator::Destroy();
        placed.clear();
        order.clear();
    }
}

// A READ response that arrives after a lost one is placed at once, at the address its
// header echoes, and only the lost response is fetched again.
TEST_F(SrnicResponseEchoTest, OutOfOrderReadResponseIsPlacedAtTheEchoedAddress)
{
    RdmaLeafSpineFabric f = TwoHosts("ns3::RdmaSelectiveRepeat", true);
    f.GetNics()[0]->GetDevice()->SetAttribute("ReceiveErrorModel",
                                              PointerValue(Create<PsnDropModel>(5, 1)));
    auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[1]);
    qa->PostSend(Read(16 * 1024));
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_EQ(completions[0].status, RdmaWcStatus::Success);
    ExpectEveryByteOnce(kLocal, 16 * 1024);
    // Responses 6..15 were placed before the re-fetched 5.
    ASSERT_EQ(order.size(), 16u);
    EXPECT_EQ(order[5], kLocal + 6 * 1024);
    EXPECT_EQ(order.back(), kLocal + 5 * 1024);
    EXPECT_EQ(qa->GetCounters().readResponsesOutOfOrder, 10u);
    EXPECT_EQ(qa->GetCounters().timeouts, 0u);
    EXPECT_EQ(qb->GetCounters().retransmittedPackets, 1u);
}

// Placement follows the echo, not a table in the requester: an echo rewritten in flight
// moves the data.
TEST_F(SrnicResponseEchoTest, PlacementFollowsTheEchoedAddress)
{
    RdmaLeafSpineFabric f = TwoHosts("ns3::RdmaSelectiveRepeat", true);
    f.GetNics()[0]->GetDevice()->SetAttribute("ReceiveErrorModel",
                                              PointerValue(Create<EchoRewriteModel>(3, 0x900000)));
    auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[1]);
    qa->PostSend(Read(8 * 1024));
    Simulator::Run();
    ASSERT_EQ(completions.size(), 1u);
    EXPECT_EQ(placed.count(0x900000), 1u);
    EXPECT_EQ(placed.count(kLocal + 3 * 1024), 0u);
}

struct ReadLossResult
{
    uint64_t resentResponses;
    uint64_t responsePayload;
    uint64_t outOfOrderPlaced;
    uint64_t timeouts;
    bool ok;
};

class ReadResponseLossTest : public SrnicResponseEchoTest
{
  protected:
    /** A 32-packet READ whose response PSN 10 is dropped once at the requester. */
    ReadLossResult Run(const std::string& lossRecovery, bool ext, uint32_t packets = 32)
    {
        RdmaLeafSpineFabric f = TwoHosts(lossRecovery, ext);
        f.GetNics()[0]->GetDevice()->SetAttribute("ReceiveErrorModel",
                                                  PointerValue(Create<PsnDropModel>(10, 1)));
        auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[1]);
        qa->PostSend(Read(packets * 1024));
        Simulator::Run();
        const bool ok = completions.size() == 1 && completions[0].status == RdmaWcStatus::Success;
        ExpectEveryByteOnce(kLocal, packets * 1024);
        ReadLossResult r{qb->GetCounters().retransmittedPackets, qb->GetCounters().payloadBytesSent,
                         qa->GetCounters().readResponsesOutOfOrder, qa->GetCounters().timeouts, ok};
        Simulator::Destroy();
        completions.clear();
        placed.clear();
        order.clear();
        return r;
    }
};

TEST_F(ReadResponseLossTest, SelectiveRepeatReFetchesOnlyTheLostResponse)
{
    for (const char* sr : {"ns3::RdmaSelectiveRepeat", "ns3::RdmaSrnicSelectiveRepeat"})
    {
        for (bool ext : {false, true})
        {
            const ReadLossResult r = Run(sr, ext);
            SCOPED_TRACE(std::string(sr) + (ext ? " with extensions" : " plain"));
            EXPECT_TRUE(r.ok);
            EXPECT_EQ(r.resentResponses, 1u);
            EXPECT_EQ(r.responsePayload, 33u * 1024);
            EXPECT_EQ(r.outOfOrderPlaced, 21u); // PSNs 11..31
            EXPECT_EQ(r.timeouts, 0u);
        }
    }
}

// A READ of more response PSNs than the reordering window (BdpCap 16, 64 responses): BDP-FC
// asks for at most 16 responses in flight (several READ requests), so the responses held
// out of order behind the lost one never exceed the window, and only the lost one is
// fetched again. (Before BDP-FC counted READ responses, one request asked for all 64 and
// more than 16 were held out of order.)
TEST_F(ReadResponseLossTest, AReadLongerThanTheWindowReFetchesOnlyTheLostResponse)
{
    bdpCap = 16;
    const ReadLossResult r = Run("ns3::RdmaSelectiveRepeat", true, 64);
    EXPECT_TRUE(r.ok);
    EXPECT_EQ(r.resentResponses, 1u);
    EXPECT_GT(r.outOfOrderPlaced, 0u);
    EXPECT_LE(r.outOfOrderPlaced, 15u); // the window less the lost response
    EXPECT_EQ(r.timeouts, 0u);
}

TEST_F(ReadResponseLossTest, GoBackNReFetchesFromTheLostResponseToTheEnd)
{
    const ReadLossResult r = Run("ns3::RdmaGoBackN", false);
    EXPECT_TRUE(r.ok);
    // Everything from PSN 10 to 31 comes again (22 responses).
    EXPECT_EQ(r.resentResponses, 22u);
    EXPECT_EQ(r.responsePayload, (32u + 22u) * 1024);
    EXPECT_EQ(r.outOfOrderPlaced, 0u);
}

} // namespace
