// Azure NSDI'23 section 7.3 claims on a regional topology (Fig. 2 builder):
// - sparse ECN marking (large Kmax - Kmin, small Pmax) keeps a long-RTT DCQCN
//   flow at high throughput, where dense marking starves it;
// - PFC fires before ECN when the ingress (PFC) thresholds are below Kmin, and
//   ECN acts first when they are above it.
// Scenario: Fig. 12's A (rack neighbour of C) and B (other datacenter, ~1.78 ms
// RTT) or a second rack neighbour write into C over 40 Gb/s Gen1 NICs. A 4 KB
// MTU keeps the long runs short; the 1 KB-MTU runs are the dcqcn-regional sweeps
// (contrib/rdma/doc/dcqcn-generations.md).
#include "output-file-reader.h"

#include "ns3/dcb-net-device.h"
#include "ns3/dcb-switch.h"
#include "ns3/dcqcn-run-monitor.h"
#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/simulator.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <string>

namespace ns3
{
namespace
{

using test::OutputDir;

struct ClaimResult
{
    double localGbps{0};  //!< A, ~2 us RTT
    double remoteGbps{0}; //!< B, across the hub
    uint64_t xoffSent{0}; //!< PFC XOFF frames sent by every switch port
    uint64_t cnps{0};     //!< CNPs received by the senders
};

ClaimResult
RunRegion(const std::string& ecn, const std::string& buffer, const std::string& stop,
          const std::string& warmup, const std::string& leaf, const std::string& km = "44",
          const std::string& mtu = "4096", const std::string& remote = "dc1-c0-r0-s0")
{
    const std::string text = R"({"seed": 1, "stop_time": ")" + stop + R"(", "progress": false,
        "topology": {"type": "regional", "servers_per_rack": 3,
            "long_haul_km": )" +
                             km + R"(},
        "buffer": )" + buffer +
                             R"(, "ecn": )" + ecn + R"(,
        "cc": {"type": "ns3::RdmaDcqcn", "BurstBytes": 16384, "FirmwareCnpTime": "5us", "FirmwareCnpQueue": 16}, "qp": {"Mtu": )" +
                             mtu + R"(},
        "flows": [{"src": "dc0-c0-r0-s0", "dst": "dc0-c0-r0-s1", "bytes": 1073741824},
                  {"src": ")" +
                             remote + R"(", "dst": "dc0-c0-r0-s1", "bytes": 1073741824}]})";
    const ExperimentConfig config = ExperimentConfig::LoadString(text, leaf + ".json");
    ClaimResult r;
    {
        ExperimentRunner runner(config, OutputDir(leaf));
        runner.SetQueuePairLifetimes(false); // reads QPs through the NICs
        DcqcnRunMonitor monitor(runner.GetTopology(), Time(warmup), MicroSeconds(10),
                                MilliSeconds(1));
        monitor.Start();
        runner.Run();
        monitor.Finish(runner.GetEndTime());
        for (const auto& g : monitor.GetGoodputs())
        {
            (g.host == 0 ? r.localGbps : r.remoteGbps) = g.gbps; // hosts: A first
        }
        const TopologyBuilder& topo = runner.GetTopology();
        for (uint32_t s = 0; s < topo.GetNSwitches(); ++s)
        {
            for (uint32_t p = 0; p < topo.GetSwitch(s)->GetNPorts(); ++p)
            {
                r.xoffSent += topo.GetSwitch(s)->GetPort(p)->GetCounters(3).pfcXoffSent;
            }
        }
        for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
        {
            Ptr<RdmaNic> nic = topo.GetNic(h);
            for (uint32_t i = 0; i < nic->GetNQueuePairs(); ++i)
            {
                r.cnps += nic->GetQueuePair(RdmaNic::FIRST_QPN + i)->GetCounters().cnpsReceived;
            }
        }
    }
    Simulator::Destroy();
    return r;
}

constexpr const char* DEEP_BUFFER = R"({"type": "ns3::DynamicThresholdBufferManager",
    "BufferSize": "256MB"})";

double
Jain(double a, double b)
{
    return (a + b) * (a + b) / (2 * (a * a + b * b));
}

// 88.4 km (~1.78 ms RTT, App. B), 60 ms, goodput from 20 ms. Measured (Gen1 NICs
// with their firmware CNP capacity): sparse 1 MB / 4 MB / 1 % gives 16.1 (A) and
// 17.7 (B) Gb/s; dense 1 MB / 1.2 MB / 20 % gives 14.2 and 17.7. The dense split is
// recorded, not asserted: it depends on the seed and on CNP timing (Jain 0.69-0.99
// over seeds 1-3 and FirmwareCnpTime 0-5 us; 6.1 / 25.0 without the capacity), see
// contrib/rdma/doc/dcqcn-generations.md. Sparse marking gives the long-RTT flow its
// fair share at high utilisation.
TEST(DcqcnRegionalClaims, SparseMarkingKeepsTheLongRttFlowAtHighThroughput)
{
    const ClaimResult dense =
        RunRegion(R"({"type": "ns3::RedEcnMarker", "Kmin": "1MB", "Kmax": "1200KB", "Pmax": 0.2})",
                  DEEP_BUFFER, "60ms", "20ms", "dense", "88.4");
    const ClaimResult sparse =
        RunRegion(R"({"type": "ns3::RedEcnMarker", "Kmin": "1MB", "Kmax": "4MB", "Pmax": 0.01})",
                  DEEP_BUFFER, "60ms", "20ms", "sparse", "88.4");
    RecordProperty("dense_local_gbps", std::to_string(dense.localGbps));
    RecordProperty("dense_remote_gbps", std::to_string(dense.remoteGbps));
    RecordProperty("sparse_local_gbps", std::to_string(sparse.localGbps));
    RecordProperty("sparse_remote_gbps", std::to_string(sparse.remoteGbps));
    // 40 Gb/s x 4096 / 4182 (headers) of payload, shared by two flows.
    const double capacity = 40.0 * 4096.0 / 4182.0;
    EXPECT_GT(sparse.remoteGbps, 0.85 * capacity / 2);
    EXPECT_GT(sparse.localGbps + sparse.remoteGbps, 0.85 * capacity);
    EXPECT_GT(Jain(sparse.localGbps, sparse.remoteGbps), 0.98);
    EXPECT_GT(sparse.cnps, 0u); // sparse, not absent: DCQCN still acts
}

// Both senders in C's rack; 16 MB dynamic-threshold buffer, RED 1 MB / 2 MB / 5 %.
// With two paused-prone ingress PGs the DT threshold settles at
// alpha B / (1 + 2 alpha): 243 KB at alpha = 1/64 (the congested egress queue never
// reaches Kmin: PFC only), 1.6 MB at alpha = 1/8 (ECN first). Measured: 1900 XOFF
// and 0 CNPs, against 0 XOFF and 26 CNPs.
TEST(DcqcnRegionalClaims, PfcFiresBeforeEcnWhenIngressThresholdsAreBelowKmin)
{
    const auto run = [](const char* alpha)
    {
        return RunRegion(
            R"({"type": "ns3::RedEcnMarker", "Kmin": "1MB", "Kmax": "2MB", "Pmax": 0.05})",
            std::string(R"({"type": "ns3::DynamicThresholdBufferManager", "BufferSize": "16MB",
                "Alpha": )") +
                alpha + "}",
            "6ms", "2ms", std::string("alpha-") + alpha, "1", "1024", "dc0-c0-r0-s2");
    };
    const ClaimResult low = run("0.015625");
    const ClaimResult high = run("0.125");
    RecordProperty("low_threshold_xoff", std::to_string(low.xoffSent));
    RecordProperty("high_threshold_cnps", std::to_string(high.cnps));
    EXPECT_GT(low.xoffSent, 100u);
    EXPECT_EQ(low.cnps, 0u);
    EXPECT_EQ(high.xoffSent, 0u);
    EXPECT_GT(high.cnps, 0u);
}

} // namespace
} // namespace ns3
