// The record a NIC hands its port with each frame (so that the first switch need not parse
// the frame) holds exactly what DcbFrameRecord::Parse reads from the frame's bytes: data,
// ACK and CNP frames, with DCQCN and with HPCC's INT, WRITE and READ.
#include "rdma-test-fabric.h"

#include "ns3/dcb-frame-record.h"
#include "ns3/rdma-work-request.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <string>

using namespace ns3;

namespace
{

class RoceNicRecordTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /** Two hosts on a switch; every frame the switch receives is checked, then switched. */
    void Run(const std::string& cc, RdmaVerb verb)
    {
        DcbHelper dcb;
        RdmaHelper rdma;
        rdma.SetCongestionControl(cc);
        RdmaLeafSpineFabric f = BuildStar(2, "100Gbps", MicroSeconds(1), dcb, rdma);
        m_switch = f.GetSwitch(0);
        for (uint32_t p = 0; p < m_switch->GetNPorts(); ++p)
        {
            m_switch->GetPort(p)->SetDcbFrameReceiveCallback(
                MakeCallback(&RoceNicRecordTest::OnFrame, this));
        }
        auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[1]);
        RdmaWorkRequest wr;
        wr.verb = verb;
        wr.length = 300000;
        qa->PostSend(wr);
        Simulator::Run();
    }

    void OnFrame(Ptr<DcbNetDevice> port, Ptr<Packet> frame, const DcbFrameRecord& record)
    {
        const DcbFrameRecord parsed = DcbFrameRecord::Parse(frame);
        EXPECT_TRUE(record.IsParsed());
        EXPECT_EQ(record.flags, parsed.flags);
        EXPECT_EQ(record.src, parsed.src);
        EXPECT_EQ(record.dst, parsed.dst);
        EXPECT_EQ(record.sport, parsed.sport);
        EXPECT_EQ(record.dport, parsed.dport);
        EXPECT_EQ(record.etherType, parsed.etherType);
        EXPECT_EQ(record.vid, parsed.vid);
        EXPECT_EQ(record.ipBytes, parsed.ipBytes);
        EXPECT_EQ(record.protocol, parsed.protocol);
        EXPECT_EQ(record.dscp, parsed.dscp);
        EXPECT_EQ(record.ecn, parsed.ecn);
        EXPECT_EQ(record.ttl, parsed.ttl);
        EXPECT_EQ(record.pcp, parsed.pcp);
        EXPECT_EQ(record.intCapacity, parsed.intCapacity);
        EXPECT_EQ(record.intHops, parsed.intHops);
        EXPECT_EQ(record.ethSrc, parsed.ethSrc);
        EXPECT_EQ(record.ethDst, parsed.ethDst);
        m_frames++;
        m_withInt += record.intCapacity != 0;
        m_ce += record.ecn == 3;
        m_switch->ReceiveFrame(port, frame, record);
    }

    Ptr<DcbSwitch> m_switch;
    uint32_t m_frames{0};
    uint32_t m_withInt{0};
    uint32_t m_ce{0};
};

TEST_F(RoceNicRecordTest, DcqcnWriteFramesAndAcks)
{
    Run("ns3::RdmaDcqcn", RdmaVerb::Write);
    EXPECT_GT(m_frames, 300u); // about 300 data frames and their ACKs
    EXPECT_EQ(m_withInt, 0u);
}

TEST_F(RoceNicRecordTest, HpccFramesCarryTheirIntCapacity)
{
    Run("ns3::RdmaHpcc", RdmaVerb::Write);
    EXPECT_GT(m_frames, 300u);
    EXPECT_GT(m_withInt, 250u);
}

TEST_F(RoceNicRecordTest, ReadRequestsAndResponses)
{
    Run("ns3::RdmaDcqcn", RdmaVerb::Read);
    EXPECT_GT(m_frames, 250u);
}

} // namespace
