// HPCC under per-packet load balancing: consecutive ACKs of a QP echo INT records of
// different switch ports at the same hop index, whose differences are no rates. The
// shipped permutation (configs/load-balancing-permutation.json) with HPCC instead of DCQCN,
// RdmaHpcc's SampleCheck on and off. Measured numbers: contrib/dcb/doc/load-balancing.md,
// "HPCC under spraying".
#include "permutation-outcome.h"

#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <string>

namespace ns3
{
namespace
{

using Outcome = test::PermutationOutcome;

class HpccSprayingScenarioTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /**
     * The shipped permutation (every host writes to the same host index on the next leaf,
     * selective-repeat receivers with ReorderThreshold 32) with HPCC (BaseRtt 9.5 us: four
     * 1 us links each way and the 4 KB frames' serialization) and \p balancer on every
     * switch ("": none, ECMP); \p sampleCheck: RdmaHpcc's SampleCheck.
     */
    static Outcome Run(const std::string& name, const std::string& balancer, bool sampleCheck)
    {
        nlohmann::json j = test::Shipped("load-balancing-permutation.json");
        j["progress"] = false;
        j["cc"] = {{"type", "ns3::RdmaHpcc"}, {"BaseRtt", "9500ns"}, {"SampleCheck", sampleCheck}};
        if (balancer.empty())
        {
            j.erase("load_balancing");
        }
        else
        {
            j["load_balancing"][0]["balancer"]["type"] = balancer;
        }
        return Outcome::Run(j, name, !balancer.empty());
    }
};

TEST_F(HpccSprayingScenarioTest, SampleCheckKeepsHpccWorkingWhenPacketsTakeManyPaths)
{
    // Measured (2026-12-07; fraction of the 16 x 100 Gb/s bisection delivered in 500 us):
    //   ECMP                              0.647, SampleCheck on or off (identical runs)
    //   random spraying, SampleCheck off  0.040
    //   random spraying, SampleCheck on   0.724
    //   adaptive routing, SampleCheck off 0.044
    //   adaptive routing, SampleCheck on  0.819
    // (DCQCN on the same runs: ECMP 0.658, spraying 0.820, adaptive 0.938.)
    const std::string spray = "ns3::SprayLoadBalancer";
    const std::string adaptive = "ns3::AdaptiveLoadBalancer";
    const Outcome ecmp = Run("hpcc-ecmp", "", true);
    const Outcome ecmpUnchecked = Run("hpcc-ecmp-unchecked", "", false);
    const Outcome sprayUnchecked = Run("hpcc-spray-unchecked", spray, false);
    const Outcome sprayChecked = Run("hpcc-spray", spray, true);
    const Outcome adaptiveUnchecked = Run("hpcc-adaptive-unchecked", adaptive, false);
    const Outcome adaptiveChecked = Run("hpcc-adaptive", adaptive, true);

    // Control: on one path per flow no sample is refused, so the check changes nothing.
    EXPECT_EQ(ecmp.fraction, ecmpUnchecked.fraction);
    EXPECT_EQ(ecmp.slowest, ecmpUnchecked.slowest);
    EXPECT_GT(ecmp.fraction, 0.55);
    EXPECT_LT(ecmp.fraction, 0.78);
    // The paper's rule under per-packet balancing: a difference of two ports' transmit
    // counters (modulo 2^20 units of 128 bytes) reads as a rate far above the line rate,
    // U is huge and every window falls to its floor.
    EXPECT_LT(sprayUnchecked.fraction, 0.15);
    EXPECT_LT(adaptiveUnchecked.fraction, 0.15);
    // With the check the impossible samples are refused and U comes from the hops whose
    // consecutive records are one port's: HPCC delivers more than under ECMP.
    EXPECT_GT(sprayChecked.fraction, 0.65);
    EXPECT_GT(sprayChecked.fraction, ecmp.fraction);
    EXPECT_GT(adaptiveChecked.fraction, 0.75);
    EXPECT_GT(adaptiveChecked.fraction, ecmp.fraction + 0.1);
}

} // namespace
} // namespace ns3
