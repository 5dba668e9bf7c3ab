// Tests of the workload pieces with no network: FlowSizeCdf (both file
// formats, errors with file:line), the shipped distributions against the
// figures their sources state, and PoissonFlowGenerator's empirical size split,
// mean, arrival rate and determinism; SeededRandomStream against ns-3's random
// variables, and workload generation that leaves ns-3's global random state alone.
#include "ns3/double.h"
#include "ns3/experiment-config.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/flow-trace.h"
#include "ns3/poisson-flow-generator.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/seeded-random-stream.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <gtest/gtest.h>
#include <sstream>
#include <string>

namespace ns3
{
namespace
{

const std::string TRACES = std::string(ROCE_LAB_SOURCE_DIR) + "/traces/";

class WorkloadTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    static std::string Error(const std::string& text,
                             FlowSizeCdf::Format format = FlowSizeCdf::AUTO)
    {
        try
        {
            FlowSizeCdf::LoadString(text, "d.cdf", format);
        }
        catch (const ExperimentConfigError& e)
        {
            return e.what();
        }
        ADD_FAILURE() << "no error for: " << text;
        return "";
    }

    static bool Contains(const std::string& s, const std::string& part)
    {
        return s.find(part) != std::string::npos;
    }
};

TEST_F(WorkloadTest, PercentFormatLinearInterpolation)
{
    const FlowSizeCdf cdf = FlowSizeCdf::LoadString("# comment\n\n0 0\n100 50\n300 100\n", "d.cdf");
    EXPECT_EQ(cdf.GetFormat(), FlowSizeCdf::PERCENT);
    EXPECT_DOUBLE_EQ(cdf.GetCdf(50), 0.25);
    EXPECT_DOUBLE_EQ(cdf.GetCdf(200), 0.75);
    EXPECT_DOUBLE_EQ(cdf.GetMean(), 0.5 * 50 + 0.5 * 200);
    EXPECT_DOUBLE_EQ(cdf.GetDeclaredMean(), 0);
}

TEST_F(WorkloadTest, CdfFormatRepeatedSizesArePointMasses)
{
    // 30% at exactly 70 B (with 10% at the first point), then uniform up to 170 B.
    const FlowSizeCdf cdf = FlowSizeCdf::LoadString("120.5\n70 0.1\n70 0.4\n170 1\n", "d.cdf");
    EXPECT_EQ(cdf.GetFormat(), FlowSizeCdf::PROBABILITY);
    EXPECT_DOUBLE_EQ(cdf.GetDeclaredMean(), 120.5);
    EXPECT_DOUBLE_EQ(cdf.GetCdf(69.9), 0);
    EXPECT_DOUBLE_EQ(cdf.GetCdf(70), 0.4);
    EXPECT_DOUBLE_EQ(cdf.GetMean(), 0.4 * 70 + 0.6 * 120);
    // EmpiricalRandomVariable reproduces the point mass.
    RngSeedManager::SetSeed(3);
    Ptr<EmpiricalRandomVariable> rv = cdf.CreateRandomVariable();
    rv->SetStream(0);
    int at70 = 0;
    const int n = 100000;
    for (int i = 0; i < n; ++i)
    {
        at70 += rv->GetValue() == 70.0;
    }
    EXPECT_NEAR(at70 / double(n), 0.4, 5 * std::sqrt(0.24 / n));
}

TEST_F(WorkloadTest, MalformedFilesNameFileLineAndReason)
{
    EXPECT_TRUE(Contains(Error("0 0\n10 x\n20 100\n"), "d.cdf:2:4: expected a number")) << "";
    EXPECT_TRUE(Contains(Error("0 0\n10 20 30\n"), "d.cdf:2:7: expected two numbers"));
    EXPECT_TRUE(Contains(Error("0 0\n10 50\n5 100\n"), "d.cdf:3:1: size 5 is smaller"));
    EXPECT_TRUE(Contains(Error("0 0\n10 50\n20 40\n30 100\n"), "d.cdf:3:4: cumulative value 40"));
    EXPECT_TRUE(Contains(Error("0 0\n10 50\n20 50\n30 100\n"), "zero-probability gap"));
    EXPECT_TRUE(
        Contains(Error("0 0\n10 50\n20 90\n"), "d.cdf:3:1: the last cumulative value is 90"));
    EXPECT_TRUE(Contains(Error("0 0\n10 0.5\n20 1\n", FlowSizeCdf::PERCENT), "must be 100"));
    EXPECT_TRUE(Contains(Error("# only a comment\n"), "the distribution is empty"));
    EXPECT_TRUE(Contains(Error("-5\n10 1\n"), "d.cdf:1:1: the mean on the first line"));
    EXPECT_TRUE(Contains(Error("0 0\n10 120\n"), "d.cdf:2:4: cumulative value must be in"));
    try
    {
        FlowSizeCdf::LoadFile("/nonexistent/x.cdf");
        ADD_FAILURE();
    }
    catch (const ExperimentConfigError& e)
    {
        EXPECT_TRUE(Contains(e.what(), "/nonexistent/x.cdf")) << e.what();
    }
}

TEST_F(WorkloadTest, ShippedDistributionsMatchTheirSources)
{
    // SRNIC Sec. 6.3: Cache_Follower has 53% of flows in 0-100 KB, 18% in
    // 100 KB-1 MB, the rest above. Both digitizations agree within 1.5 points.
    for (const char* file : {"fb-cachefollower-srnic.cdf", "fb-cachefollower-homa.cdf"})
    {
        const FlowSizeCdf cdf = FlowSizeCdf::LoadFile(TRACES + file);
        EXPECT_NEAR(cdf.GetCdf(100e3), 0.53, 0.015) << file;
        EXPECT_NEAR(cdf.GetCdf(1e6) - cdf.GetCdf(100e3), 0.18, 0.015) << file;
    }
    // Means under linear interpolation, as computed by HPCC's traffic_gen
    // (712,570 B for the SRNIC file) and as in traces/README.md.
    EXPECT_NEAR(FlowSizeCdf::LoadFile(TRACES + "fb-cachefollower-srnic.cdf").GetMean(), 712570, 1);
    const FlowSizeCdf homa = FlowSizeCdf::LoadFile(TRACES + "fb-cachefollower-homa.cdf");
    EXPECT_NEAR(homa.GetMean(), 686866, 1);
    EXPECT_DOUBLE_EQ(homa.GetDeclaredMean(), 692975.6);
    EXPECT_NEAR(FlowSizeCdf::LoadFile(TRACES + "fb-webserver-homa.cdf").GetMean(), 62229, 1);
    EXPECT_NEAR(FlowSizeCdf::LoadFile(TRACES + "fb-hadoop-homa.cdf").GetMean(), 121849, 1);
}

TEST_F(WorkloadTest, HpccDistributionsLoadWithTheirHandComputedMeans)
{
    // The HPCC simulator's traffic_gen files, read with linear interpolation. Each mean is
    // sum over segments of (p[i] - p[i-1]) x (s[i-1] + s[i]) / 2, worked out from the file:
    // WebSearch: 0.15 x 5000 + 0.05 x 15000 + 0.10 x 25000 + 0.10 x 40000 + 0.13 x 65000
    //   + 0.07 x 140000 + 0.10 x 600000 + 0.10 x 1.5e6 + 0.10 x 3.5e6 + 0.07 x 7.5e6
    //   + 0.03 x 20e6 = 1,711,250 B.
    // AliStorage: 0.2293 x 2000 + 0.4628 x 6000 + 0.1140 x 12000 + 0.0986 x 24000
    //   + 0.0306 x 48000 + 0.0324 x 96000 + 0.0076 x 192000 + 0.0247 x 1128000 = 40,869.8 B.
    // GoogleRPC: the same sum over its 842 segments = 2,891.62 B.
    struct Expected
    {
        const char* file;
        double mean;
        double tolerance;
        std::size_t points;
        double max;
    };

    for (const Expected& e : {Expected{"websearch-hpcc.cdf", 1711250, 0.01, 12, 30e6},
                              Expected{"alistorage-hpcc.cdf", 40869.8, 0.01, 9, 2e6},
                              Expected{"googlerpc-hpcc.cdf", 2891.62, 0.01, 843, 15158197}})
    {
        const FlowSizeCdf cdf = FlowSizeCdf::LoadFile(TRACES + e.file);
        EXPECT_EQ(cdf.GetFormat(), FlowSizeCdf::PERCENT) << e.file;
        EXPECT_EQ(cdf.GetPoints().size(), e.points) << e.file;
        EXPECT_DOUBLE_EQ(cdf.GetMax(), e.max) << e.file;
        EXPECT_NEAR(cdf.GetMean(), e.mean, e.tolerance) << e.file;
    }
    // The DCTCP paper's web-search split: 54% of flows <= 100 KB, 30% above 1 MB.
    const FlowSizeCdf web = FlowSizeCdf::LoadFile(TRACES + "websearch-hpcc.cdf");
    EXPECT_NEAR(web.GetCdf(100e3), 0.53 + 0.07 * 20000 / 120000, 1e-12);
    EXPECT_NEAR(web.GetCdf(1e6), 0.70, 1e-12);
}

/** Generate Cache_Follower at load 0.7 on 16 hosts for \p duration with \p seed. */
std::vector<ExperimentFlow>
GenerateCacheFollower(uint32_t seed, Time duration, const FlowSizeCdf& cdf, double* ratePerHost)
{
    Ptr<PoissonFlowGenerator> gen = CreateObject<PoissonFlowGenerator>();
    gen->SetAttribute("Seed", UintegerValue(seed));
    gen->SetAttribute("Load", DoubleValue(0.7));
    gen->SetAttribute("Duration", TimeValue(duration));
    gen->SetSizeDistribution(cdf);
    gen->AssignStreams(1000);
    if (ratePerHost)
    {
        *ratePerHost = gen->GetArrivalRatePerHost();
    }
    return gen->Generate(16);
}

TEST_F(WorkloadTest, PoissonCacheFollowerSplitMeanAndRate)
{
    const FlowSizeCdf cdf = FlowSizeCdf::LoadFile(TRACES + "fb-cachefollower-srnic.cdf");
    double lambda = 0;
    const Time duration = MilliSeconds(500);
    const auto flows = GenerateCacheFollower(1, duration, cdf, &lambda);
    const double n = flows.size();
    // Arrivals: Poisson with mean 16·λ·T; 5 standard deviations.
    const double expected = 16 * lambda * duration.GetSeconds();
    EXPECT_NEAR(n, expected, 5 * std::sqrt(expected));
    ASSERT_GT(n, 50000);
    double small = 0;
    double medium = 0;
    double sum = 0;
    double sumSq = 0;
    Time prev(0);
    std::vector<uint32_t> sent(16, 0);
    for (const auto& f : flows)
    {
        ASSERT_NE(f.src, f.dst);
        ASSERT_LT(f.dst, 16u);
        ASSERT_GE(f.start, prev);
        ASSERT_LT(f.start, duration);
        prev = f.start;
        small += f.bytes <= 100000;
        medium += f.bytes > 100000 && f.bytes <= 1000000;
        sum += f.bytes;
        sumSq += double(f.bytes) * f.bytes;
        ++sent[f.src];
    }
    // Empirical split against the CDF, 5 standard deviations (about 0.008).
    const double p1 = cdf.GetCdf(100000);
    const double p2 = cdf.GetCdf(1000000) - p1;
    EXPECT_NEAR(small / n, p1, 5 * std::sqrt(p1 * (1 - p1) / n));
    EXPECT_NEAR(medium / n, p2, 5 * std::sqrt(p2 * (1 - p2) / n));
    // ... and against SRNIC's statement (53% / 18% / 29%).
    EXPECT_NEAR(small / n, 0.53, 0.015);
    EXPECT_NEAR(medium / n, 0.18, 0.015);
    // Mean size within 5 standard errors (about 1.5%).
    const double mean = sum / n;
    const double sd = std::sqrt(sumSq / n - mean * mean);
    EXPECT_NEAR(mean, cdf.GetMean(), 5 * sd / std::sqrt(n));
    // Offered load: bytes per host per second / host rate within 3%.
    const double load = sum * 8 / (16 * duration.GetSeconds() * 100e9);
    EXPECT_NEAR(load, 0.7, 0.7 * 0.03);
    // Sources are uniform: each host sends about n/16 flows.
    for (uint32_t h = 0; h < 16; ++h)
    {
        EXPECT_NEAR(sent[h], n / 16, 5 * std::sqrt(n / 16)) << h;
    }
}

TEST_F(WorkloadTest, PoissonIsSeededAndTraceRoundTrips)
{
    const FlowSizeCdf cdf = FlowSizeCdf::LoadFile(TRACES + "fb-cachefollower-homa.cdf");
    const auto a = GenerateCacheFollower(7, MilliSeconds(1), cdf, nullptr);
    const auto b = GenerateCacheFollower(7, MilliSeconds(1), cdf, nullptr);
    const auto c = GenerateCacheFollower(8, MilliSeconds(1), cdf, nullptr);
    std::ostringstream sa;
    std::ostringstream sb;
    std::ostringstream sc;
    FlowTrace::WriteCsv(sa, a);
    FlowTrace::WriteCsv(sb, b);
    FlowTrace::WriteCsv(sc, c);
    EXPECT_EQ(sa.str(), sb.str());
    EXPECT_NE(sa.str(), sc.str());
    EXPECT_EQ(sa.str().substr(0, 37), "id,src,dst,bytes,start,priority,verb\n");
    const auto back = FlowTrace::ReadCsv(sa.str(), "t.csv", 16);
    ASSERT_EQ(back.size(), a.size());
    for (std::size_t i = 0; i < a.size(); ++i)
    {
        EXPECT_EQ(back[i].src, a[i].src);
        EXPECT_EQ(back[i].dst, a[i].dst);
        EXPECT_EQ(back[i].bytes, a[i].bytes);
        EXPECT_EQ(back[i].start, a[i].start);
        EXPECT_EQ(back[i].priority, a[i].priority);
    }
}

TEST_F(WorkloadTest, SeededStreamDrawsAsNs3RandomVariables)
{
    // The stream a RandomVariableStream given stream 42 draws from under seed 5, run 1,
    // transformed as Uniform, Exponential and Empirical (interpolating) variables do:
    // the same numbers, bit for bit.
    const FlowSizeCdf cdf = FlowSizeCdf::LoadFile(TRACES + "fb-cachefollower-srnic.cdf");
    RngSeedManager::SetSeed(5);
    RngSeedManager::SetRun(1);
    Ptr<UniformRandomVariable> uniform = CreateObject<UniformRandomVariable>();
    uniform->SetStream(42);
    Ptr<ExponentialRandomVariable> exponential = CreateObject<ExponentialRandomVariable>();
    exponential->SetAttribute("Mean", DoubleValue(1234.5));
    exponential->SetAttribute("Bound", DoubleValue(0.0));
    exponential->SetStream(43);
    Ptr<EmpiricalRandomVariable> empirical = cdf.CreateRandomVariable();
    empirical->SetStream(44);
    RngSeedManager::SetSeed(1);
    SeededRandomStream u(5, 42);
    SeededRandomStream e(5, 43);
    SeededRandomStream s(5, 44);
    for (int i = 0; i < 20000; ++i)
    {
        ASSERT_EQ(u.GetInteger(0, 15), uniform->GetInteger(0, 15)) << i;
        ASSERT_EQ(e.GetExponential(1234.5), exponential->GetValue()) << i;
        ASSERT_EQ(cdf.GetQuantile(s.GetValue()), empirical->GetValue()) << i;
    }
}

TEST_F(WorkloadTest, LoadingGeneratesWithoutTouchingGlobalRandomState)
{
    // A Poisson workload drawn while the file is loaded: from the experiment's seed
    // alone, whatever the global seed, and with no automatic stream taken from
    // RngSeedManager (ns-3 objects created later draw the same with or without it).
    const std::string json = R"({"seed": 3, "stop_time": "2ms",
        "topology": {"type": "dumbbell", "hosts_per_side": 4},
        "workload": {"type": "poisson", "cdf": ")" +
                             TRACES + R"(fb-cachefollower-srnic.cdf", "load": 0.5,
                     "duration": "500us"}})";
    RngSeedManager::SetSeed(1);
    std::ostringstream one;
    FlowTrace::WriteCsv(one, ExperimentConfig::LoadString(json, "w.json").GetFlows());
    RngSeedManager::SetSeed(77);
    const uint64_t before = RngSeedManager::GetNextStreamIndex();
    const ExperimentConfig config = ExperimentConfig::LoadString(json, "w.json");
    EXPECT_EQ(RngSeedManager::GetNextStreamIndex(), before + 1);
    EXPECT_EQ(RngSeedManager::GetSeed(), 77u);
    std::ostringstream other;
    FlowTrace::WriteCsv(other, config.GetFlows());
    EXPECT_GT(config.GetFlows().size(), 5u);
    EXPECT_EQ(one.str(), other.str());
    RngSeedManager::SetSeed(1);
}

TEST_F(WorkloadTest, TraceReadersReportFileLineAndField)
{
    auto csvError = [](const std::string& text) -> std::string
    {
        try
        {
            FlowTrace::ReadCsv(text, "t.csv", 4);
        }
        catch (const ExperimentConfigError& e)
        {
            return e.what();
        }
        return "";
    };
    const std::string h = "id,src,dst,bytes,start,priority,verb\n";
    EXPECT_TRUE(Contains(csvError("id,src\n"), "t.csv:1:1: expected the header row"));
    EXPECT_TRUE(Contains(csvError(h + "0,1,2,100,1us,3\n"), "t.csv:2:1: expected 7"));
    EXPECT_TRUE(Contains(csvError(h + "0,1,4,100,1us,3,write\n"), "t.csv:2:5: field dst"));
    EXPECT_TRUE(Contains(csvError(h + "0,1,1,100,1us,3,write\n"), "same host"));
    EXPECT_TRUE(Contains(csvError(h + "0,1,2,100,1xs,3,write\n"), "t.csv:2:11: field start"));
    EXPECT_TRUE(Contains(csvError(h + "0,1,2,100,1us,3,put\n"), "field verb"));
    EXPECT_TRUE(Contains(csvError(h + "5,1,2,100,1us,3,write\n3,1,2,1,1us,3,write\n"),
                         "t.csv:3:1: field id"));

    const std::vector<int64_t> hostOf = {0, 1, -1, 2};
    std::vector<std::string> warnings;
    auto hpcc = [&hostOf, &warnings](const std::string& text) -> std::string
    {
        try
        {
            FlowTrace::ReadHpcc(text, "f.txt", hostOf, Seconds(2), warnings);
        }
        catch (const ExperimentConfigError& e)
        {
            return e.what();
        }
        return "";
    };
    const auto flows = FlowTrace::ReadHpcc("2 \n0 3 3 100 611 2.000000266\n1 0 3 100 10 2.5\n",
                                           "f.txt", hostOf, Seconds(2), warnings);
    ASSERT_EQ(flows.size(), 2u);
    EXPECT_EQ(flows[0].dst, 2u);
    EXPECT_EQ(flows[0].start, PicoSeconds(266000));
    EXPECT_EQ(flows[1].start, MilliSeconds(500));
    EXPECT_TRUE(Contains(hpcc("2\n0 3 3 100 611 2.1\n"), "f.txt:2:1: the file holds 1 flows"));
    EXPECT_TRUE(Contains(hpcc("1\n0 2 3 100 611 2.1\n"), "f.txt:2:3: field dst"));
    EXPECT_TRUE(Contains(hpcc("1\n0 1 3 100 611 1.9\n"), "before the trace's time origin"));
    EXPECT_TRUE(Contains(hpcc("x\n"), "f.txt:1:1: the first line must be the number"));
}

} // namespace
} // namespace ns3
