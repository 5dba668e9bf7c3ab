// config.json records attribute defaults changed outside the file (command-line
// --ns3::Type::Attribute=value, Config::SetDefault), and only those.
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/simulator.h"
#include "ns3/type-id.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{
namespace
{

nlohmann::json
RunAndReadConfig(const std::string& leaf)
{
    const ExperimentConfig config = ExperimentConfig::LoadString(
        R"({"progress": false, "topology": {"type": "dumbbell", "hosts_per_side": 1},
            "flows": [{"src": "h0", "dst": "h1", "bytes": 1000}]})",
        "defaults.json");
    const std::filesystem::path dir =
        std::filesystem::path(ROCE_LAB_BINARY_DIR) / "test-output" / "changed-defaults" / leaf;
    std::filesystem::remove_all(dir);
    {
        ExperimentRunner runner(config, dir.string());
        runner.Run();
    }
    Simulator::Destroy();
    std::ifstream in(dir / "config.json");
    return nlohmann::json::parse(in);
}

TEST(ChangedDefaults, ConfigJsonListsDefaultsChangedOutsideTheFile)
{
    EXPECT_FALSE(RunAndReadConfig("untouched").contains("attribute_defaults"));

    TypeId::AttributeInformation info;
    ASSERT_TRUE(TypeId::LookupByName("ns3::RdmaDcqcn").LookupAttributeByName("G", &info));
    Config::SetDefault("ns3::RdmaDcqcn::G", DoubleValue(0.125));
    const nlohmann::json changed = RunAndReadConfig("changed");
    Config::SetDefault("ns3::RdmaDcqcn::G", *info.originalInitialValue);
    ASSERT_TRUE(changed.contains("attribute_defaults"));
    EXPECT_EQ(changed["attribute_defaults"].size(), 1u) << changed["attribute_defaults"].dump();
    EXPECT_EQ(changed["attribute_defaults"]["ns3::RdmaDcqcn::G"], "0.125");
}

} // namespace
} // namespace ns3
