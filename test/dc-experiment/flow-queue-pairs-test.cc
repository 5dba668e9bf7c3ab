// QP lifetimes (FlowQueuePairs): a flow's QP pair exists from its start to its
// completion, with the QP numbers and UDP source ports of a run that connects every
// flow at set-up, and every output byte-identical to such a run.
#include "output-file-reader.h"

#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/rdma-nic.h"
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
using test::ReadFile;

/** Live QPs on all NICs of \p runner's network. */
uint32_t
LiveQueuePairs(const ExperimentRunner& runner)
{
    uint32_t live = 0;
    for (uint32_t h = 0; h < runner.GetTopology().GetNHosts(); ++h)
    {
        live += runner.GetTopology().GetNic(h)->GetNLiveQueuePairs();
    }
    return live;
}

TEST(FlowQueuePairsTest, PairsExistFromStartToCompletion)
{
    // Every verb and a message stream, then, after they have all completed, one more flow.
    const ExperimentConfig config = ExperimentConfig::LoadString(
        R"({"progress": false, "stop_time": "10ms",
            "topology": {"type": "incast", "senders": 3},
            "flows": [{"src": 1, "dst": 0, "bytes": 2000000, "verb": "write"},
                      {"src": 2, "dst": 0, "bytes": 2000000, "verb": "send", "start": "20us"},
                      {"src": 3, "dst": 0, "bytes": 2000000, "verb": "read", "start": "40us"},
                      {"src": 1, "dst": 0, "bytes": 40000, "message_bytes": 10000,
                       "outstanding": 2, "start": "60us"},
                      {"src": 2, "dst": 0, "bytes": 100000, "start": "5ms"}]})",
        "lifetimes.json");
    uint32_t atStart = 99;
    uint32_t midRun = 0;
    uint32_t beforeLast = 99;
    uint32_t withLast = 0;
    uint32_t atEnd = 99;
    {
        ExperimentRunner runner(config, OutputDir("lifetimes"));
        // Only QP numbers exist before a flow starts; a pair exists while its flow runs.
        Simulator::Schedule(NanoSeconds(1), [&]() { atStart = LiveQueuePairs(runner); });
        Simulator::Schedule(MicroSeconds(50), [&]() { midRun = LiveQueuePairs(runner); });
        Simulator::Schedule(MicroSeconds(4999), [&]() { beforeLast = LiveQueuePairs(runner); });
        Simulator::Schedule(MicroSeconds(5001), [&]() { withLast = LiveQueuePairs(runner); });
        runner.Run();
        atEnd = LiveQueuePairs(runner);
        EXPECT_EQ(runner.GetFinishedFlows(), 5u);
        uint32_t numbers = 0;
        for (uint32_t h = 0; h < runner.GetTopology().GetNHosts(); ++h)
        {
            numbers += runner.GetTopology().GetNic(h)->GetNQueuePairs();
        }
        EXPECT_EQ(numbers, 10u) << "every flow reserves its two QP numbers at set-up";
    }
    Simulator::Destroy();
    EXPECT_EQ(atStart, 2u) << "only the first flow (starting at 0) has its pair";
    EXPECT_EQ(midRun, 6u) << "three flows in progress";
    EXPECT_EQ(beforeLast, 0u) << "every pair is released after its flow completed";
    EXPECT_EQ(withLast, 2u);
    // The run stops at the last completion, before that pair's release comes round.
    EXPECT_LE(atEnd, 2u);
}

TEST(FlowQueuePairsTest, LifetimesLeaveEveryOutputByteIdentical)
{
    // An incast into a small buffer (PFC pauses, DCQCN cuts) with every monitor on,
    // run with QP lifetimes and with every pair created at set-up and kept.
    const std::string text =
        R"({"progress": false, "seed": 5, "stop_time": "20ms",
            "topology": {"type": "leaf_spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4},
            "buffer": {"BufferSize": "1MB"},
            "flow_sets": [{"type": "incast", "dst": "h0", "bytes": 200000},
                          {"type": "permutation_background", "bytes": 100000, "start": "5us"}],
            "monitors": {"queue_interval": "5us", "rate_interval": "5us",
                         "buffer_interval": "5us"}})";
    const ExperimentConfig config = ExperimentConfig::LoadString(text, "lifetimes.json");
    std::string dirs[2];
    uint32_t live[2];
    for (int kept = 0; kept < 2; ++kept)
    {
        dirs[kept] = OutputDir(kept ? "kept" : "lifetimes");
        {
            ExperimentRunner runner(config, dirs[kept]);
            runner.SetQueuePairLifetimes(kept == 0);
            runner.Run();
            live[kept] = LiveQueuePairs(runner);
        }
        Simulator::Destroy();
    }
    EXPECT_LE(live[0], 2u) << "at most the last flow's pair, whose release the stop overtook";
    EXPECT_EQ(live[1], 2 * config.GetFlows().size());
    for (const char* file : {"flows.csv", "pfc.csv", "summary.json", "config.json", "queues.csv",
                             "rates.csv", "buffers.csv", "buffer_drops.csv", "trace.csv"})
    {
        const std::string a = ReadFile(dirs[0] + "/" + file);
        EXPECT_FALSE(a.empty()) << file;
        EXPECT_EQ(a, ReadFile(dirs[1] + "/" + file)) << file << " differs with QP lifetimes";
    }
}

} // namespace
} // namespace ns3
