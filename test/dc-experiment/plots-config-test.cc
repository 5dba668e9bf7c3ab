// The "plots" a configuration asks ./roce-lab run to draw: known names are echoed
// in the effective configuration, anything else is an error naming its pointer.
#include "ns3/experiment-config-error.h"
#include "ns3/experiment-config.h"

#include <gtest/gtest.h>
#include <string>

namespace ns3
{
namespace
{

const std::string BASE = R"({"topology": {"type": "dumbbell", "hosts_per_side": 1},
  "flows": [{"src": 0, "dst": 1, "bytes": 1000}])";

std::string
ErrorOf(const std::string& plots)
{
    try
    {
        ExperimentConfig::LoadString(BASE + R"(, "plots": )" + plots + "}", "plots.json");
    }
    catch (const ExperimentConfigError& e)
    {
        return e.what();
    }
    return "";
}

TEST(PlotsConfig, KnownPlotsAreEchoedInTheEffectiveConfiguration)
{
    const ExperimentConfig c = ExperimentConfig::LoadString(
        BASE + R"(, "plots": ["fct_cdf", "slowdown_by_size"]})", "plots.json");
    EXPECT_EQ(c.EffectiveJson()["plots"].dump(), R"(["fct_cdf","slowdown_by_size"])");
    const ExperimentConfig none = ExperimentConfig::LoadString(BASE + "}", "plots.json");
    EXPECT_FALSE(none.EffectiveJson().contains("plots"));
}

TEST(PlotsConfig, BadPlotsNameThePointer)
{
    const std::string unknown = ErrorOf(R"(["fct_cdf", "throughput"])");
    EXPECT_NE(unknown.find("plots.json: /plots/1"), std::string::npos) << unknown;
    EXPECT_NE(unknown.find("unknown plot \"throughput\""), std::string::npos) << unknown;
    EXPECT_NE(unknown.find("slowdown_cdf"), std::string::npos) << unknown;
    const std::string notArray = ErrorOf(R"("fct_cdf")");
    EXPECT_NE(notArray.find("plots.json: /plots"), std::string::npos) << notArray;
    EXPECT_NE(notArray.find("expected an array"), std::string::npos) << notArray;
}

} // namespace
} // namespace ns3
