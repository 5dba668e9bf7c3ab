// RoCEv2 frames that are not the common kind (tagged, 20-byte IPv4 header) reach a NIC through
// a switch and are delivered: every frame either NIC sends is rewritten on its way into the
// switch (its 802.1Q tag taken off, or IPv4 options added), the switch forwards it and the
// other NIC must take it as it takes the original (a WRITE completes, nothing is dropped).
#include "rdma-test-fabric.h"

#include "ns3/dcb-frame-record.h"
#include "ns3/rdma-work-request.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** Ones' complement checksum of \p n bytes. */
uint16_t
Checksum(const uint8_t* p, uint32_t n)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i + 1 < n; i += 2)
    {
        sum += (uint32_t(p[i]) << 8) | p[i + 1];
    }
    while (sum >> 16)
    {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return static_cast<uint16_t>(~sum);
}

enum class Rewrite
{
    NONE,
    UNTAG,   //!< take the 802.1Q tag off
    OPTIONS, //!< add 8 bytes of IPv4 options (IHL 7)
};

class RdmaNicFrameKindsTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /** Two hosts on a switch, \p cc, a WRITE of 30000 bytes from host 0 to host 1. */
    void Run(Rewrite rewrite, const std::string& cc = "ns3::RdmaDcqcn")
    {
        m_rewrite = rewrite;
        DcbHelper dcb;
        RdmaHelper rdma;
        rdma.SetCongestionControl(cc);
        RdmaLeafSpineFabric f = BuildStar(2, "100Gbps", MicroSeconds(1), dcb, rdma);
        m_switch = f.GetSwitch(0);
        m_nics = f.GetNics();
        for (uint32_t p = 0; p < m_switch->GetNPorts(); ++p)
        {
            m_switch->GetPort(p)->SetDcbFrameReceiveCallback(
                MakeCallback(&RdmaNicFrameKindsTest::OnFrame, this));
        }
        m_nics[0]->TraceConnectWithoutContext(
            "Completion", MakeCallback(&RdmaNicFrameKindsTest::OnCompletion, this));
        auto [qa, qb] = RdmaHelper::Connect(m_nics[0], m_nics[1]);
        RdmaWorkRequest wr;
        wr.verb = RdmaVerb::Write;
        wr.length = 30000;
        qa->PostSend(wr);
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
    }

    void OnCompletion(const RdmaCompletion& c) { m_completions.push_back(c); }

    void OnFrame(Ptr<DcbNetDevice> port, Ptr<Packet> frame, const DcbFrameRecord& record)
    {
        ASSERT_FALSE(record.IsDirty()); // straight from a NIC: the bytes are current
        std::vector<uint8_t> b(frame->GetSize());
        frame->CopyData(b.data(), b.size());
        ASSERT_GE(b.size(), 18u + 20u);
        ASSERT_EQ(b[18], 0x45);
        if (m_rewrite == Rewrite::UNTAG)
        {
            b.erase(b.begin() + 12, b.begin() + 16);
        }
        else if (m_rewrite == Rewrite::OPTIONS)
        {
            constexpr uint32_t IP = 18;
            const uint8_t options[8] = {0x01, 0x01, 0x94, 0x04, 0x00, 0x00, 0x01, 0x00};
            b.insert(b.begin() + IP + 20, options, options + 8);
            b[IP] = 0x47;
            const uint32_t total = ((b[IP + 2] << 8) | b[IP + 3]) + 8;
            b[IP + 2] = static_cast<uint8_t>(total >> 8);
            b[IP + 3] = static_cast<uint8_t>(total);
            b[IP + 10] = 0;
            b[IP + 11] = 0;
            const uint16_t sum = Checksum(b.data() + IP, 28);
            b[IP + 10] = static_cast<uint8_t>(sum >> 8);
            b[IP + 11] = static_cast<uint8_t>(sum);
        }
        Ptr<Packet> rewritten = Create<Packet>(b.data(), b.size());
        const DcbFrameRecord parsed = DcbFrameRecord::Parse(rewritten, record);
        // The record of the rewritten frame holds the same fields.
        EXPECT_TRUE(parsed.IsIpv4());
        EXPECT_EQ(parsed.IsTagged(), m_rewrite != Rewrite::UNTAG);
        EXPECT_EQ(parsed.ipBytes, record.ipBytes + (m_rewrite == Rewrite::OPTIONS ? 8 : 0));
        EXPECT_EQ(parsed.src, record.src);
        EXPECT_EQ(parsed.dst, record.dst);
        EXPECT_EQ(parsed.sport, record.sport);
        EXPECT_EQ(parsed.dport, record.dport);
        EXPECT_EQ(parsed.protocol, record.protocol);
        EXPECT_EQ(parsed.dscp, record.dscp);
        EXPECT_EQ(parsed.ecn, record.ecn);
        EXPECT_EQ(parsed.ttl, record.ttl);
        EXPECT_EQ(parsed.intCapacity, record.intCapacity);
        EXPECT_EQ(parsed.intHops, record.intHops);
        EXPECT_EQ(parsed.wireBytes, record.wireBytes);
        m_frames++;
        m_withInt += record.intCapacity != 0;
        m_switch->ReceiveFrame(port, rewritten, parsed);
    }

    uint64_t SwitchDrops() const
    {
        uint64_t n = 0;
        for (uint8_t r = 0; r < DcbSwitch::N_DROP_REASONS; ++r)
        {
            n += m_switch->GetDrops(static_cast<DcbSwitch::DropReason>(r));
        }
        return n;
    }

    /** The WRITE completed, every frame was forwarded and taken by its NIC. */
    void ExpectDelivered()
    {
        ASSERT_EQ(m_completions.size(), 1u);
        EXPECT_EQ(m_completions[0].status, RdmaWcStatus::Success);
        EXPECT_EQ(m_completions[0].bytes, 30000u);
        EXPECT_GT(m_frames, 30u); // 30 data frames and their ACKs
        EXPECT_EQ(m_switch->GetForwarded(), m_frames);
        EXPECT_EQ(SwitchDrops(), 0u);
        EXPECT_EQ(m_nics[0]->GetDroppedNoQp(), 0u);
        EXPECT_EQ(m_nics[1]->GetDroppedNoQp(), 0u);
    }

    Rewrite m_rewrite{Rewrite::NONE};
    Ptr<DcbSwitch> m_switch;
    std::vector<Ptr<RdmaNic>> m_nics;
    std::vector<RdmaCompletion> m_completions;
    uint64_t m_frames{0};
    uint64_t m_withInt{0};
};

TEST_F(RdmaNicFrameKindsTest, TaggedFramesAreDelivered)
{
    Run(Rewrite::NONE);
    ExpectDelivered();
}

TEST_F(RdmaNicFrameKindsTest, UntaggedFramesAreRetaggedAndDelivered)
{
    Run(Rewrite::UNTAG);
    ExpectDelivered();
}

TEST_F(RdmaNicFrameKindsTest, FramesWithIpv4OptionsAreDelivered)
{
    Run(Rewrite::OPTIONS);
    ExpectDelivered();
}

TEST_F(RdmaNicFrameKindsTest, HpccFramesWithIpv4OptionsCarryTheirInt)
{
    Run(Rewrite::OPTIONS, "ns3::RdmaHpcc");
    ExpectDelivered();
    EXPECT_GT(m_withInt, 25u);
}

} // namespace
