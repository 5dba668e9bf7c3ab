// Where to add a new monitor (doc/architecture.md): connect to a trace at Install, write a
// file (listed in the README) at Write, add a key to summary.json at AddToSummary.
#include "output-file-reader.h"
#include "topology-config.h"

#include "ns3/experiment-runner.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

namespace ns3
{
namespace
{

class CompletionMonitor : public ExperimentMonitor
{
  public:
    void Install(ExperimentRunContext& context) override
    {
        context.GetTopology().GetNic(0)->TraceConnectWithoutContext(
            "Completion", MakeCallback(&CompletionMonitor::OnCompletion, this));
    }

    void OnCompletion(const RdmaCompletion& c) { times.push_back(c.completionTime); }

    void Write(ExperimentRunContext& context) override
    {
        std::ofstream out(context.OutputPath("completions.csv"), std::ios::binary);
        out << "time_ps\n" << times.at(0).GetPicoSeconds() << '\n';
        context.GetReadme().AddCsv("completions.csv", "h0's completions", "time_ps");
    }

    void AddToSummary(const ExperimentRunContext&, nlohmann::ordered_json& summary) const override
    {
        summary["completions"] = times.size();
    }
    std::vector<Time> times;
};

TEST(ExampleMonitorTest, AnAddedMonitorSeesTheFlowCompleteAndReportsIt)
{
    const ExperimentConfig config =
        test::LoadTopology(R"({"type": "dumbbell", "hosts_per_side": 1})", "example-monitor.json");
    const std::string dir = ROCE_LAB_BINARY_DIR "/test-output/example-monitor";
    CompletionMonitor monitor;
    {
        ExperimentRunner runner(config, dir);
        runner.AddMonitor(&monitor);
        runner.Run();
        EXPECT_EQ(monitor.times[0], runner.GetFlowResults()[0].finish);
    }
    Simulator::Destroy();
    EXPECT_EQ(test::ReadFile(dir + "/completions.csv"),
              "time_ps\n" + std::to_string(monitor.times[0].GetPicoSeconds()) + "\n");
    EXPECT_NE(test::ReadFile(dir + "/summary.json").find("\"completions\": 1"), std::string::npos);
}

} // namespace
} // namespace ns3
