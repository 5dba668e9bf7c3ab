// GoalRdmaTransport: GOAL schedules over RDMA queue pairs on a star of hosts (100 Gb/s,
// 1 us links), their makespans against their bytes at line rate.
#include "ns3/dcb-helper.h"
#include "ns3/goal-executor.h"
#include "ns3/goal-rdma-transport.h"
#include "ns3/goal-schedule-reader.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-leaf-spine-fabric.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

void
StopNow()
{
    Simulator::Stop();
}

class GoalRdmaTransportTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /** Run \p text with rank r on host r of a star of \p hosts; \return the executor. */
    Ptr<GoalExecutor> Run(const std::string& text, uint32_t hosts,
                          uint64_t maxWriteBytes = uint64_t{1} << 30)
    {
        RdmaLeafSpineFabric fabric =
            RdmaLeafSpineFabric::Star(hosts, DataRate("100Gbps"), MicroSeconds(1));
        fabric.Build(DcbHelper(), RdmaHelper());
        m_transport = CreateObject<GoalRdmaTransport>();
        m_transport->SetAttribute("MaxWriteBytes", UintegerValue(maxWriteBytes));
        m_transport->Setup(fabric.GetNics());
        GoalSchedule schedule = GoalScheduleReader::ReadString(text, "t.goal");
        std::vector<uint32_t> hostOfRank;
        for (uint32_t r = 0; r < schedule.GetNRanks(); ++r)
        {
            hostOfRank.push_back(r);
        }
        Ptr<GoalExecutor> executor = CreateObject<GoalExecutor>();
        executor->Setup(std::move(schedule), hostOfRank, m_transport);
        executor->SetDoneCallback(MakeCallback(&StopNow));
        Simulator::ScheduleNow(&GoalExecutor::Start, executor);
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        return executor;
    }

    Ptr<GoalRdmaTransport> m_transport;
};

/** A ring all-reduce of \p n ranks, \p bytes per step, no computation. */
std::string
Ring(uint32_t n, uint64_t bytes)
{
    std::string text = "num_ranks " + std::to_string(n) + "\n";
    for (uint32_t r = 0; r < n; ++r)
    {
        text += "rank " + std::to_string(r) + " {\n";
        for (uint32_t k = 0; k < 2 * (n - 1); ++k)
        {
            const std::string s = "s" + std::to_string(k);
            const std::string v = "r" + std::to_string(k);
            text += s + ": send " + std::to_string(bytes) + "b to " + std::to_string((r + 1) % n) +
                    " tag " + std::to_string(k) + "\n";
            text += v + ": recv " + std::to_string(bytes) + "b from " +
                    std::to_string((r + n - 1) % n) + " tag " + std::to_string(k) + "\n";
            text += k > 0 ? s + " requires r" + std::to_string(k - 1) + "\n" : "";
        }
        text += "}\n";
    }
    return text;
}

TEST_F(GoalRdmaTransportTest, RingAllreduceOfFourHostsRunsNearLineRate)
{
    // 6 steps of 256 KiB per rank, each step bound by one host link: at least
    // 6 x 262144 B x 8 / 100 Gb/s = 125.83 us. Headers (RoCEv2 over Ethernet, 1 KB MTU) add
    // under 10 %, and each step waits for the last packet's trip (two 1 us links): at most
    // 6 x (1.1 x 20.97 + 5) us.
    const uint64_t bytes = 262144;
    Ptr<GoalExecutor> e = Run(Ring(4, bytes), 4);
    ASSERT_TRUE(e->IsDone()) << e->DescribeStalled(10);
    const double lineRateUs = 6.0 * bytes * 8 / 100e3;
    const double us = e->GetMakespan().GetSeconds() * 1e6;
    EXPECT_GT(us, lineRateUs);
    EXPECT_LT(us, 6.0 * (1.1 * lineRateUs / 6 + 5.0));
    EXPECT_EQ(m_transport->GetNConnections(), 4u); // each host to its successor
    EXPECT_EQ(m_transport->GetNFailed(), 0u);
    for (uint32_t r = 0; r < 4; ++r)
    {
        EXPECT_EQ(e->GetRankFinish(r), e->GetMakespan()) << "rank " << r;
    }
}

TEST_F(GoalRdmaTransportTest, LargeMessagesGoAsSeveralWritesInOrder)
{
    // Rank 0 sends 1 MB then 8 B to rank 1 with one tag; WRITEs of at most 300 KB carry
    // them. The recvs take them in order; the makespan is the bytes at line rate and more.
    Ptr<GoalExecutor> e = Run("num_ranks 2\nrank 0 {\na: send 1000000b to 1\nb: send 8b to "
                              "1\n}\nrank 1 {\nx: recv 1000000b from 0\ny: recv 8b from 0\n}\n",
                              2, 300000);
    ASSERT_TRUE(e->IsDone()) << e->DescribeStalled(10);
    EXPECT_EQ(e->GetMatch(2), 0u);
    EXPECT_EQ(e->GetMatch(3), 1u);
    EXPECT_LT(e->GetOpEnd(2), e->GetOpEnd(3));
    EXPECT_GT(e->GetMakespan(), MicroSeconds(80)); // 1 MB at 100 Gb/s
    EXPECT_LT(e->GetMakespan(), MicroSeconds(100));
    EXPECT_EQ(m_transport->GetNConnections(), 1u);
}

} // namespace
} // namespace ns3
