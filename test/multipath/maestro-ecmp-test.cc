// ECMP hash collisions on a real fabric (SOSR'21 §2, Fig. 2): n single-QP flows
// between two leaves with 4 spines use on average 1 - (1 - 1/m)^n of the m paths.
// Measured on the wire: leaf 0's uplink ports that transmit each trial's packets.
#include "ns3/channel.h"
#include "ns3/dcb-switch.h"
#include "ns3/rdma-leaf-spine-fabric.h"
#include "ns3/simulator.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{

class MaestroEcmpTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }
};

struct Uplinks
{
    std::vector<uint64_t> frames; //!< per uplink port of leaf 0: data frames sent
};

// \p trials rounds of \p n fresh QPs host 0 -> host 1 (driver-assigned source
// ports), one 1-KB WRITE each, 50 us apart; \return mean fraction of the 4 uplinks used.
double
MeasuredUtilisation(uint32_t n, uint32_t trials)
{
    DcbHelper dcb;
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::RdmaNoCongestionControl");
    RdmaLeafSpineFabric f({0, 1}, 2, 4);
    f.Build(dcb, rdma);
    Ptr<Node> leaf = f.GetSwitches().Get(0);
    Ptr<DcbSwitch> sw = leaf->GetObject<DcbSwitch>();
    Uplinks up;
    std::vector<Ptr<DcbNetDevice>> uplinks;
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        Ptr<DcbNetDevice> dev = sw->GetPort(p);
        Ptr<Channel> ch = dev->GetChannel();
        Ptr<NetDevice> peer = ch->GetDevice(0) == dev ? ch->GetDevice(1) : ch->GetDevice(0);
        if (peer->GetNode()->GetObject<DcbSwitch>())
        {
            const uint32_t index = static_cast<uint32_t>(uplinks.size());
            uplinks.push_back(dev);
            up.frames.push_back(0);
            dev->TraceConnectWithoutContext(
                "PhyTxBegin",
                MakeBoundCallback(
                    +[](Uplinks* u, uint32_t i, Ptr<const Packet>) { ++u->frames[i]; }, &up,
                    index));
        }
    }
    EXPECT_EQ(uplinks.size(), 4u);
    const Time gap = MicroSeconds(50);
    double used = 0;
    std::vector<uint64_t> before(uplinks.size(), 0);
    for (uint32_t t = 0; t < trials; ++t)
    {
        Simulator::Schedule(
            gap * t,
            [&f, n]()
            {
                for (uint32_t k = 0; k < n; ++k)
                {
                    RdmaWorkRequest wr;
                    wr.length = 1000;
                    RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[1]).first->PostSend(wr);
                }
            });
        Simulator::Schedule(gap * t + gap / 2,
                            [&up, &before, &used]()
                            {
                                for (uint32_t i = 0; i < up.frames.size(); ++i)
                                {
                                    used += up.frames[i] > before[i] ? 1 : 0;
                                    before[i] = up.frames[i];
                                }
                            });
    }
    Simulator::Run();
    Simulator::Destroy();
    return used / trials / 4;
}

TEST_F(MaestroEcmpTest, SingleQpFlowsUseOneMinusOneMinusOneOverMToTheNOfThePaths)
{
    const uint32_t m = 4;
    for (uint32_t n : {1u, 2u, 4u, 8u})
    {
        const double measured = MeasuredUtilisation(n, 400);
        const double expected = 1 - std::pow(1 - 1.0 / m, n);
        std::cout << "ECMP on the wire, m=4 n=" << n << ": " << measured << " of the paths used, "
                  << "formula " << expected << std::endl;
        // standard error of a 400-trial mean < 0.012: 0.04 is > 3 sigma
        EXPECT_NEAR(measured, expected, 0.04) << "n=" << n;
    }
}

} // namespace
