// Scenario test of the Gen1/Gen2 interoperability failure (2) of Azure NSDI'23
// section 7.2 and its fix. Two Gen1 senders share one 40 Gb/s link (dumbbell):
// sender 0 writes to a Gen2/Gen3 (firmware) receiver, sender 1 to a Gen1
// receiver, while background Gen1 senders make the link's queue cross Kmax with
// periodic bursts. The firmware NP sends a CNP per marked packet and the Gen1 RP
// cuts on each; with the interop fix on the Gen2/Gen3 NIC (per-QP CNP limiter at
// the Gen1 window, RP window 0, per-burst pacing) both flows see the same CNP
// granularity. Both senders run the same RP, so only the NP differs. The excess
// of CNPs is reproduced and tested; the paper's throughput loss is not (the
// disabled test below records why).
#include "rdma-test-fabric.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-dcqcn-firmware.h"
#include "ns3/rdma-dcqcn-gen1.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <iostream>
#include <string>

namespace ns3
{
namespace
{

struct InteropResult
{
    double gen1Gbps;   //!< payload goodput of the Gen1 sender
    double gen2Gbps;   //!< payload goodput of the Gen2 sender
    uint64_t gen1Cnps; //!< CNPs received by the Gen1 sender's QP
    uint64_t gen2Cnps; //!< CNPs received by the Gen2 sender's QP
};

/** Knobs of the scenario (the model's attributes stay at their defaults). */
struct InteropScenario
{
    uint32_t burstSenders{2};    //!< background Gen1 senders with on/off traffic
    uint64_t burstBytes{262144}; //!< one WRITE per sender per period
    Time burstPeriod{MicroSeconds(250)};
    std::string kmin{"160KB"};
    std::string kmax{"640KB"};
    double pmax{0.2};
    Time from{MilliSeconds(2)}; //!< goodput measured from here
    Time to{MilliSeconds(8)};   //!< to here
    bool clampEveryCnp{false};  //!< Gen1 RP: R_T <- R_C on every CNP (paper eq. 1)
};

/**
 * Dumbbell s0 -- s1 at 40 Gb/s. On s0: host 0 and host 1 (Gen1 senders, one
 * long WRITE each) and the background senders; on s1: the receivers, host 0's
 * a Gen2/Gen3 (firmware) NIC, everyone else's Gen1. The background senders post
 * one WRITE each per period to one Gen1 receiver: storage-like bursts that make
 * the s0 -> s1 queue cross Kmax at every period (the "congested path").
 */
InteropResult
RunInterop(bool interop, const InteropScenario& sc = InteropScenario())
{
    const Time from = sc.from;
    const Time to = sc.to;
    DcbHelper dcb;
    dcb.SetEcnMarkerAttribute("Kmin", QueueSizeValue(QueueSize(sc.kmin)));
    dcb.SetEcnMarkerAttribute("Kmax", QueueSizeValue(QueueSize(sc.kmax)));
    dcb.SetEcnMarkerAttribute("Pmax", DoubleValue(sc.pmax));
    RdmaHelper gen1;
    gen1.SetCongestionControl("ns3::RdmaDcqcnGen1");
    gen1.SetCongestionControlAttribute("ClampTargetRate", BooleanValue(sc.clampEveryCnp));
    RdmaHelper gen2;
    gen2.SetCongestionControl("ns3::RdmaDcqcnFirmware");
    if (interop)
    {
        gen2.SetCongestionControlAttribute("InteropCnpInterval", TimeValue(MicroSeconds(50)));
        gen2.SetCongestionControlAttribute("RateDecreasePeriod", TimeValue(Time(0)));
        gen2.SetCongestionControlAttribute("BurstBytes", UintegerValue(16384));
    }

    const uint32_t nSenders = 2 + sc.burstSenders;
    const uint32_t nHosts = nSenders + 3; // receivers: Gen2, Gen1, background Gen1
    RdmaTestFabric f;
    f.hosts.Create(nHosts);
    f.switches.Create(2);
    dcb.SetDeviceAttribute("DataRate", DataRateValue(DataRate("40Gbps")));
    dcb.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    for (uint32_t i = 0; i < nHosts; ++i)
    {
        dcb.Install(f.hosts.Get(i), f.switches.Get(i < nSenders ? 0 : 1));
    }
    dcb.Install(f.switches.Get(0), f.switches.Get(1));
    dcb.InstallSwitch(f.switches.Get(0));
    dcb.InstallSwitch(f.switches.Get(1));
    std::vector<DcbRoutingHelper::HostAddress> addresses;
    const uint32_t gen2Host = nSenders;
    for (uint32_t i = 0; i < nHosts; ++i)
    {
        const RdmaHelper& h = (i == gen2Host) ? gen2 : gen1;
        f.nics.push_back(h.Install(f.hosts.Get(i), RdmaTestFabric::HostAddress(i)));
        addresses.push_back({RdmaTestFabric::HostAddress(i), f.hosts.Get(i)});
    }
    DcbRoutingHelper::PopulateRoutes(addresses);
    DcbHelper::AssignStreams(f.switches, 1);

    auto [q1, r1] = RdmaHelper::Connect(f.nics[0], f.nics[gen2Host]);
    auto [q2, r2] = RdmaHelper::Connect(f.nics[1], f.nics[gen2Host + 1]);
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Write;
    wr.length = 1000000000ULL;
    q1->PostSend(wr);
    q2->PostSend(wr);
    std::vector<Ptr<RdmaQueuePair>> background;
    for (uint32_t b = 0; b < sc.burstSenders; ++b)
    {
        background.push_back(RdmaHelper::Connect(f.nics[2 + b], f.nics[gen2Host + 2]).first);
    }
    RdmaWorkRequest burst;
    burst.verb = RdmaVerb::Write;
    burst.length = sc.burstBytes;
    for (Time t = MicroSeconds(100); t < to; t += sc.burstPeriod)
    {
        for (const auto& qp : background)
        {
            Simulator::Schedule(t, [qp, burst]() { qp->PostSend(burst); });
        }
    }
    uint64_t s1 = 0;
    uint64_t s2 = 0;
    uint64_t c1 = 0;
    uint64_t c2 = 0;
    Simulator::Schedule(from,
                        [&]()
                        {
                            s1 = q1->GetCounters().payloadBytesSent;
                            s2 = q2->GetCounters().payloadBytesSent;
                            c1 = q1->GetCounters().cnpsReceived;
                            c2 = q2->GetCounters().cnpsReceived;
                        });
    InteropResult res{};
    Simulator::Schedule(to,
                        [&]()
                        {
                            const double secs = (to - from).GetSeconds();
                            res.gen1Gbps =
                                (q1->GetCounters().payloadBytesSent - s1) * 8.0 / secs / 1e9;
                            res.gen2Gbps =
                                (q2->GetCounters().payloadBytesSent - s2) * 8.0 / secs / 1e9;
                            res.gen1Cnps = q1->GetCounters().cnpsReceived - c1;
                            res.gen2Cnps = q2->GetCounters().cnpsReceived - c2;
                            Simulator::Stop();
                        });
    Simulator::Run();
    Simulator::Destroy();
    return res;
}

// The mechanism of failure (2): on the same congested path, the Gen2/Gen3 NP
// sends the Gen1 sender a CNP per marked packet, several times what a Gen1 NP
// sends; the interop mode's per-QP CNP limiter brings it back to the Gen1 count.
// Measured (2-10 ms): stock 5-8x the Gen1 NP's CNPs, interop within ~20 %.
TEST(DcqcnGenInterop, Gen2NpSendsExcessiveCnpsToGen1SenderAndInteropModeCoalescesThem)
{
    InteropScenario sc;
    sc.to = MilliSeconds(10);
    const InteropResult stock = RunInterop(false, sc);
    const InteropResult fixed = RunInterop(true, sc);
    ::testing::Test::RecordProperty("stock_cnps_from_gen2_np", std::to_string(stock.gen1Cnps));
    ::testing::Test::RecordProperty("stock_cnps_from_gen1_np", std::to_string(stock.gen2Cnps));
    ::testing::Test::RecordProperty("interop_cnps_from_gen2_np", std::to_string(fixed.gen1Cnps));
    ::testing::Test::RecordProperty("interop_cnps_from_gen1_np", std::to_string(fixed.gen2Cnps));
    ASSERT_GT(stock.gen2Cnps, 10u); // the path is congested: marks reach both flows
    EXPECT_GT(stock.gen1Cnps, 3 * stock.gen2Cnps);
    EXPECT_LT(fixed.gen1Cnps, 1.5 * fixed.gen2Cnps);
    EXPECT_GT(fixed.gen1Cnps, 0.5 * fixed.gen2Cnps);
}

// Disabled: the throughput consequence does not show with the SIGCOMM'15 RP
// defaults. Measured (2-20 ms, this scenario): stock, the Gen1 sender behind the
// Gen2 NP gets 11.7 Gb/s with 207 CNPs against 8.1 Gb/s with 40 CNPs for the
// sender behind the Gen1 NP; interop 9.0 vs 8.5 Gb/s (41 vs 49 CNPs). A CNP train
// does not clamp R_T (no increase happened between its cuts), so fast recovery
// returns R_C to R_T within 5 rate-timer periods; see doc/dcqcn-generations.md.
TEST(DcqcnGenInterop, DISABLED_Gen1SenderBehindGen2NpStarvedAndRecoversWithInteropMode)
{
    InteropScenario sc;
    sc.to = MilliSeconds(20);
    const InteropResult stock = RunInterop(false, sc);
    const InteropResult fixed = RunInterop(true, sc);
    std::cout << "stock: to Gen2 " << stock.gen1Gbps << " Gb/s (" << stock.gen1Cnps
              << " CNPs), to Gen1 " << stock.gen2Gbps << " Gb/s (" << stock.gen2Cnps << " CNPs)\n"
              << "interop: to Gen2 " << fixed.gen1Gbps << " Gb/s (" << fixed.gen1Cnps
              << " CNPs), to Gen1 " << fixed.gen2Gbps << " Gb/s (" << fixed.gen2Cnps << " CNPs)"
              << std::endl;
    ::testing::Test::RecordProperty("stock_gen1_gbps", std::to_string(stock.gen1Gbps));
    ::testing::Test::RecordProperty("stock_gen2_gbps", std::to_string(stock.gen2Gbps));
    ::testing::Test::RecordProperty("interop_gen1_gbps", std::to_string(fixed.gen1Gbps));
    ::testing::Test::RecordProperty("interop_gen2_gbps", std::to_string(fixed.gen2Gbps));
    // 40 Gb/s x 1024/1110 payload share: fair share ~18.4 Gb/s each.
    const double fair = 40.0 * 1024.0 / 1110.0 / 2.0;
    // Failure: the flow into the Gen2/Gen3 NP gets far less than its fair share and
    // than the identical sender whose NP coalesces.
    EXPECT_LT(stock.gen1Gbps, 0.5 * fair);
    EXPECT_LT(stock.gen1Gbps, 0.5 * stock.gen2Gbps);
    EXPECT_GT(stock.gen1Cnps, 5 * fixed.gen1Cnps);
    // Fix: both near the fair share, within 25 % of each other.
    EXPECT_GT(fixed.gen1Gbps, 0.6 * fair);
    EXPECT_LT(std::fabs(fixed.gen1Gbps - fixed.gen2Gbps),
              0.25 * std::max(fixed.gen1Gbps, fixed.gen2Gbps));
}

} // namespace
} // namespace ns3
