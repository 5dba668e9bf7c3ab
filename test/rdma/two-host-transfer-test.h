// A fixture for transfers between two hosts on one switch: completions and every placed
// byte recorded, and a check that each byte of a range was placed exactly once.
#ifndef TWO_HOST_TRANSFER_TEST_H
#define TWO_HOST_TRANSFER_TEST_H

#include "rdma-test-fabric.h"

#include "ns3/rdma-work-request.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <map>
#include <vector>

namespace ns3
{

/** Two hosts on one switch (100 Gb/s, 1 us), both NICs' completions and placements traced. */
class TwoHostTransferTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /** The fabric, built with this fixture's \c dcb and \c rdma helpers. */
    RdmaLeafSpineFabric TwoHosts()
    {
        RdmaLeafSpineFabric f = BuildStar(2, "100Gbps", MicroSeconds(1), dcb, rdma);
        for (auto& nic : f.GetNics())
        {
            nic->TraceConnectWithoutContext("Completion",
                                            MakeCallback(&TwoHostTransferTest::OnCompletion, this));
            nic->TraceConnectWithoutContext("DataPlaced",
                                            MakeCallback(&TwoHostTransferTest::OnPlaced, this));
        }
        return f;
    }

    /** Every byte of [base, base + length) placed once, and no byte outside it. */
    void ExpectEveryByteOnce(uint64_t base, uint64_t length)
    {
        uint64_t missing = 0;
        uint64_t duplicated = 0;
        for (uint64_t a = base; a < base + length; ++a)
        {
            auto it = placed.find(a);
            if (it == placed.end())
            {
                missing++;
            }
            else if (it->second != 1)
            {
                duplicated++;
            }
        }
        EXPECT_EQ(missing, 0u);
        EXPECT_EQ(duplicated, 0u);
        EXPECT_EQ(placed.size(), length);
    }

    DcbHelper dcb;
    RdmaHelper rdma;
    std::vector<RdmaCompletion> completions;
    std::map<uint64_t, uint32_t> placed; //!< times each byte address was placed

  private:
    void OnCompletion(const RdmaCompletion& c) { completions.push_back(c); }

    void OnPlaced(uint32_t, uint64_t addr, uint32_t bytes)
    {
        for (uint32_t i = 0; i < bytes; ++i)
        {
            placed[addr + i]++;
        }
    }
};

} // namespace ns3

#endif // TWO_HOST_TRANSFER_TEST_H
