// NIC-side entropy on the hash-collision permutation (configs/load-balancing-permutation.json
// with "load_balancing" [{"hosts": "all", "entropy": ...}] instead of the switches' spraying):
// oblivious entropy sprays like the switches do; REPS recycles the values whose ACKs came back
// unmarked, and so routes around a slow or failed uplink that oblivious spraying keeps
// feeding. Measured numbers: contrib/dcb/doc/load-balancing.md, "NIC-side entropy".
#include "output-file-reader.h"
#include "permutation-outcome.h"

#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <string>

namespace ns3
{
namespace
{

using Outcome = test::PermutationOutcome;

class PathEntropyScenarioTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /**
     * The shipped permutation (16 flows, each leaf's 4 on its 4 uplinks, DCQCN, selective
     * repeat with ReorderThreshold 32) with every NIC's entropy of type \p entropy ("":
     * none, ECMP on the QPs' ports) and no switch balancer, under \p faults if given.
     */
    static Outcome Run(const std::string& name, const std::string& entropy,
                       const nlohmann::json& faults = nlohmann::json())
    {
        nlohmann::json j = test::Shipped("load-balancing-permutation.json");
        j["progress"] = false;
        j.erase("load_balancing");
        if (!entropy.empty())
        {
            j["load_balancing"] = {{{"hosts", "all"}, {"entropy", {{"type", entropy}}}}};
        }
        if (!faults.is_null())
        {
            j["faults"] = faults;
        }
        return Outcome::Run(j, name, !entropy.empty());
    }
};

const std::string OPS = "ns3::ObliviousPathEntropy";
const std::string REPS = "ns3::RepsPathEntropy";

TEST_F(PathEntropyScenarioTest, NicEntropyBeatsEcmpOnTheCollidingPermutation)
{
    // Measured (2026-12-07): ECMP 0.658 (slowest 0.267, hash-collision test), oblivious
    // entropy 0.818 (slowest 0.715), REPS 0.848 (slowest 0.746).
    const Outcome ops = Run("entropy-ops", OPS);
    const Outcome reps = Run("entropy-reps", REPS);
    EXPECT_GT(ops.fraction, 0.76);
    EXPECT_LT(ops.fraction, 0.88);
    EXPECT_GT(ops.slowest, 0.6);
    EXPECT_GT(reps.fraction, 0.78);
    EXPECT_GT(reps.slowest, 0.6);
}

TEST_F(PathEntropyScenarioTest, RepsRoutesAroundASlowAndAFailedUplink)
{
    // Leaf s0 - spine s4 at 25 Gb/s from 1 us. Measured (2026-12-07): ECMP 0.543 (slowest
    // 0.209), oblivious 0.495 (0.161), REPS 0.653 (0.397). Oblivious entropy keeps a quarter
    // of leaf s0's packets, and of those into it through s4, on the slow link; REPS stops
    // recycling the values whose ACKs come back marked or late and keeps the fast paths.
    const nlohmann::json slow = nlohmann::json::parse(
        R"({"events": [{"time": "1us", "kind": "link_rate", "link": ["s0", "s4"],
                        "rate": "25Gbps"}]})");
    const Outcome ecmp = Run("slow-entropy-none", "", slow);
    const Outcome ops = Run("slow-entropy-ops", OPS, slow);
    const Outcome reps = Run("slow-entropy-reps", REPS, slow);
    EXPECT_LT(ops.fraction, 0.56);
    EXPECT_LT(ops.fraction, ecmp.fraction + 0.02);
    EXPECT_LT(ops.slowest, 0.25);
    EXPECT_GT(reps.fraction, 0.6);
    EXPECT_GT(reps.fraction, ops.fraction + 0.1);
    EXPECT_GT(reps.slowest, 0.3);

    // The same link down from 1 us: remote spines still hash into s4 for leaf s0, which drops
    // (no route). Measured: oblivious 0.561 (slowest 0.002), REPS 0.667 (slowest 0.146): the
    // values through s4 never come back, so REPS stops using them after exploring them once.
    const nlohmann::json down = nlohmann::json::parse(
        R"({"events": [{"time": "1us", "kind": "link_down", "link": ["s0", "s4"]}]})");
    const Outcome opsDown = Run("down-entropy-ops", OPS, down);
    const Outcome repsDown = Run("down-entropy-reps", REPS, down);
    EXPECT_LT(opsDown.fraction, 0.62);
    EXPECT_GT(repsDown.fraction, opsDown.fraction + 0.05);
    EXPECT_LT(opsDown.slowest, 0.05);
    EXPECT_GT(repsDown.slowest, 0.08);
}

} // namespace
} // namespace ns3
