// job_steps.csv (JobWorkload): each step of each iteration of a hand-written job, from the
// first start of any of its operations to the last end. The steps of an iteration cover it
// from its start to its end without a gap (jobs.csv), a compute step that nothing else
// overlaps takes its duration, and an iteration the run ended in leaves its steps open.
#include "output-file-reader.h"

#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/job-workload.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

using test::OutputDir;
using test::ReadFile;
using test::Table;

class JobStepTimesTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /** Run \p text (a config) into a directory of its own, \p name. */
    static std::string Run(const std::string& name, const std::string& text)
    {
        const ExperimentConfig c = ExperimentConfig::LoadString(text, name + ".json");
        const std::string dir = OutputDir("job-step-times-" + name);
        ExperimentRunner runner(c, dir);
        runner.Run();
        return dir;
    }
};

TEST_F(JobStepTimesTest, StepsCoverEachIterationFromItsStartToItsEnd)
{
    // 4 ranks on one switch: 20 us of compute, a ring and a tree all-reduce of 256 KiB
    // (1 us reductions), an all-to-all of 256 KiB; 2 iterations.
    const std::string dir = Run("cover", R"({"progress": false, "stop_time": "10ms",
        "topology": {"type": "incast", "senders": 3, "host_link_rate": "100Gbps",
                     "link_delay": "1us"},
        "jobs": [{"name": "train", "hosts": "h0-h3", "iterations": 2, "steps": [
            {"compute": "20us"},
            {"collective": "allreduce", "bytes": 262144, "reduce": "1us"},
            {"collective": "allreduce", "algorithm": "tree", "bytes": 262144, "reduce": "1us"},
            {"collective": "alltoall", "bytes": 262144}]}]})");
    const auto jobs = Table(dir + "/jobs.csv");
    const auto steps = Table(dir + "/job_steps.csv");
    ASSERT_EQ(jobs.size(), 2u);
    ASSERT_EQ(steps.size(), 8u);
    EXPECT_EQ(test::Lines(ReadFile(dir + "/job_steps.csv")).at(0), JobWorkload::STEP_COLUMNS);
    EXPECT_NE(ReadFile(dir + "/README").find("job_steps.csv"), std::string::npos);
    const std::vector<std::string> kinds = {"compute", "allreduce", "allreduce", "alltoall"};
    const std::vector<std::string> algorithms = {"", "ring", "tree", "linear_shift"};
    for (uint32_t i = 0; i < 2; ++i)
    {
        double previousStart = 0;
        double previousEnd = 0;
        double last = 0;
        for (uint32_t k = 0; k < 4; ++k)
        {
            const auto& row = steps[i * 4 + k];
            const std::string where =
                "iteration " + std::to_string(i) + " step " + std::to_string(k);
            EXPECT_EQ(row.at("job"), "train") << where;
            EXPECT_EQ(row.at("iteration"), std::to_string(i)) << where;
            EXPECT_EQ(row.at("step"), std::to_string(k)) << where;
            EXPECT_EQ(row.at("kind"), kinds[k]) << where;
            EXPECT_EQ(row.at("algorithm"), algorithms[k]) << where;
            const double start = std::stod(row.at("start_us"));
            const double end = std::stod(row.at("end_us"));
            // Six decimals: the difference is exact to the last digit.
            EXPECT_NEAR(std::stod(row.at("time_us")), end - start, 1.5e-6) << where;
            if (k == 0)
            {
                // The iteration begins with its first step, on every rank at once; nothing
                // else runs beside the compute, which takes its 20 us.
                EXPECT_EQ(row.at("start_us"), jobs[i].at("start_us")) << where;
                EXPECT_EQ(row.at("time_us"), "20.000000") << where;
            }
            else
            {
                // A rank starts a step when it is done with the previous one: the step
                // begins after the previous one began, and no later than it ended (no gap).
                EXPECT_GE(start, previousStart) << where;
                EXPECT_LE(start, previousEnd) << where;
                EXPECT_GE(end, previousEnd) << where;
                EXPECT_GT(end - start, 0) << where;
            }
            previousStart = start;
            previousEnd = end;
            last = std::max(last, end);
        }
        // The last step ends the iteration (its last operation's end, jobs.csv).
        EXPECT_EQ(steps[i * 4 + 3].at("end_us"), jobs[i].at("end_us")) << i;
        EXPECT_DOUBLE_EQ(last, std::stod(jobs[i].at("end_us"))) << i;
    }
}

TEST_F(JobStepTimesTest, AnIterationTheRunEndedInLeavesItsStepsOpen)
{
    // Compute only, 20 us then 30 us, 3 iterations, the run stopped at 60 us: iteration 0
    // runs 0-20-50 us; iteration 1 began its first step at 50 us and did not finish it,
    // and never began its second; iteration 2 never began.
    const std::string dir = Run("open", R"({"progress": false, "stop_time": "60us",
        "topology": {"type": "incast", "senders": 1},
        "jobs": [{"name": "c", "hosts": "h0-h1", "iterations": 3,
                  "steps": [{"compute": "20us"}, {"compute": "30us"}]}]})");
    const auto jobs = Table(dir + "/jobs.csv");
    ASSERT_EQ(jobs.size(), 2u);
    EXPECT_EQ(jobs[1].at("end_us"), "");
    const auto steps = Table(dir + "/job_steps.csv");
    ASSERT_EQ(steps.size(), 4u);
    const std::vector<std::vector<std::string>> expected = {
        {"0", "0", "compute", "0.000000", "20.000000", "20.000000"},
        {"0", "1", "compute", "20.000000", "50.000000", "30.000000"},
        {"1", "0", "compute", "50.000000", "", ""},
        {"1", "1", "compute", "", "", ""},
    };
    for (std::size_t k = 0; k < steps.size(); ++k)
    {
        const auto& row = steps[k];
        EXPECT_EQ(row.at("job"), "c");
        EXPECT_EQ(
            (std::vector<std::string>{row.at("iteration"), row.at("step"), row.at("kind"),
                                      row.at("start_us"), row.at("end_us"), row.at("time_us")}),
            expected[k])
            << k;
        EXPECT_EQ(row.at("algorithm"), "") << k;
    }
}

TEST_F(JobStepTimesTest, OnlyJobsWithStepsHaveRows)
{
    // A GOAL-file job beside a steps job: job_steps.csv has the steps job's rows only (a
    // GOAL file has no steps).
    const std::string folder = OutputDir("job-step-times-goal");
    std::filesystem::create_directories(folder);
    const std::string goal = folder + "/calc.goal";
    std::ofstream(goal)
        << "num_ranks 2\nrank 0 {\n  c: calc 5000\n}\nrank 1 {\n  c: calc 7000\n}\n";
    const std::string dir = Run("mixed", R"({"progress": false, "stop_time": "1ms",
        "topology": {"type": "incast", "senders": 3},
        "jobs": [{"name": "g", "goal": ")" + goal +
                                             R"(", "hosts": ["h0", "h1"]},
                 {"name": "s", "hosts": ["h2", "h3"], "iterations": 2,
                  "steps": [{"compute": "5us"}]}]})");
    ASSERT_EQ(Table(dir + "/jobs.csv").size(), 3u);
    const auto steps = Table(dir + "/job_steps.csv");
    ASSERT_EQ(steps.size(), 2u);
    for (const auto& row : steps)
    {
        EXPECT_EQ(row.at("job"), "s");
        EXPECT_EQ(row.at("time_us"), "5.000000");
    }
    EXPECT_EQ(steps[1].at("start_us"), "5.000000");
}

} // namespace
} // namespace ns3
