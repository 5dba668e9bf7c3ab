// The output directory's config.json (non-default attributes) and README:
// NonDefaultAttributes on bare objects, then on a run.
#include "output-file-reader.h"

#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/non-default-attributes.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/run-readme-writer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace ns3
{
namespace
{

using test::Fields;
using test::Lines;
using test::OutputDir;
using test::ReadFile;

TEST(NonDefaultAttributesTest, OnlyChangedAttributesAreListed)
{
    Ptr<RdmaDcqcn> a = CreateObject<RdmaDcqcn>();
    Ptr<RdmaDcqcn> b = CreateObject<RdmaDcqcn>();
    a->SetAttribute("RateAI", DataRateValue(DataRate("80Mbps")));
    b->SetAttribute("RateAI", DataRateValue(DataRate("80Mbps")));
    NonDefaultAttributes attributes;
    attributes.Add(a);
    attributes.Add(b);
    attributes.Add(a); // visited once
    auto j = attributes.ToJson();
    ASSERT_TRUE(j.contains("ns3::RdmaDcqcn")) << j.dump();
    EXPECT_EQ(j["ns3::RdmaDcqcn"]["RateAI"], "80000000bps");
    EXPECT_EQ(j["ns3::RdmaDcqcn"].size(), 1u) << j.dump();

    // Instances that differ: the default and a count per value.
    Ptr<RdmaDcqcn> c = CreateObject<RdmaDcqcn>();
    attributes.Add(c);
    j = attributes.ToJson();
    EXPECT_EQ(j["ns3::RdmaDcqcn"]["RateAI"]["default"], "40000000bps");
    EXPECT_EQ(j["ns3::RdmaDcqcn"]["RateAI"]["values"]["80000000bps"], 2);
    EXPECT_EQ(j["ns3::RdmaDcqcn"]["RateAI"]["values"]["40000000bps"], 1);

    NonDefaultAttributes untouched;
    untouched.Add(c);
    EXPECT_TRUE(untouched.ToJson().empty()) << untouched.ToJson().dump();
}

TEST(NonDefaultAttributesTest, ChangedDefaultsCount)
{
    // Config::SetDefault (what --ns3::Type::Attr=value does) changes the initial value;
    // the comparison is with the TypeId's original default.
    Config::SetDefault("ns3::RdmaDcqcn::RateHAI", StringValue("300Mbps"));
    Ptr<RdmaDcqcn> dcqcn = CreateObject<RdmaDcqcn>();
    Config::SetDefault("ns3::RdmaDcqcn::RateHAI", StringValue("200Mbps"));
    NonDefaultAttributes attributes;
    attributes.Add(dcqcn);
    EXPECT_EQ(attributes.ToJson()["ns3::RdmaDcqcn"]["RateHAI"], "300000000bps");
}

TEST(OutputDirectoryTest, ConfigJsonRecordsNonDefaultsAndReadmeListsTheFiles)
{
    const ExperimentConfig config = ExperimentConfig::LoadString(
        R"({"progress": false, "topology": {"type": "dumbbell", "hosts_per_side": 2},
            "cc": {"type": "ns3::RdmaDcqcn", "RateAI": "60Mbps"},
            "buffer": {"BufferSize": "3MB"},
            "flows": [{"src": "h0", "dst": "h2", "bytes": 20000}]})",
        "outputs.json");
    const std::string dir = OutputDir("run");
    {
        ExperimentRunner runner(config, dir);
        runner.SetCommandLine("roce-run outputs.json");
        runner.Run();
    }
    Simulator::Destroy();

    const auto j = nlohmann::json::parse(ReadFile(dir + "/config.json"));
    const auto& changed = j["non_default_attributes"];
    EXPECT_EQ(changed["ns3::RdmaDcqcn"]["RateAI"], "60000000bps") << changed.dump(1);
    EXPECT_FALSE(changed["ns3::RdmaDcqcn"].contains("RateHAI"));
    EXPECT_EQ(changed["ns3::DynamicThresholdBufferManager"]["BufferSize"], "3000000B")
        << changed.dump(1);
    // The run's config.json loads again (its record section is accepted).
    EXPECT_NO_THROW(ExperimentConfig::LoadString(ReadFile(dir + "/config.json"), "again.json"));

    const std::string readme = ReadFile(dir + "/README");
    EXPECT_NE(readme.find("configuration: outputs.json\nseed: 1\ncommand: roce-run outputs.json\n"),
              std::string::npos)
        << readme;
    std::istringstream flows(ReadFile(dir + "/flows.csv"));
    std::string header;
    std::getline(flows, header);
    EXPECT_NE(readme.find("flows.csv: "), std::string::npos);
    EXPECT_NE(readme.find("    columns: " + header + "\n"), std::string::npos) << readme;
    EXPECT_NE(readme.find("summary.json: "), std::string::npos);
    // No monitors asked: no queues.csv or rates.csv written, none listed.
    EXPECT_EQ(readme.find("queues.csv"), std::string::npos) << readme;
    EXPECT_EQ(readme.find("rates.csv"), std::string::npos);
    EXPECT_EQ(readme.find(dir), std::string::npos) << "README names the output path";
}

TEST(OutputDirectoryTest, ReadmeWriterListsInOrder)
{
    RunReadmeWriter readme;
    readme.SetRun("x.json", 7);
    readme.AddCsv("b.csv", "bee", "t,v");
    readme.AddJson("a.json", "ay", "x, y");
    EXPECT_EQ(readme.GetText(),
              "Output directory of one roce-lab run (file formats: "
              "contrib/dc-experiment/doc/dc-experiment.md, \"Outputs\").\n"
              "configuration: x.json\nseed: 7\n"
              "The same configuration and seed give byte-identical files.\n\nFiles:\n"
              "b.csv: bee\n    columns: t,v\na.json: ay\n    keys: x, y\n");
}

TEST(OutputDirectoryTest, PlotsMustBeNames)
{
    const char* base = R"({"topology": {"type": "incast", "senders": 1},
                           "flows": [{"src": 1, "dst": 0, "bytes": 1000}], "plots": )";
    try
    {
        ExperimentConfig::LoadString(std::string(base) + R"(["fct_cdf", 3]})", "plots.json");
        FAIL() << "a number in /plots was accepted";
    }
    catch (const ExperimentConfigError& e)
    {
        EXPECT_NE(std::string(e.what()).find("plots.json: /plots/1"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(ExperimentConfig::LoadString(std::string(base) + R"("fct_cdf"})", "plots.json"),
                 ExperimentConfigError);
    EXPECT_EQ(ExperimentConfig::LoadString(std::string(base) + R"(["fct_cdf"]})", "plots.json")
                  .EffectiveJson()["plots"][0],
              "fct_cdf");
}

} // namespace
} // namespace ns3
