// Azure NSDI'23 Appendix B / Fig. 12 as a scenario test, on the shipped
// experiment (configs/regional-fig12.json, 60 ms): A (same rack as C,
// ~2 us RTT) and B (other datacenter, ~1.78 ms RTT) each run one QP posting 64 KB
// WRITEs with up to 160 outstanding into C over 40 Gb/s Gen1 NICs, RED Kmin 1 MB,
// Kmax 2 MB, Pmax 5 %. The paper: both flows get ~17 Gb/s, close to half the link,
// "regardless of their RTTs", and the congested queue's watermark oscillates
// around 1.36 MB, below Kmax.
//
// Checked from 20 ms (after the start-up transient) to 60 ms: each flow gets at
// least 70 % of half the link's payload capacity (measured 2026-11-25, payload
// delivered at C: A 16.0, B 14.6 Gb/s of 18.45; the paper's 17 is 92 %), Jain >= 0.97
// (measured 0.998), the congested queue peaks between Kmin and Kmax (measured 1.79 MB;
// a switch counter polled over one or more DCQCN cycles reads this peak) and PFC stays
// silent. The model gap (the link 83 % used, the queue draining between marking
// episodes) is explained
// in contrib/rdma/doc/dcqcn-generations.md and not asserted away.
//
// The test fails for a window-based sender: the same run with ns3::RdmaDctcp
// gives B 0.5 Gb/s against A's ~35 (its window over a 1.78 ms RTT caps it), the RTT
// unfairness the rate-based DCQCN avoids; and without congestion control the
// queue sits above Kmax with PFC pausing (measured 3.4 MB, 20,874 XOFF).
#include "output-file-reader.h"

#include "ns3/dcb-net-device.h"
#include "ns3/dcb-switch.h"
#include "ns3/dcqcn-run-monitor.h"
#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{
namespace
{

using test::OutputDir;
using test::ReadFile;

const std::string FIG12 = std::string(ROCE_LAB_SOURCE_DIR) + "/configs/regional-fig12.json";

struct Fig12Result
{
    double aGbps{0};             //!< A, ~2 us RTT
    double bGbps{0};             //!< B, ~1.78 ms RTT
    double jain{0};              //!< of the two goodputs
    uint64_t peakQueue{0};       //!< bytes, largest switch queue sampled after the warm-up
    uint64_t xoffAfterWarmup{0}; //!< PFC XOFF frames sent by the switches after the warm-up
};

uint64_t
SwitchXoffSent(const TopologyBuilder& topo)
{
    uint64_t xoff = 0;
    for (uint32_t s = 0; s < topo.GetNSwitches(); ++s)
    {
        for (uint32_t p = 0; p < topo.GetSwitch(s)->GetNPorts(); ++p)
        {
            for (uint8_t c = 0; c < DcbNetDevice::N_CLASSES; ++c)
            {
                xoff += topo.GetSwitch(s)->GetPort(p)->GetCounters(c).pfcXoffSent;
            }
        }
    }
    return xoff;
}

/**
 * Run the shipped Fig. 12 experiment with \p cc as "cc" (empty: as shipped) until
 * \p stop, measuring from \p warmup; the CSV monitors are left out (speed).
 */
Fig12Result
RunFig12(const std::string& cc, const std::string& stop, Time warmup, const std::string& leaf)
{
    nlohmann::json j = nlohmann::json::parse(ReadFile(FIG12));
    j.erase("monitors");
    j["stop_time"] = stop;
    if (!cc.empty())
    {
        j["cc"] = nlohmann::json::parse(cc);
    }
    const ExperimentConfig config = ExperimentConfig::LoadString(j.dump(), FIG12);
    Fig12Result r;
    {
        ExperimentRunner runner(config, OutputDir(leaf));
        const TopologyBuilder& topo = runner.GetTopology();
        DcqcnRunMonitor monitor(topo, warmup, MicroSeconds(10), MilliSeconds(1));
        monitor.Start();
        uint64_t xoffAtWarmup = 0;
        Simulator::Schedule(warmup, [&]() { xoffAtWarmup = SwitchXoffSent(topo); });
        runner.Run();
        monitor.Finish(runner.GetEndTime());
        for (const auto& g : monitor.GetGoodputs())
        {
            (g.host == 0 ? r.aGbps : r.bGbps) = g.gbps; // host 0 is A; B is a later host
        }
        r.jain = monitor.GetJainIndex();
        r.peakQueue = monitor.GetPeakWatermark();
        r.xoffAfterWarmup = SwitchXoffSent(topo) - xoffAtWarmup;
    }
    Simulator::Destroy();
    return r;
}

// Payload capacity of the 40 Gb/s bottleneck: 1024 B of payload per 1110 B frame
// (Ethernet, IPv4, UDP, BTH, ICRC; the QPs' default 1 KB MTU).
constexpr double CAPACITY_GBPS = 40.0 * 1024.0 / 1110.0;
constexpr uint64_t KMIN = 1000000;
constexpr uint64_t KMAX = 2000000;

TEST(DcqcnRegionalFig12, BothFlowsGetHalfTheLinkWhateverTheirRttAndTheQueuePeaksBelowKmax)
{
    const Fig12Result r = RunFig12("", "60ms", MilliSeconds(20), "fig12");
    RecordProperty("a_gbps", std::to_string(r.aGbps));
    RecordProperty("b_gbps", std::to_string(r.bGbps));
    RecordProperty("peak_queue_bytes", std::to_string(r.peakQueue));
    EXPECT_GT(r.aGbps, 0.7 * CAPACITY_GBPS / 2);
    EXPECT_GT(r.bGbps, 0.7 * CAPACITY_GBPS / 2);
    EXPECT_LT(r.aGbps + r.bGbps, CAPACITY_GBPS * 1.001);
    EXPECT_GE(r.jain, 0.97);
    // The congested queue crosses Kmin (DCQCN, not PFC, limits the senders) and
    // peaks below Kmax; PFC is silent after the start-up transient.
    EXPECT_GT(r.peakQueue, KMIN);
    EXPECT_LT(r.peakQueue, KMAX);
    EXPECT_EQ(r.xoffAfterWarmup, 0u);
}

// The same region with a window-based sender: the long-RTT flow starves (the
// claim the test above checks does not hold for every congestion control).
TEST(DcqcnRegionalFig12, AWindowBasedSenderIsRttUnfairHere)
{
    const Fig12Result r =
        RunFig12(R"({"type": "ns3::RdmaDctcp"})", "30ms", MilliSeconds(10), "dctcp");
    RecordProperty("a_gbps", std::to_string(r.aGbps));
    RecordProperty("b_gbps", std::to_string(r.bGbps));
    EXPECT_LT(r.bGbps, 0.7 * CAPACITY_GBPS / 2);
    EXPECT_LT(r.jain, 0.9);
}

} // namespace
} // namespace ns3
