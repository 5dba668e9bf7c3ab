// contrib/host: RNIC processing units shared by tenants (Husky, NSDI'23, key finding #2):
// a tenant posting atomics starves a co-located tenant posting READs.
#include "ns3/nic-processing-units.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

using Verb = NicProcessingUnits::Verb;

class HuskyTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /// Closed-loop tenants, each keeping 64 requests of its verb posted (Husky 3.3: 8 QPs on
    /// 8 cores per workload, 8-byte requests). \return each tenant's rate in Mrps, measured
    /// over 200 us after 20 us of warm-up.
    static std::vector<double> Rates(const std::vector<Verb>& verbs)
    {
        Ptr<NicProcessingUnits> pu = CreateObject<NicProcessingUnits>();
        std::vector<uint32_t> tenants;
        for (size_t i = 0; i < verbs.size(); ++i)
        {
            tenants.push_back(pu->AddTenant());
        }
        std::vector<std::function<void()>> repost(verbs.size());
        for (size_t i = 0; i < verbs.size(); ++i)
        {
            repost[i] = [&, i]()
            { pu->Submit(tenants[i], verbs[i], Callback<void>([&, i]() { repost[i](); })); };
            for (int k = 0; k < 64; ++k)
            {
                repost[i]();
            }
        }
        const Time warmup = MicroSeconds(20);
        const Time measure = MicroSeconds(200);
        std::vector<uint64_t> start(verbs.size());
        Simulator::Schedule(warmup,
                            [&]()
                            {
                                for (size_t i = 0; i < verbs.size(); ++i)
                                {
                                    start[i] = pu->GetCompleted(tenants[i]);
                                }
                            });
        Simulator::Stop(warmup + measure);
        Simulator::Run();
        std::vector<double> rates;
        for (size_t i = 0; i < verbs.size(); ++i)
        {
            rates.push_back((pu->GetCompleted(tenants[i]) - start[i]) / measure.GetSeconds() / 1e6);
        }
        Simulator::Destroy();
        return rates;
    }

    /// Husky section 4: isolation holds when the victim keeps at least (1 - alpha) of
    /// min(alone, fair share), alpha = 25%, the fair share being half the NIC.
    static bool Isolated(double underAttack, double alone)
    {
        return underAttack >= 0.75 * (alone / 2);
    }
};

TEST_F(HuskyTest, VerbRatesAlone)
{
    // Husky Fig. 4 (CX-5, 8 B): SEND/WRITE > 90, READ ~60, FAA 5.2, CAS 4.8 Mrps.
    EXPECT_GT(Rates({NicProcessingUnits::WRITE})[0], 90.0);
    EXPECT_GT(Rates({NicProcessingUnits::SEND})[0], 90.0);
    EXPECT_NEAR(Rates({NicProcessingUnits::READ})[0], 60.0, 60.0 * 0.03);
    EXPECT_NEAR(Rates({NicProcessingUnits::FETCH_ADD})[0], 5.2, 5.2 * 0.03);
    EXPECT_NEAR(Rates({NicProcessingUnits::COMPARE_SWAP})[0], 4.8, 4.8 * 0.03);
}

TEST_F(HuskyTest, AtomicsAttackerStarvesReadVictim)
{
    const double alone = Rates({NicProcessingUnits::READ})[0];
    // A READ attacker halves the victim (Husky: 60 -> 30 Mrps): isolation holds.
    auto read = Rates({NicProcessingUnits::READ, NicProcessingUnits::READ});
    EXPECT_NEAR(read[0], 30.0, 30.0 * 0.05);
    EXPECT_NEAR(read[1], read[0], read[0] * 0.01);
    EXPECT_TRUE(Isolated(read[0], alone));
    // A CAS attacker takes the units' time: the victim falls to 8 / (133 + 1667 ns) = 4.4
    // Mrps (Husky: 3 Mrps), under a tenth of its rate alone, violating isolation, while the
    // attacker itself gets no more than the victim's request count.
    auto cas = Rates({NicProcessingUnits::READ, NicProcessingUnits::COMPARE_SWAP});
    EXPECT_NEAR(cas[0], 8e3 / (133 + 1667), 8e3 / (133 + 1667) * 0.03);
    EXPECT_LT(cas[0], 0.1 * alone);
    EXPECT_FALSE(Isolated(cas[0], alone));
    EXPECT_NEAR(cas[1], cas[0], cas[0] * 0.01);
    // A WRITE victim suffers likewise from a FETCH_ADD attacker.
    const double writeAlone = Rates({NicProcessingUnits::WRITE})[0];
    auto faa = Rates({NicProcessingUnits::WRITE, NicProcessingUnits::FETCH_ADD});
    EXPECT_FALSE(Isolated(faa[0], writeAlone));
}

} // namespace
