// "jobs": a GOAL schedule file run as a workload of an experiment (JobReader,
// JobWorkload): ranks on hosts by the host-selection grammar, iterations one
// after another, jobs.csv and summary.json; errors naming the pointer, or the
// GOAL file's line and column. The scenario runs the shipped job
// (configs/goal-job-background.json) alone and under 30 % Poisson
// background load, with ECMP and with adaptive routing, and a control; its numbers are
// in doc/collective-traces.md ("A training job beside background load").
#include "config-error-of.h"
#include "output-file-reader.h"

#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/simulator.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>

namespace ns3
{
namespace
{

using test::OutputDir;
using test::ReadFile;
using test::Shipped;
using test::Table;

/** Two ranks: rank 0 computes 10 us, sends 64 KiB to rank 1, which receives it.
 */
const std::string PING = "num_ranks 2\nrank 0 {\n  c: calc 10000\n  s: send 65536b to 1\n"
                         "  s requires c\n}\nrank 1 {\n  recv 65536b from 0\n}\n";

class JobWorkloadTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /** Write \p text to a GOAL file in the test's output folder; \return its
     * path. */
    static std::string GoalFile(const std::string& name, const std::string& text)
    {
        const std::string dir = OutputDir("goal-" + name);
        std::filesystem::create_directories(dir);
        const std::string path = dir + "/" + name;
        std::ofstream(path) << text;
        return path;
    }

    /** A dumbbell of 2 x 2 hosts with \p jobs as its "jobs". */
    static std::string Dumbbell(const std::string& jobs)
    {
        return R"({"progress": false, "stop_time": "10ms",
                   "topology": {"type": "dumbbell", "hosts_per_side": 2},
                   "jobs": )" +
               jobs + "}";
    }

    static bool Contains(const std::string& s, const std::string& part)
    {
        return s.find(part) != std::string::npos;
    }
};

TEST_F(JobWorkloadTest, RanksGoOnTheSelectedHostsAndIterationsFollowEachOther)
{
    const std::string goal = GoalFile("ping.goal", PING);
    const ExperimentConfig c = ExperimentConfig::LoadString(
        Dumbbell(R"([{"name": "ping", "goal": ")" + goal +
                 R"(", "hosts": ["h3", "h0"], "iterations": 3, "start": "5us"}])"),
        "jobs.json");
    ASSERT_EQ(c.GetJobs().size(), 1u);
    const ExperimentJob& job = c.GetJobs()[0];
    EXPECT_EQ(job.hosts, (std::vector<uint32_t>{3, 0}));
    EXPECT_EQ(job.schedule->GetNRanks(), 2u);
    EXPECT_EQ(job.iterations, 3u);
    EXPECT_EQ(job.start, MicroSeconds(5));
    // config.json's form loads to the same job.
    const ExperimentConfig back = ExperimentConfig::LoadString(c.EffectiveJson().dump(), "e.json");
    EXPECT_EQ(back.EffectiveJson(), c.EffectiveJson());
    EXPECT_EQ(c.EffectiveJson()["jobs"][0]["executor"]["CalcUnit"], "1ns");

    const std::string dir = OutputDir("run");
    {
        ExperimentRunner runner(c, dir);
        runner.Run();
    }
    const auto rows = Table(dir + "/jobs.csv");
    ASSERT_EQ(rows.size(), 3u);
    double previousEnd = 5; // us
    for (uint32_t i = 0; i < 3; ++i)
    {
        EXPECT_EQ(rows[i].at("job"), "ping");
        EXPECT_EQ(rows[i].at("iteration"), std::to_string(i));
        EXPECT_EQ(rows[i].at("ranks"), "2");
        const double start = std::stod(rows[i].at("start_us"));
        const double time = std::stod(rows[i].at("time_us"));
        EXPECT_DOUBLE_EQ(start, previousEnd) << i; // the next iteration starts at once
        // 10 us of compute, then 64 KiB at 100 Gb/s (5.2 us) over three 1 us links,
        // and the ACK back (the send's completion): about 22 us.
        EXPECT_GT(time, 10 + 65536 * 8 / 100e3 + 3) << i;
        EXPECT_LT(time, 30) << i;
        previousEnd = std::stod(rows[i].at("end_us"));
    }
    const nlohmann::json summary = nlohmann::json::parse(ReadFile(dir + "/summary.json"));
    const nlohmann::json& s = summary.at("jobs").at(0);
    EXPECT_EQ(s.at("finished_iterations"), 3);
    EXPECT_DOUBLE_EQ(s.at("completion_us").get<double>(), previousEnd - 5);
    EXPECT_EQ(s.at("failed_messages"), 0);
    EXPECT_EQ(s.at("retransmitted_packets"), 0); // no loss
    EXPECT_EQ(s.at("timeouts"), 0);
}

TEST_F(JobWorkloadTest, EachJobCountsItsQpsRetransmissionsAndTimeouts)
{
    // h0 sends 64 KiB to h2 in each of 6 iterations over host links that lose 2 % of their
    // frames. The job's QPs resend what was lost; summary.json's top-level
    // retransmitted_packets counts the flows' QPs only (none here), the job's entry its own.
    // Each completed iteration's data frames out of h0 (job_links.csv) are the 64 first
    // sends and the resends of that iteration, so the resends are counted exactly.
    const std::string goal = GoalFile("ping.goal", PING);
    const ExperimentConfig c = ExperimentConfig::LoadString(
        R"({"progress": false, "stop_time": "100ms", "seed": 3,
            "topology": {"type": "dumbbell", "hosts_per_side": 2},
            "loss_recovery": {"type": "ns3::RdmaGoBackN", "AckTimeoutExponent": 6},
            "faults": {"loss": [{"links": "hosts", "rate": 0.02}]},
            "jobs": [{"name": "ping", "goal": ")" +
            goal + R"(", "hosts": ["h0", "h2"], "iterations": 6}]})",
        "lossy.json");
    const std::string dir = OutputDir("lossy");
    {
        ExperimentRunner runner(c, dir);
        runner.Run();
    }
    const nlohmann::json summary = nlohmann::json::parse(ReadFile(dir + "/summary.json"));
    const nlohmann::json& s = summary.at("jobs").at(0);
    ASSERT_EQ(s.at("finished_iterations"), 6);
    EXPECT_EQ(summary.at("flows"), 0);
    EXPECT_EQ(summary.at("retransmitted_packets"), 0); // the flows' only
    uint64_t resent = 0;
    for (const auto& row : Table(dir + "/job_links.csv"))
    {
        if (row.at("node") == "h0")
        {
            resent += std::stoull(row.at("frames")) - 64;
        }
    }
    EXPECT_GT(resent, 0u);
    EXPECT_EQ(s.at("retransmitted_packets").get<uint64_t>(), resent);
    EXPECT_LE(s.at("timeouts").get<uint64_t>(), resent);
}

TEST_F(JobWorkloadTest, JobLinksCountWhatTheScheduleSendsOnTheLinksItUses)
{
    // Rank 0 on h0 sends 64 KiB to rank 1 on h2, across the dumbbell, twice: h0's uplink
    // carries the data frames, h2's its ACKs, h1's and h3's nothing.
    const std::string goal = GoalFile("ping.goal", PING);
    const ExperimentConfig c =
        ExperimentConfig::LoadString(Dumbbell(R"([{"name": "ping", "goal": ")" + goal +
                                              R"(", "hosts": ["h0", "h2"], "iterations": 2}])"),
                                     "links.json");
    const std::string dir = OutputDir("links");
    {
        ExperimentRunner runner(c, dir);
        runner.Run();
    }
    const auto jobs = Table(dir + "/jobs.csv");
    ASSERT_EQ(jobs.size(), 2u);
    const auto rows = Table(dir + "/job_links.csv");
    EXPECT_NE(ReadFile(dir + "/README").find("job_links.csv"), std::string::npos);
    // A GOAL file has no steps: no job_steps.csv.
    EXPECT_FALSE(std::filesystem::exists(dir + "/job_steps.csv"));
    EXPECT_EQ(ReadFile(dir + "/README").find("job_steps.csv"), std::string::npos);
    uint32_t uplinks = 0;
    for (const auto& row : rows)
    {
        EXPECT_EQ(row.at("job"), "ping");
        const uint32_t i = std::stoul(row.at("iteration"));
        ASSERT_LT(i, 2u);
        const double bytes = std::stod(row.at("bytes"));
        const double frames = std::stod(row.at("frames"));
        EXPECT_GT(bytes, 0);
        // utilisation: bytes x 8 over 100 Gb/s x the iteration's time.
        const double time = std::stod(jobs[i].at("time_us"));
        EXPECT_NEAR(std::stod(row.at("utilisation")), bytes * 8 / (100e3 * time), 1e-5);
        // No row for a host the job leaves out, nor for a switch port towards it.
        for (const std::string& unused : {"h1", "h3"})
        {
            EXPECT_NE(row.at("node"), unused);
            EXPECT_NE(row.at("peer_node"), unused);
        }
        if (row.at("node") == "h0")
        {
            ++uplinks;
            // 65,536 B of payload in frames of at most 1024 B: 64 frames, each with the
            // RoCEv2 headers (Ethernet + 802.1Q 18, IPv4 20, UDP 8, BTH 12, ICRC 4: 62 B)
            // and the first with the RETH's 16 B.
            EXPECT_EQ(frames, 64) << i;
            EXPECT_EQ(bytes, 65536 + 62 * frames + 16) << i;
        }
        if (row.at("node") == "h2")
        {
            ++uplinks;
            // Its ACKs, one per data frame (AckInterval 1), 62 B each with the AETH's 4.
            EXPECT_EQ(frames, 64) << i;
            EXPECT_EQ(bytes, 66 * frames) << i;
        }
    }
    EXPECT_EQ(uplinks, 4u) << "h0's and h2's uplinks, in both iterations";
}

TEST_F(JobWorkloadTest, ErrorsNameThePointerOrTheGoalFileLine)
{
    const std::string goal = GoalFile("ping.goal", PING);
    ExperimentConfigError e = test::ConfigErrorOf(
        Dumbbell(R"([{"goal": ")" + goal + R"(", "hosts": ["h0", "h1", "h2"]}])"));
    EXPECT_EQ(e.GetPointer(), "/jobs/0/hosts");
    EXPECT_TRUE(Contains(e.GetReason(), "selects 3 hosts")) << e.what();
    EXPECT_TRUE(Contains(e.GetReason(), "2 ranks")) << e.what();

    e = test::ConfigErrorOf(Dumbbell(R"([{"goal": "no-such.goal", "hosts": ["h0", "h1"]}])"));
    EXPECT_EQ(e.GetPointer(), "/jobs/0/goal");
    EXPECT_TRUE(Contains(e.GetReason(), "cannot open the GOAL file")) << e.what();

    const std::string bad = GoalFile("bad.goal", "num_ranks 2\nrank 0 {\n  send 8b to 5\n}\n");
    e = test::ConfigErrorOf(Dumbbell(R"([{"goal": ")" + bad + R"(", "hosts": ["h0", "h1"]}])"));
    EXPECT_TRUE(Contains(e.what(), "bad.goal:3:")) << e.what();

    e = test::ConfigErrorOf(Dumbbell(R"([{"goal": ")" + goal + R"(", "hosts": ["h0", "s0"]}])"));
    EXPECT_EQ(e.GetPointer(), "/jobs/0/hosts/1");

    e = test::ConfigErrorOf(
        Dumbbell(R"([{"goal": ")" + goal + R"(", "hosts": ["h0", "h1"], "iteration": 2}])"));
    EXPECT_EQ(e.GetPointer(), "/jobs/0/iteration");

    e = test::ConfigErrorOf(
        Dumbbell(R"([{"goal": ")" + goal + R"(", "hosts": ["h0", "h1"], "start": "1s"}])"));
    EXPECT_EQ(e.GetPointer(), "/jobs/0/start");

    e = test::ConfigErrorOf(Dumbbell(
        R"([{"goal": ")" + goal + R"(", "hosts": ["h0", "h1"], "executor": {"CalcUnt": "1ns"}}])"));
    EXPECT_EQ(e.GetPointer(), "/jobs/0/executor/CalcUnt");

    e = test::ConfigErrorOf(Dumbbell("[]"));
    EXPECT_EQ(e.GetPointer(), "/jobs");
}

/** The shipped job in a run that stops at 4 ms, when its background arrivals stop (the
 * job has ended before; the background's longest flows are left unfinished). */
nlohmann::json
TestJob()
{
    nlohmann::json j = Shipped("goal-job-background.json");
    j["progress"] = false;
    j["paths_relative_to"] = test::CONFIGS;
    j["stop_time"] = "4ms";
    return j;
}

/** Run \p j; \return its job's iteration times (us), each iteration's end (us) in \p ends. */
std::vector<double>
RunJob(const std::string& name, const nlohmann::json& j, std::vector<double>* ends = nullptr)
{
    const ExperimentConfig c = ExperimentConfig::LoadString(j.dump(), name + ".json");
    const std::string dir = OutputDir(name);
    {
        ExperimentRunner runner(c, dir);
        runner.Run();
    }
    Simulator::Destroy();
    std::vector<double> times;
    for (const auto& row : Table(dir + "/jobs.csv"))
    {
        times.push_back(row.at("time_us").empty() ? 0 : std::stod(row.at("time_us")));
        if (ends)
        {
            ends->push_back(row.at("end_us").empty() ? 1e9 : std::stod(row.at("end_us")));
        }
    }
    std::cout << name << ":";
    for (double t : times)
    {
        std::cout << ' ' << t;
    }
    std::cout << std::endl;
    return times;
}

double
Mean(const std::vector<double>& v)
{
    double sum = 0;
    for (double x : v)
    {
        sum += x;
    }
    return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

const char* const ADAPTIVE =
    R"([{"roles": ["leaf"], "balancer": {"type": "ns3::AdaptiveLoadBalancer"}}])";

TEST_F(JobWorkloadTest, ShippedJobAloneAndUnderBackgroundLoad)
{
    nlohmann::json alone = TestJob();
    alone.erase("workload");
    nlohmann::json aloneAdaptive = alone;
    aloneAdaptive["load_balancing"] = nlohmann::json::parse(ADAPTIVE);
    const nlohmann::json loaded = TestJob();
    nlohmann::json loadedAdaptive = loaded;
    loadedAdaptive["load_balancing"] = nlohmann::json::parse(ADAPTIVE);
    // The control: the same job beside traffic that shares no link with it: the 8 hosts
    // the ring leaves out send 12 MB to their leaf neighbour and back (h2 <-> h3, ...:
    // each at line rate, through the ring's leaves but never through a port the ring
    // uses), for longer than the job.
    nlohmann::json control = alone;
    for (uint32_t leaf = 0; leaf < 4; ++leaf)
    {
        const std::string a = "h" + std::to_string(4 * leaf + 2);
        const std::string b = "h" + std::to_string(4 * leaf + 3);
        control["flows"].push_back({{"src", a}, {"dst", b}, {"bytes", 12000000}});
        control["flows"].push_back({{"src", b}, {"dst", a}, {"bytes", 12000000}});
    }

    const std::vector<double> ecmp = RunJob("alone-ecmp", alone);
    const std::vector<double> adaptive = RunJob("alone-adaptive", aloneAdaptive);
    std::vector<double> ends;
    const std::vector<double> loadedEcmp = RunJob("background-ecmp", loaded, &ends);
    const std::vector<double> loadedAdapt = RunJob("background-adaptive", loadedAdaptive, &ends);
    const std::vector<double> controlled = RunJob("control", control);
    for (const auto* v : {&ecmp, &adaptive, &loadedEcmp, &loadedAdapt, &controlled})
    {
        ASSERT_EQ(v->size(), 2u);
    }
    // The background lasts as long as the job: every loaded iteration ends before the
    // arrivals stop (4 ms).
    for (double end : ends)
    {
        EXPECT_LT(end, 4000);
    }

    // Alone. Every rank computes 20 us, then 14 ring steps of a 262,144 B segment, each
    // sent when the previous step's segment has arrived (and, in the first 7, been reduced
    // in 2 us). A segment is 256 packets of 1024 B payload, 1110 B on the wire with the
    // RoCEv2 framing (Ethernet + 802.1Q, IPv4, UDP, BTH, ICRC, FCS, preamble and gap: 86 B),
    // plus the RETH's 16 B: 284,176 B. A host sends its segment while it receives its
    // predecessor's and acknowledges every packet of it (AckInterval 1): 256 ACKs of 90 B
    // share its link, 307,216 B in all, 24.58 us at 100 Gb/s. The last byte arrives the
    // links' delays and a packet's store-and-forward per switch later: across the fabric
    // (4 links, 3 switches) 4 x 1 us + 3 x 88.8 ns, 28.85 us a step in all; between two
    // hosts of a leaf (2 links, 1 switch) 26.67 us. Along the ring the hops alternate
    // (h0 -> h1 within leaf 0, h1 -> h4 across, ...), so the chain of 14 steps has 7 of
    // each: 20 + 7 x 28.85 + 7 x 26.67 + 7 x 2 = 422.6 us, and the last send completes with
    // its ACK, 4 us later: 426.6 us (400.8 us without the ACKs' bytes). Measured
    // (2026-12-07): 424.5 us every iteration, ECMP and adaptive alike, 0.5 % under the
    // bound (a step's first and last ACKs fall outside its own send). With one ring flow
    // up and one down per leaf, ECMP cannot collide the job with itself.
    const double bound = 20 + 7 * 28.85 + 7 * 26.67 + 7 * 2 + 4.0;
    for (uint32_t i = 0; i < 2; ++i)
    {
        EXPECT_GT(ecmp[i], 0.98 * bound) << i;
        EXPECT_LT(ecmp[i], 1.02 * bound) << i;
        EXPECT_NEAR(adaptive[i], ecmp[i], 0.01 * ecmp[i]) << i;
        // The control: traffic on the same switches but none of the ring's ports leaves
        // the job as fast as alone.
        EXPECT_NEAR(controlled[i], ecmp[i], 0.01 * ecmp[i]) << i;
    }

    // Under 30 % WebSearch load. Measured (2026-12-07), us per iteration, 2 iterations
    // (seed 1, 2, 3): ECMP 894 1220, 791 1498, 882 1125; adaptive routing 1116 1470, 731
    // 1617, 690 740. The background costs ECMP 2.4 to 2.7 times the alone time, and
    // adaptive routing 1.7 to 3.0 times: every iteration is slower than alone by at least
    // 60 % (the shortest, 690 us).
    for (uint32_t i = 0; i < 2; ++i)
    {
        EXPECT_GT(loadedEcmp[i], 1.5 * ecmp[i]) << i;
        EXPECT_GT(loadedAdapt[i], 1.5 * ecmp[i]) << i;
    }
    EXPECT_GT(Mean(loadedEcmp), 2 * Mean(ecmp));
    // Adaptive routing against ECMP: 1.22, 1.03 and 0.71 times ECMP's mean over seeds 1,
    // 2 and 3: no gain that holds. The leaves choose an uplink by its own queue, but the
    // ring flows meet the background where no uplink choice helps: on the spine's link
    // down to the destination leaf, which the leaf's choice fixes without seeing it, and
    // on the leaf's link to the receiving host, which WebSearch flows to that host share.
    // A ring step waits for the slowest of its 8 flows, so each step pays for the worst of
    // those links. Asserted: adaptive routing keeps the background's cost (above), within
    // a factor 1.5 of ECMP's either way.
    EXPECT_GT(Mean(loadedAdapt), Mean(loadedEcmp) / 1.5);
    EXPECT_LT(Mean(loadedAdapt), Mean(loadedEcmp) * 1.5);
}

} // namespace
} // namespace ns3
