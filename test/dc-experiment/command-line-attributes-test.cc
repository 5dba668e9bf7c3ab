// The command line's --ns3::Type::Attribute=value wins over the same attribute in a JSON
// experiment file (as ns-3 users expect), and the effective configuration records it.
#include "ns3/command-line-attributes.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/experiment-config.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

const char* EXPERIMENT = R"({"topology": {"type": "incast", "senders": 2},
    "cc": {"type": "ns3::RdmaDcqcn", "G": 0.5},
    "flows": [{"src": "h1", "dst": "h0", "bytes": 1000}]})";

class CommandLineAttributesTest : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Config::SetDefault("ns3::RdmaDcqcn::G", DoubleValue(m_defaultG));
        Simulator::Destroy();
    }

    /** Parse \p args as a program's command line does (Config::SetDefault for each). */
    static CommandLineAttributes Parse(std::vector<std::string> args)
    {
        args.insert(args.begin(), "program");
        std::vector<char*> argv;
        for (auto& a : args)
        {
            argv.push_back(a.data());
        }
        CommandLine cmd;
        cmd.Parse(static_cast<int>(argv.size()), argv.data());
        return CommandLineAttributes::FromArguments(args);
    }

    static double EffectiveG(const ExperimentConfig& config)
    {
        return config.EffectiveJson().at("cc").at("G").get<double>();
    }

    double m_defaultG{0.00390625}; //!< RdmaDcqcn's G default, 1/256 [DCQCN15]
};

TEST_F(CommandLineAttributesTest, CollectsOnlyAttributesTheTypeDeclares)
{
    const auto cl = CommandLineAttributes::FromArguments(
        {"roce-run", "x.json", "--out=dir", "--ns3::RdmaDcqcn::G=0.01",
         "--ns3::RdmaDcqcn::NoSuchAttribute=1", "--ns3::NoSuchType::G=1"});
    EXPECT_EQ(cl.Find("ns3::RdmaDcqcn", "G"), "--ns3::RdmaDcqcn::G=0.01");
    EXPECT_EQ(cl.Find("ns3::RdmaDcqcn", "NoSuchAttribute"), "");
    EXPECT_EQ(cl.Find("ns3::RdmaCongestionOps", "G"), "");
    EXPECT_TRUE(CommandLineAttributes::FromArguments({"roce-run", "--out=x"}).IsEmpty());
}

TEST_F(CommandLineAttributesTest, FileWinsWithoutTheCommandLine)
{
    const ExperimentConfig config = ExperimentConfig::LoadString(EXPERIMENT, "x.json");
    EXPECT_DOUBLE_EQ(EffectiveG(config), 0.5);
    ASSERT_EQ(config.GetCongestionControl().attributes.size(), 1u);
    EXPECT_TRUE(config.GetWarnings().empty());
}

TEST_F(CommandLineAttributesTest, CommandLineWinsAndIsRecorded)
{
    const CommandLineAttributes cl = Parse({"--ns3::RdmaDcqcn::G=0.01"});
    const ExperimentConfig config = ExperimentConfig::LoadString(EXPERIMENT, "x.json", cl);
    // The file's G is not applied to the objects: they keep the command line's default.
    EXPECT_TRUE(config.GetCongestionControl().attributes.empty());
    EXPECT_DOUBLE_EQ(EffectiveG(config), 0.01);
    ASSERT_EQ(config.GetWarnings().size(), 1u);
    EXPECT_EQ(config.GetWarnings()[0],
              "the command line's --ns3::RdmaDcqcn::G=0.01 overrides /cc/G = 0.5 in x.json");
    // The effective configuration loads back to the same value, with no command line.
    const ExperimentConfig again =
        ExperimentConfig::LoadString(config.EffectiveJson().dump(), "config.json");
    EXPECT_DOUBLE_EQ(EffectiveG(again), 0.01);
}

} // namespace
} // namespace ns3
