// The monitor slot of ExperimentRunner: a caller's monitor is called at each phase in
// order, after the runner's own; its file is listed in the README and its summary key
// comes after the runner's keys; a monitor that refuses the configuration stops the run
// before the network is built.
#include "output-file-reader.h"

#include "ns3/experiment-config-error.h"
#include "ns3/experiment-config.h"
#include "ns3/experiment-monitor.h"
#include "ns3/experiment-runner.h"
#include "ns3/simulator.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

using test::ReadFile;

const char* CONFIG = R"({"progress": false, "stop_time": "1ms",
    "topology": {"type": "dumbbell", "hosts_per_side": 1},
    "flows": [{"src": "h0", "dst": "h1", "bytes": 10000, "start": "1us"}]})";

/** Records the phases it sees; writes probe.csv and adds "probe" to the summary. */
class ProbeMonitor : public ExperimentMonitor
{
  public:
    void CheckConfig(const ExperimentRunContext& /* context */) override
    {
        phases.push_back("check");
        if (refuse)
        {
            throw ExperimentConfigError("probe.json", "/probe", "refused");
        }
    }

    void Prepare(ExperimentRunContext& context) override
    {
        phases.push_back("prepare");
        hostsAtPrepare = context.GetTopology().GetNHosts();
    }

    void Install(ExperimentRunContext& context) override
    {
        phases.push_back("install");
        flowsAtInstall = context.GetResults().size();
    }

    void Collect(ExperimentRunContext& /* context */) override
    {
        phases.push_back("collect");
    }

    void Write(ExperimentRunContext& context) override
    {
        phases.push_back("write");
        finishedAtWrite = context.GetResults().at(0).finished;
        std::ofstream out(context.OutputPath("probe.csv"), std::ios::binary);
        out << "a,b\n1,2\n";
        context.GetReadme().AddCsv("probe.csv", "a probe", "a,b");
    }

    void AddToSummary(const ExperimentRunContext& context,
                      nlohmann::ordered_json& summary) const override
    {
        summary["probe"] = {{"end_time_ps", context.GetEndTime().GetPicoSeconds()}};
    }

    bool refuse{false};
    std::vector<std::string> phases;
    uint32_t hostsAtPrepare{0};
    std::size_t flowsAtInstall{0};
    bool finishedAtWrite{false};
};

std::string
OutputDir(const std::string& leaf)
{
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const std::filesystem::path dir =
        std::filesystem::path(ROCE_LAB_BINARY_DIR) / "test-output" / info->name() / leaf;
    std::filesystem::remove_all(dir);
    return dir.string();
}

TEST(ExperimentMonitorTest, AddedMonitorSeesEveryPhaseAndReportsAfterTheRunnersOwn)
{
    const ExperimentConfig config = ExperimentConfig::LoadString(CONFIG, "probe.json");
    const std::string dir = OutputDir("run");
    ProbeMonitor probe;
    {
        ExperimentRunner runner(config, dir);
        runner.AddMonitor(&probe);
        runner.Run();
        EXPECT_EQ(probe.phases,
                  (std::vector<std::string>{"check", "prepare", "install", "collect", "write"}));
        EXPECT_EQ(probe.hostsAtPrepare, 2u);
        EXPECT_EQ(probe.flowsAtInstall, 1u);
        EXPECT_TRUE(probe.finishedAtWrite);

        const nlohmann::ordered_json summary =
            nlohmann::ordered_json::parse(ReadFile(dir + "/summary.json"));
        ASSERT_TRUE(summary.contains("probe"));
        EXPECT_EQ(summary.items().begin().key(), "flows");
        EXPECT_EQ((--summary.end()).key(), "probe");
        EXPECT_EQ(summary["probe"]["end_time_ps"].get<int64_t>(),
                  runner.GetEndTime().GetPicoSeconds());

        const std::string readme = ReadFile(dir + "/README");
        const auto probeEntry = readme.find("probe.csv: a probe");
        ASSERT_NE(probeEntry, std::string::npos);
        EXPECT_LT(readme.find("ports.csv:"), probeEntry);
        EXPECT_LT(probeEntry, readme.find("summary.json:"));
        EXPECT_NE(readme.find("keys: flows, "), std::string::npos);
        EXPECT_NE(readme.find(", probe\n"), std::string::npos);
    }
    Simulator::Destroy();
}

TEST(ExperimentMonitorTest, MonitorRefusingTheConfigurationStopsTheRunBeforeTheBuild)
{
    const ExperimentConfig config = ExperimentConfig::LoadString(CONFIG, "probe.json");
    ProbeMonitor probe;
    probe.refuse = true;
    {
        ExperimentRunner runner(config, OutputDir("refused"));
        runner.AddMonitor(&probe);
        EXPECT_THROW(runner.Run(), ExperimentConfigError);
        EXPECT_EQ(probe.phases, std::vector<std::string>{"check"});
        EXPECT_EQ(runner.GetTopology().GetNHosts(), 0u);
    }
    Simulator::Destroy();
}

} // namespace
} // namespace ns3
