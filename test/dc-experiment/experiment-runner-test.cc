// Scenario tests of ExperimentRunner: a single WRITE on an idle dumbbell
// finishes close to its ideal FCT, the output files have their headers, and a
// configuration run twice gives byte-identical outputs.
#include "output-file-reader.h"

#include "ns3/experiment-config.h"
#include "ns3/experiment-monitor.h"
#include "ns3/experiment-run-context.h"
#include "ns3/experiment-runner.h"
#include "ns3/flow-queue-pairs.h"
#include "ns3/ideal-fct-calculator.h"
#include "ns3/sample-statistics.h"
#include "ns3/simulator.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

using test::Fields;
using test::Lines;
using test::ReadFile;

class ExperimentRunnerTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /** A fresh output directory for this test. */
    static std::string OutputDir(const std::string& leaf)
    {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        const std::filesystem::path dir =
            std::filesystem::path(ROCE_LAB_BINARY_DIR) / "test-output" / info->name() / leaf;
        std::filesystem::remove_all(dir);
        return dir.string();
    }

    /** Run \p config into \p dir; Simulator::Destroy() afterwards. */
    static void RunInto(const ExperimentConfig& config, const std::string& dir)
    {
        {
            ExperimentRunner runner(config, dir);
            runner.Run();
        }
        Simulator::Destroy();
    }
};

TEST_F(ExperimentRunnerTest, SingleWriteOnIdleDumbbellFinishesNearItsIdealFct)
{
    const ExperimentConfig config = ExperimentConfig::LoadString(
        R"({"progress": false, "stop_time": "10ms",
            "topology": {"type": "dumbbell", "hosts_per_side": 1},
            "flows": [{"src": "h0", "dst": "h1", "bytes": 100000, "start": "10us"}]})",
        "single-write.json");
    const std::string dir = OutputDir("out");
    ExperimentRunner runner(config, dir);
    runner.Run();
    ASSERT_EQ(runner.GetFinishedFlows(), 1u);
    const ExperimentFlowResult& r = runner.GetFlowResults()[0];
    const Time fct = r.finish - r.start;
    EXPECT_GE(fct, r.idealFct);
    EXPECT_LT(fct, 2 * r.idealFct);
    // The run ends with the last completion, not at stop_time.
    EXPECT_EQ(runner.GetEndTime(), r.finish);

    const std::vector<std::string> lines = Lines(ReadFile(dir + "/flows.csv"));
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0], "id,src,dst,bytes,start_us,finish_us,fct_us,ideal_fct_us,slowdown,"
                        "retransmitted_packets,verb,priority,delivered_bytes");
    const std::vector<std::string> row = Fields(lines[1]);
    ASSERT_EQ(row.size(), 13u) << lines[1];
    EXPECT_EQ(row[0], "0");
    EXPECT_EQ(row[1], "h0");
    EXPECT_EQ(row[2], "h1");
    EXPECT_EQ(row[3], "100000");
    EXPECT_EQ(row[4], "10.000000");
    const double fctUs = std::stod(row[6]);
    const double idealUs = std::stod(row[7]);
    EXPECT_GE(fctUs, idealUs);
    EXPECT_LT(fctUs, 2 * idealUs);
    EXPECT_GE(std::stod(row[8]), 1.0);
    EXPECT_EQ(row[9], "0");
    EXPECT_EQ(row[10], "write");
    EXPECT_EQ(row[11], "3");
    EXPECT_EQ(row[12], "100000");

    EXPECT_EQ(Lines(ReadFile(dir + "/pfc.csv"))[0],
              "node,port,class,xoff_sent,xon_sent,xoff_received,paused_us");
    const auto summary = nlohmann::json::parse(ReadFile(dir + "/summary.json"));
    EXPECT_EQ(summary["flows"], 1);
    EXPECT_EQ(summary["finished"], 1);
    const auto effective = nlohmann::json::parse(ReadFile(dir + "/config.json"));
    EXPECT_EQ(effective["topology"]["hosts_per_side"], 1);
    EXPECT_FALSE(std::filesystem::exists(dir + "/queues.csv"));
}

TEST_F(ExperimentRunnerTest, FctOfNoFinishedFlowIsNullNotZero)
{
    // One 100 KB WRITE: the 10KB-100KB bucket has a flow, the others none. Their FCT
    // and slowdown are null (a table or plot must not read 0 us); so are the run's when
    // it stops before the flow finishes.
    for (const char* stop : {"10ms", "12us"})
    {
        const ExperimentConfig config = ExperimentConfig::LoadString(
            std::string(R"({"progress": false, "stop_time": ")") + stop + R"(",
                "topology": {"type": "dumbbell", "hosts_per_side": 1},
                "flows": [{"src": "h0", "dst": "h1", "bytes": 100000, "start": "10us"}]})",
            "null-fct.json");
        const std::string dir = OutputDir(std::string("out-") + stop);
        RunInto(config, dir);
        const auto summary = nlohmann::json::parse(ReadFile(dir + "/summary.json"));
        const bool finished = std::string(stop) == "10ms";
        ASSERT_EQ(summary["finished"], finished ? 1 : 0) << stop;
        for (const char* stat : {"mean", "p50", "p95", "p99", "p99.9", "max"})
        {
            EXPECT_EQ(summary["fct_us"][stat].is_null(), !finished) << stop << " " << stat;
            EXPECT_EQ(summary["slowdown"][stat].is_null(), !finished) << stop << " " << stat;
            for (const auto& bucket : summary["by_size"])
            {
                const bool has = finished && bucket["bucket"] == "10KB-100KB";
                EXPECT_EQ(bucket["fct_us"][stat].is_null(), !has) << bucket["bucket"] << stat;
                EXPECT_EQ(bucket["slowdown"][stat].is_null(), !has) << bucket["bucket"] << stat;
                if (has)
                {
                    EXPECT_GT(bucket["fct_us"][stat].get<double>(), 0.0);
                }
            }
        }
    }
}

/**
 * Test monitor: at 1 us, posts a second WRITE of flow 0's first 1000 bytes on its QP, so
 * that they are placed twice (an exactly-once violation no model produces on purpose).
 */
class DuplicatePlacement : public ExperimentMonitor
{
  public:
    void Install(ExperimentRunContext& context) override
    {
        m_context = &context;
        Simulator::Schedule(MicroSeconds(1), &DuplicatePlacement::Post, this);
    }

  private:
    void Post()
    {
        m_context->OpenFlow(0);
        RdmaWorkRequest wr;
        wr.wrId = 1000000; // not a flow: the runner ignores its completion
        wr.verb = RdmaVerb::Write;
        wr.length = 1000;
        m_context->GetFlowQueuePairs().GetRequester(0)->PostSend(wr);
    }

    ExperimentRunContext* m_context{nullptr};
};

// A run whose bytes were not placed exactly once must not pass for a
// good one; the runner counts the violations (roce-run then exits 3 with one line).
TEST_F(ExperimentRunnerTest, ExactlyOnceViolationsAreCountedForTheExitStatus)
{
    const ExperimentConfig config = ExperimentConfig::LoadString(
        R"({"progress": false, "stop_time": "10ms",
            "topology": {"type": "dumbbell", "hosts_per_side": 1},
            "flows": [{"src": "h0", "dst": "h1", "bytes": 100000}]})",
        "violation.json");
    const std::string dir = OutputDir("out");
    DuplicatePlacement duplicate;
    {
        ExperimentRunner runner(config, dir);
        runner.AddMonitor(&duplicate);
        runner.Run();
        EXPECT_EQ(runner.GetFinishedFlows(), 1u);
        EXPECT_EQ(runner.GetExactlyOnceViolations(), 1u);
        EXPECT_EQ(runner.GetStalledFlows(), 0u);
    }
    Simulator::Destroy();
    const std::string summary = ReadFile(dir + "/summary.json");
    EXPECT_NE(summary.find("\"violation_count\": 1"), std::string::npos) << summary;
    EXPECT_NE(summary.find("\"stalled\": 0"), std::string::npos) << summary;
}

TEST_F(ExperimentRunnerTest, AllVerbsFinish)
{
    const ExperimentConfig config = ExperimentConfig::LoadString(
        R"({"progress": false, "stop_time": "10ms",
            "topology": {"type": "incast", "senders": 3},
            "flows": [{"src": 1, "dst": 0, "bytes": 20000, "verb": "write"},
                      {"src": 2, "dst": 0, "bytes": 20000, "verb": "send", "priority": 4},
                      {"src": 3, "dst": 0, "bytes": 20000, "verb": "read"}]})",
        "verbs.json");
    ExperimentRunner runner(config, OutputDir("out"));
    runner.Run();
    EXPECT_EQ(runner.GetFinishedFlows(), 3u);
    for (const auto& r : runner.GetFlowResults())
    {
        EXPECT_TRUE(r.finished);
        EXPECT_GE(r.finish - r.start, r.idealFct);
    }
}

TEST_F(ExperimentRunnerTest, SameConfigTwiceGivesIdenticalFiles)
{
    // An incast into a small buffer (PFC pauses, DCQCN cuts) with monitors on:
    // enough going on for any nondeterminism (container order, uninitialised
    // state, wall-clock leaks) to show.
    const std::string text =
        R"({"progress": false, "seed": 5, "stop_time": "20ms",
            "topology": {"type": "leaf_spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4},
            "buffer": {"BufferSize": "1MB"},
            "flow_sets": [{"type": "incast", "dst": "h0", "bytes": 200000},
                          {"type": "permutation_background", "bytes": 100000, "start": "5us"}],
            "monitors": {"queue_interval": "5us", "rate_interval": "5us",
                         "buffer_interval": "5us"}})";
    const ExperimentConfig config = ExperimentConfig::LoadString(text, "determinism.json");
    const std::string a = OutputDir("a");
    const std::string b = OutputDir("b");
    RunInto(config, a);
    RunInto(ExperimentConfig::LoadString(text, "determinism.json"), b);
    for (const char* file : {"flows.csv", "pfc.csv", "summary.json", "config.json", "queues.csv",
                             "rates.csv", "buffers.csv", "buffer_drops.csv", "trace.csv", "README"})
    {
        const std::string fa = ReadFile(a + "/" + file);
        EXPECT_FALSE(fa.empty()) << file;
        EXPECT_EQ(fa, ReadFile(b + "/" + file)) << file << " differs between runs";
    }
    const auto summary = nlohmann::json::parse(ReadFile(a + "/summary.json"));
    EXPECT_EQ(summary["finished"], summary["flows"]);
    EXPECT_GT(summary["pfc"]["xoff_sent"].get<uint64_t>(), 0u) << "the scenario must exercise PFC";
    EXPECT_GT(Lines(ReadFile(a + "/pfc.csv")).size(), 1u);
}

TEST_F(ExperimentRunnerTest, BufferMonitorWritesSonicWatermarks)
{
    // An 8 -> 1 incast through a Listing 1 switch: the receiver's egress queue
    // and the senders' PGs fill; periodic watermarks are cleared after each
    // sample, persistent ones keep the peak.
    const std::string text = R"({"progress": false, "stop_time": "2ms",
            "topology": {"type": "incast", "senders": 8},
            "buffer": {"type": "ns3::SonicBufferManager"},
            "flow_sets": [{"type": "incast", "dst": "h0", "bytes": 500000}],
            "monitors": {"buffer_interval": "20us", "watermark_mode": "MODE"}})";
    std::map<std::string, std::vector<std::string>> files;
    for (const char* mode : {"periodic", "persistent"})
    {
        std::string t = text;
        t.replace(t.find("MODE"), 4, mode);
        const std::string dir = OutputDir(mode);
        RunInto(ExperimentConfig::LoadString(t, "buffers.json"), dir);
        files[mode] = Lines(ReadFile(dir + "/buffers.csv"));
        ASSERT_GT(files[mode].size(), 10u);
        EXPECT_EQ(files[mode][0], "time_us,node,object,name,port,index,bytes,watermark_bytes");
        EXPECT_EQ(Lines(ReadFile(dir + "/buffer_drops.csv"))[0], "node,reason,packets");
    }
    // Peak queue-3 watermark of the receiver port, and its value in the last row.
    for (const char* mode : {"periodic", "persistent"})
    {
        uint64_t peak = 0;
        uint64_t last = 0;
        uint64_t poolRows = 0;
        for (size_t i = 1; i < files[mode].size(); ++i)
        {
            const std::vector<std::string> f = Fields(files[mode][i]);
            ASSERT_EQ(f.size(), 8u) << files[mode][i];
            poolRows += f[2] == "pool_shared" && f[3] == "ingress_pool";
            if (f[2] == "queue" && f[4] == "0" && f[5] == "3")
            {
                const uint64_t bytes = std::stoull(f[6]);
                const uint64_t wm = std::stoull(f[7]);
                EXPECT_GE(wm, bytes);
                peak = std::max(peak, wm);
                last = wm;
            }
        }
        EXPECT_GT(poolRows, 5u);
        EXPECT_GT(peak, 100000u) << mode; // the incast queued well over 100 KB
        if (std::string(mode) == "persistent")
        {
            EXPECT_EQ(last, peak);
        }
        else
        {
            EXPECT_LT(last, peak); // cleared: the drained queue's later samples are lower
        }
    }
}

TEST_F(ExperimentRunnerTest, UnwritableOutputDirectoryThrows)
{
    const ExperimentConfig config = ExperimentConfig::LoadString(
        R"({"progress": false, "topology": {"type": "incast", "senders": 1},
            "flows": [{"src": 1, "dst": 0, "bytes": 1000}]})",
        "unwritable.json");
    const std::string file = OutputDir("not-a-dir");
    std::filesystem::create_directories(std::filesystem::path(file).parent_path());
    std::ofstream(file) << "x";
    ExperimentRunner runner(config, file + "/sub");
    EXPECT_THROW(runner.Run(), std::runtime_error);
}

TEST(IdealFctCalculatorTest, FormulaOnADumbbell)
{
    const ExperimentConfig config = ExperimentConfig::LoadString(
        R"({"topology": {"type": "dumbbell", "hosts_per_side": 1, "fabric_link_rate": "400Gbps"},
            "flows": [{"src": 0, "dst": 1, "bytes": 1}]})",
        "ideal.json");
    const uint32_t header = 86;
    IdealFctCalculator calc(config.GetTopology(), header);
    EXPECT_EQ(calc.GetWireBytes(2048, 1024), 2048u + 2 * header);
    EXPECT_EQ(calc.GetBottleneckRate(0, 1), DataRate("100Gbps"));
    // 3 links of 1 us; store-and-forward of the last packet (1110 B) on the
    // 400G fabric link (22.2 ns) and the 100G host link (88.8 ns).
    EXPECT_EQ(calc.GetBaseRtt(0, 1, 1024), MicroSeconds(6) + PicoSeconds(22200 + 88800));
    // 2 packets: (2048 + 172) B at 100G = 177.6 ns.
    EXPECT_EQ(calc.GetIdealFct(0, 1, 2048, 1024),
              NanoSeconds(6000) + PicoSeconds(22200 + 88800 + 177600));
    // Past 512 MiB of wire bytes (DataRate::CalculateBytesTxTime counts bits in 32
    // bits): 1 GiB is 1,163,919,360 B on the wire, 93.1135488 ms at 100G; a 1 TiB
    // message stream 1024 times that.
    EXPECT_EQ(calc.GetIdealFct(0, 1, 1ULL << 30, 1024),
              NanoSeconds(6000) + PicoSeconds(22200 + 88800) + PicoSeconds(93113548800ULL));
    EXPECT_EQ(calc.GetIdealFct(0, 1, 1ULL << 40, 1024),
              NanoSeconds(6000) + PicoSeconds(22200 + 88800) + PicoSeconds(93113548800ULL * 1024));
    Simulator::Destroy();
}

TEST(SampleStatisticsTest, NearestRankPercentiles)
{
    SampleStatistics s;
    EXPECT_EQ(s.GetPercentile(50), 0.0);
    for (int v : {5, 1, 4, 2, 3, 6, 7, 8, 9, 10})
    {
        s.Add(v);
    }
    EXPECT_EQ(s.GetCount(), 10u);
    EXPECT_DOUBLE_EQ(s.GetMean(), 5.5);
    EXPECT_EQ(s.GetPercentile(50), 5.0);
    EXPECT_EQ(s.GetPercentile(99), 10.0);
    EXPECT_EQ(s.GetPercentile(0), 1.0);
    EXPECT_EQ(s.GetPercentile(10), 1.0);
    EXPECT_EQ(s.GetPercentile(11), 2.0);
    EXPECT_EQ(s.GetMax(), 10.0);
}

} // namespace
namespace
{

/** Run \p json and return the configuration error it raises ("" if none). */
std::string
RunError(const std::string& json, const std::string& dir)
{
    const ExperimentConfig config = ExperimentConfig::LoadString(json, "combo.json");
    try
    {
        ExperimentRunner runner(config, dir);
        runner.Run();
    }
    catch (const ExperimentConfigError& e)
    {
        Simulator::Destroy();
        return e.what();
    }
    Simulator::Destroy();
    return "";
}

TEST(ExperimentRunnerCombinationTest, BufferTooSmallForHeadroomIsAConfigError)
{
    const std::string msg = RunError(
        R"({"progress": false, "topology": {"type": "incast", "senders": 8},
            "buffer": {"BufferSize": "500KB"},
            "flows": [{"src": 1, "dst": 0, "bytes": 1000}]})",
        std::string(ROCE_LAB_BINARY_DIR) + "/test-output/combo-buffer");
    EXPECT_NE(msg.find("combo.json"), std::string::npos) << msg;
    EXPECT_NE(msg.find("/buffer"), std::string::npos) << msg;
    EXPECT_NE(msg.find("BufferSize"), std::string::npos) << msg;
}

TEST(ExperimentRunnerCombinationTest, KmaxBelowKminIsAConfigError)
{
    const std::string msg = RunError(
        R"({"progress": false, "topology": {"type": "incast", "senders": 2},
            "ecn": {"Kmin": "300KB", "Kmax": "100KB"},
            "flows": [{"src": 1, "dst": 0, "bytes": 1000}]})",
        std::string(ROCE_LAB_BINARY_DIR) + "/test-output/combo-ecn");
    EXPECT_NE(msg.find("/ecn"), std::string::npos) << msg;
    EXPECT_NE(msg.find("Kmax"), std::string::npos) << msg;
}

} // namespace

} // namespace ns3
