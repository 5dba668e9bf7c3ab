// DcqcnRunMonitor's goodput is payload delivered at the receiver, not payload
// sent. The first milliseconds of the CI-sized regional scenario
// (configs/regional-small.json) show the difference: A and B start at the
// 40 Gb/s line rate into one 40 Gb/s port to C, and B's packets spend ~0.9 ms on
// two 88.4 km links before they arrive. Counting what the senders sent gave more
// than the port can carry (two sweep points once read 21.74 + 21.47 = 43.2 Gb/s
// through one 40 Gb/s link); what C's NIC placed in memory cannot exceed the
// port's payload capacity.
#include "output-file-reader.h"

#include "ns3/dcqcn-run-monitor.h"
#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
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

const std::string SMALL = std::string(ROCE_LAB_SOURCE_DIR) + "/configs/regional-small.json";

// Payload capacity of the 40 Gb/s port into C: 1024 B of payload per 1110 B frame.
constexpr double CAPACITY_GBPS = 40.0 * 1024.0 / 1110.0;

TEST(DcqcnRunMonitor, GoodputIsPayloadDeliveredAtTheReceiverNotPayloadSent)
{
    nlohmann::json j = nlohmann::json::parse(ReadFile(SMALL));
    j.erase("monitors");
    j["stop_time"] = "3ms";
    const ExperimentConfig config = ExperimentConfig::LoadString(j.dump(), SMALL);
    const Time warmup = MicroSeconds(500);
    double total = 0;
    uint64_t sentSinceWarmup = 0;
    double secs = 0;
    {
        ExperimentRunner runner(config, OutputDir("dcqcn-run-monitor"));
        runner.SetQueuePairLifetimes(false); // reads QPs through the NICs
        const TopologyBuilder& topo = runner.GetTopology();
        DcqcnRunMonitor monitor(topo, warmup, MicroSeconds(10), MilliSeconds(1));
        monitor.Start();
        auto sent = [&topo]()
        {
            uint64_t bytes = 0;
            for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
            {
                Ptr<RdmaNic> nic = topo.GetNic(h);
                for (uint32_t i = 0; i < nic->GetNQueuePairs(); ++i)
                {
                    bytes +=
                        nic->GetQueuePair(RdmaNic::FIRST_QPN + i)->GetCounters().payloadBytesSent;
                }
            }
            return bytes;
        };
        uint64_t sentAtWarmup = 0;
        Simulator::Schedule(warmup, [&]() { sentAtWarmup = sent(); });
        runner.Run();
        monitor.Finish(runner.GetEndTime());
        sentSinceWarmup = sent() - sentAtWarmup;
        secs = (runner.GetEndTime() - warmup).GetSeconds();
        ASSERT_EQ(monitor.GetGoodputs().size(), 2u) << "A and B, both backlogged";
        for (const auto& g : monitor.GetGoodputs())
        {
            EXPECT_GT(g.gbps, 1.0) << "host " << g.host;
            total += g.gbps;
        }
        EXPECT_DOUBLE_EQ(monitor.ToJson()["goodput_total_gbps"].get<double>(), total);
    }
    Simulator::Destroy();
    // The scenario is the one where sent and delivered differ: the senders put more
    // into the fabric than the port to C can carry in the window.
    EXPECT_GT(sentSinceWarmup * 8.0 / secs / 1e9, CAPACITY_GBPS * 1.05);
    EXPECT_LE(total, CAPACITY_GBPS * 1.001);
}

} // namespace
} // namespace ns3
