// Husky OSDI'23 §3.3 (Fig. 4, ConnectX-5): verbs share the RNIC's processing units, so a
// tenant issuing expensive verbs (atomics) starves a colocated tenant's cheap verbs.
#include "ns3/closed-loop-window.h"
#include "ns3/nic-processing-units.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr uint32_t OUTSTANDING = 8; //!< per tenant: Husky runs 8 QPs on 8 cores per workload
const Time MEASURE = MicroSeconds(200);

class HuskyProcessingUnitsTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /// A closed-loop tenant: every completed request is replaced at once.
    struct Tenant
    {
        Ptr<NicProcessingUnits> pu;
        NicProcessingUnits::Verb verb;
        uint32_t id;
        ClosedLoopWindow requests{};

        void Issue(uint64_t /* k */) { pu->Submit(verb, id, MakeCallback(&Tenant::Done, this)); }

        void Done() { requests.Complete(); }
    };

    /// \return the request rates (Mrps) of a victim and, if any, an attacker.
    std::pair<double, double> Run(NicProcessingUnits::Verb victim, int attacker)
    {
        auto pu = CreateObject<NicProcessingUnits>();
        tenants.push_back({pu, victim, 0});
        if (attacker >= 0)
        {
            tenants.push_back({pu, static_cast<NicProcessingUnits::Verb>(attacker), 1});
        }
        for (auto& t : tenants)
        {
            t.requests = ClosedLoopWindow(OUTSTANDING, ClosedLoopWindow::UNLIMITED,
                                          MakeCallback(&Tenant::Issue, &t));
            t.requests.Start();
        }
        Simulator::Stop(MEASURE);
        Simulator::Run();
        const double s = MEASURE.GetSeconds() * 1e6;
        return {pu->GetProcessed(0) / s, pu->GetProcessed(1) / s};
    }

    std::vector<Tenant> tenants = std::vector<Tenant>();

    void SetUp() override { tenants.reserve(2); }
};

TEST_F(HuskyProcessingUnitsTest, VerbsAloneReachTheirRates)
{
    EXPECT_NEAR(Run(NicProcessingUnits::READ, -1).first, 60.0, 2.0); // Husky: ~60 Mrps
}

TEST_F(HuskyProcessingUnitsTest, WriteAloneExceedsNinetyMrps)
{
    EXPECT_GT(Run(NicProcessingUnits::WRITE, -1).first, 89.0); // "more than 90 Mrps"
}

TEST_F(HuskyProcessingUnitsTest, ReadAgainstReadHalves)
{
    auto [victim, attacker] = Run(NicProcessingUnits::READ, NicProcessingUnits::READ);
    EXPECT_NEAR(victim, 30.0, 1.5); // Husky: 60 -> 30 Mrps
    EXPECT_NEAR(attacker, 30.0, 1.5);
}

TEST_F(HuskyProcessingUnitsTest, CompareSwapAttackerStarvesReadVictim)
{
    auto [victim, attacker] = Run(NicProcessingUnits::READ, NicProcessingUnits::COMPARE_SWAP);
    // Husky: 60 -> 3 Mrps. Request-fair PUs give 1 / (17 + 208 ns) = 4.4 Mrps; a
    // time-fair or per-tenant model would leave the victim near 30.
    EXPECT_GT(victim, 2.0);
    EXPECT_LT(victim, 5.0);
    EXPECT_LT(60.0 / victim, 30.0);
    EXPECT_GT(attacker, 4.0); // the attacker itself barely loses (alone: 4.8 Mrps)
}

} // namespace
