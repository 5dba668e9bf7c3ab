// Copy-based vs zero-copy transport (zero-copy dataflow, APNet'17 §2): large buffers copy at
// 2-4 GB/s, far below an RDMA NIC, so the copies, not the network, set the transfer time.
#include "rdma-test-fabric.h"

#include "ns3/memory-copy.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <optional>

using namespace ns3;

namespace
{

constexpr uint64_t BUFFER = 32000000; // bytes: a 32 MB tensor

class MemoryCopyTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /// \return the goodput (Gb/s) of moving BUFFER from host 0 to host 1's application.
    double Transfer(bool copy)
    {
        DcbHelper dcb;
        RdmaHelper rdma;
        fabric = BuildStar(2, "100Gbps", MicroSeconds(1), dcb, rdma);
        sender = CreateObject<MemoryCopy>();
        receiver = CreateObject<MemoryCopy>();
        qp = RdmaHelper::Connect(fabric->GetNics()[0], fabric->GetNics()[1]).first;
        fabric->GetNics()[0]->TraceConnectWithoutContext(
            "Completion", MakeCallback(&MemoryCopyTest::OnCompletion, this));
        copying = copy;
        if (copy)
        {
            // Into the transport's registered buffer, then WRITE, then out at the receiver.
            sender->Copy(BUFFER, MakeCallback(&MemoryCopyTest::Post, this));
        }
        else
        {
            Post();
        }
        Simulator::Run();
        return BUFFER * 8.0 / done.GetSeconds() / 1e9;
    }

    void Post()
    {
        RdmaWorkRequest wr;
        wr.verb = RdmaVerb::Write;
        wr.length = BUFFER;
        qp->PostSend(wr);
    }

    void OnCompletion(const RdmaCompletion& c)
    {
        if (c.receive)
        {
            return;
        }
        if (copying)
        {
            receiver->Copy(BUFFER, MakeCallback(&MemoryCopyTest::Done, this));
        }
        else
        {
            Done();
        }
    }

    void Done() { done = Simulator::Now(); }

    std::optional<RdmaLeafSpineFabric> fabric;
    Ptr<MemoryCopy> sender;
    Ptr<MemoryCopy> receiver;
    Ptr<RdmaQueuePair> qp;
    bool copying{false};
    Time done;
};

TEST_F(MemoryCopyTest, SmallBuffersCopyFromCacheLargeFromMemory)
{
    auto m = CreateObject<MemoryCopy>();
    EXPECT_NEAR(m->GetCopyTime(4096).GetSeconds(), 163.84e-9, 1e-11); // 25 GB/s
    EXPECT_NEAR(m->GetCopyTime(BUFFER).GetSeconds(), 0.01067, 1e-5);  // 3 GB/s
}

TEST_F(MemoryCopyTest, CopiesDominateALargeTransfer)
{
    const double zeroCopy = Transfer(false);
    Simulator::Destroy();
    const double copyBased = Transfer(true);
    EXPECT_GT(zeroCopy, 85.0); // the 100 Gb/s wire
    // Two 3 GB/s copies around the network transfer: 1 / (2 / 24 + 1 / zeroCopy) Gb/s.
    const double expected = 1.0 / (2.0 / 24.0 + 1.0 / zeroCopy);
    EXPECT_NEAR(copyBased, expected, 0.02 * expected);
    EXPECT_GT(zeroCopy / copyBased, 8.0);
    EXPECT_EQ(sender->GetBytesCopied(), BUFFER);
}

} // namespace
