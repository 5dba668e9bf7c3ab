// DcbSwitch::EcmpSeedSalt: salt 0 keeps every switch's node-id hash; a salt gives each
// switch a new hash that is still independent of the other switches' (a new draw of the
// paths), whereas one non-zero EcmpSeed at every switch makes them hash alike
// (polarization: the control).
#include "ns3/dcb-helper.h"
#include "ns3/dcb-switch.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr uint32_t KEYS = 4000;
constexpr uint32_t WAYS = 4; //!< an ECMP group of four uplinks

Ipv4Address
Source(uint32_t k)
{
    return Ipv4Address(0x0A000001u + k % 320);
}

/** Share of KEYS flows for which switches a and b pick the same of WAYS ports. */
double
SameChoice(Ptr<DcbSwitch> a, Ptr<DcbSwitch> b)
{
    uint32_t same = 0;
    for (uint32_t k = 0; k < KEYS; ++k)
    {
        const Ipv4Address src = Source(k);
        const Ipv4Address dst("10.0.1.7");
        const uint16_t sport = static_cast<uint16_t>(0xC000 + k);
        same += (a->HashFlow(src, dst, 17, sport, 4791) % WAYS ==
                 b->HashFlow(src, dst, 17, sport, 4791) % WAYS);
    }
    return static_cast<double>(same) / KEYS;
}

class EcmpSeedSaltTest : public ::testing::Test
{
  protected:
    /** A switch on a new node (ids differ), with the salt and seed given. */
    Ptr<DcbSwitch> Switch(uint32_t salt, uint32_t seed)
    {
        Ptr<Node> node = CreateObject<Node>();
        DcbHelper h;
        h.SetSwitchAttribute("EcmpSeedSalt", UintegerValue(salt));
        h.SetSwitchAttribute("EcmpSeed", UintegerValue(seed));
        return h.InstallSwitch(node);
    }

    static uint32_t NodeSeed(Ptr<DcbSwitch> sw) { return sw->GetObject<Node>()->GetId() + 1; }

    void TearDown() override { Simulator::Destroy(); }
};

TEST_F(EcmpSeedSaltTest, SaltZeroKeepsTheNodeIdSeed)
{
    Ptr<DcbSwitch> a = Switch(0, 0);
    Ptr<DcbSwitch> same = Switch(0, NodeSeed(a)); // a's seed given explicitly, on another node
    EXPECT_DOUBLE_EQ(SameChoice(a, same), 1.0);
}

TEST_F(EcmpSeedSaltTest, SaltDrawsNewPathsIndependentOfTheOldOnes)
{
    Ptr<DcbSwitch> salted = Switch(1, 0);
    Ptr<DcbSwitch> unsalted = Switch(0, NodeSeed(salted)); // what salted hashed before
    EXPECT_NEAR(SameChoice(salted, unsalted), 1.0 / WAYS, 0.03);
}

TEST_F(EcmpSeedSaltTest, SaltedSwitchesStayIndependentAndTheControlPolarizes)
{
    for (uint32_t salt : {1u, 2u, 77u})
    {
        EXPECT_NEAR(SameChoice(Switch(salt, 0), Switch(salt, 0)), 1.0 / WAYS, 0.03) << salt;
    }
    // Control: one non-zero EcmpSeed at every switch: every switch picks alike.
    EXPECT_DOUBLE_EQ(SameChoice(Switch(0, 7), Switch(0, 7)), 1.0);
}

} // namespace
