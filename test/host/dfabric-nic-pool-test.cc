// DFabric (arXiv 2409.05404) Fig. 2 trends: a ring allreduce between two racks whose hosts share
// a CXL-attached NIC pool; more NICs shorten it almost linearly until the memory pool's
// bandwidth binds, and a reduced memory bandwidth caps the gain of a large pool.
#include "rdma-test-fabric.h"

#include "ns3/host-model.h"
#include "ns3/host-preset-helper.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr uint64_t MODEL = 8000000; // allreduce bytes

class DfabricNicPoolTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /**
     * Two racks, each a pool of \p nics NICs over CXL to a memory pool of \p channels DDR4
     * channels; the ring's inter-rack steps go through the pools (intra-rack steps pass
     * references over CXL and cost no network time). Two steps (reduce-scatter, allgather) of
     * MODEL / 2 bytes each way, split evenly into one subflow per NIC (equal queue depths).
     * \return the communication time.
     */
    Time Run(uint32_t nics, uint32_t channels)
    {
        DcbHelper dcb;
        RdmaHelper rdma;
        rdma.SetQueuePairAttribute("Mtu", UintegerValue(4096));
        RdmaTestFabric f = RdmaTestFabric::Star(2 * nics, "100Gbps", MicroSeconds(1), dcb, rdma);
        Ptr<HostModel> rack[2] = {HostPresetHelper().CreateDfabricRack(nics, channels),
                                  HostPresetHelper().CreateDfabricRack(nics, channels)};
        qps.clear();
        for (uint32_t k = 0; k < nics; ++k)
        {
            const std::string nic = "nic" + std::to_string(k);
            EXPECT_EQ(f.nics[k]->SetHostModel(rack[0], nic, "mempool"), "");
            EXPECT_EQ(f.nics[nics + k]->SetHostModel(rack[1], nic, "mempool"), "");
            auto [a, b] = RdmaHelper::Connect(f.nics[k], f.nics[nics + k]);
            qps.push_back(a);
            qps.push_back(b);
            f.nics[k]->TraceConnectWithoutContext(
                "Completion", MakeCallback(&DfabricNicPoolTest::OnCompletion, this));
            f.nics[nics + k]->TraceConnectWithoutContext(
                "Completion", MakeCallback(&DfabricNicPoolTest::OnCompletion, this));
        }
        steps = 0;
        StartStep();
        Simulator::Run();
        EXPECT_EQ(steps, 2u);
        return finish;
    }

    void StartStep()
    {
        pending = qps.size();
        const uint64_t share = MODEL / 2 / (qps.size() / 2);
        for (auto& qp : qps)
        {
            RdmaWorkRequest wr;
            wr.verb = RdmaVerb::Write;
            wr.length = share;
            qp->PostSend(wr);
        }
    }

    void OnCompletion(const RdmaCompletion& c)
    {
        if (c.receive || --pending > 0)
        {
            return;
        }
        if (++steps < 2)
        {
            StartStep();
        }
        else
        {
            finish = Simulator::Now();
        }
    }

    std::vector<Ptr<RdmaQueuePair>> qps;
    uint32_t pending{0};
    uint32_t steps{0};
    Time finish;
};

TEST_F(DfabricNicPoolTest, PoolScalesUntilMemoryBinds)
{
    // Memory pool of 16 DDR4-3200 channels (3.3 Tb/s) outruns ten 100 Gb/s NICs sending and
    // receiving at once (~1.9 Tb/s): the time falls almost as 1/n.
    const double t1 = Run(1, 16).GetSeconds();
    Simulator::Destroy();
    const double t2 = Run(2, 16).GetSeconds();
    Simulator::Destroy();
    const double t10 = Run(10, 16).GetSeconds();
    Simulator::Destroy();
    EXPECT_NEAR(t1 / t2, 2.0, 0.15);
    EXPECT_GT(t1 / t10, 7.5);
    // Reduced memory bandwidth: two channels, 409.6 Gb/s for reads and writes together, i.e.
    // ~205 Gb/s each way: beyond two NICs the pool no longer helps.
    const double r2 = Run(2, 2).GetSeconds();
    Simulator::Destroy();
    const double r10 = Run(10, 2).GetSeconds();
    EXPECT_NEAR(r10 / r2, 1.0, 0.15);
    EXPECT_GT(r10 / t10, 3.5); // ~ (10 x 92) / 205
}

} // namespace
