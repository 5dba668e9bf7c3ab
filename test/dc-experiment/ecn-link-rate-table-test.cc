// "/ecn/by_link_rate" (EcnLinkRateTable): each switch egress port of an experiment gets the
// thresholds of its link's rate, the section's where the rate is not listed, and config.json
// records the thresholds in force per rate. Malformed tables: malformed/cases.json.
#include "ns3/dcb-net-device.h"
#include "ns3/double.h"
#include "ns3/experiment-config.h"
#include "ns3/queue-size.h"
#include "ns3/red-ecn-marker.h"
#include "ns3/simulator.h"
#include "ns3/topology-builder.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{
namespace
{

/** A 2-leaf, 2-spine fabric: 100G host links, 400G leaf-spine links; \p ecn as given. */
std::string
Experiment(const nlohmann::json& ecn)
{
    nlohmann::json j = {{"progress", false},
                        {"topology",
                         {{"type", "leaf_spine"},
                          {"leaves", 2},
                          {"spines", 2},
                          {"hosts_per_leaf", 2},
                          {"host_link_rate", "100Gbps"},
                          {"fabric_link_rate", "400Gbps"}}},
                        {"flows", {{{"src", "h0"}, {"dst", "h3"}, {"bytes", 1000}}}},
                        {"ecn", ecn}};
    return j.dump();
}

uint64_t
Kmin(Ptr<DcbSwitch> sw, uint32_t port)
{
    QueueSizeValue v;
    sw->GetEcnMarker(port)->GetAttribute("Kmin", v);
    return v.Get().GetValue();
}

double
Pmax(Ptr<DcbSwitch> sw, uint32_t port)
{
    DoubleValue v;
    sw->GetEcnMarker(port)->GetAttribute("Pmax", v);
    return v.Get();
}

TEST(EcnLinkRateTable, EachSwitchPortGetsTheThresholdsOfItsLinkRate)
{
    const ExperimentConfig c = ExperimentConfig::LoadString(
        Experiment({{"Kmin", "400KB"},
                    {"Kmax", "1600KB"},
                    {"Pmax", 0.2},
                    {"by_link_rate", {{"400Gbps", {{"Kmin", "1600KB"}, {"Kmax", "6400KB"}}}}}}),
        "x.json");
    ASSERT_EQ(c.GetEcnByLinkRate().size(), 1u);
    EXPECT_EQ(c.GetEcnByLinkRate()[0].rate, DataRate("400Gbps"));
    EXPECT_EQ(c.GetEcnByLinkRate()[0].pointer, "/ecn/by_link_rate/400Gbps");
    // config.json: the section as given, and the full set in force at 400G (Pmax inherited).
    const nlohmann::ordered_json& eff = c.EffectiveJson()["ecn"];
    EXPECT_EQ(eff["Kmin"], "400000B");
    EXPECT_EQ(eff["by_link_rate"]["400Gbps"]["Kmin"], "1600000B");
    EXPECT_EQ(eff["by_link_rate"]["400Gbps"]["Kmax"], "6400000B");
    EXPECT_EQ(eff["by_link_rate"]["400Gbps"]["Pmax"], 0.2);
    // Loading the effective configuration again gives the same table.
    const ExperimentConfig again = ExperimentConfig::LoadString(c.EffectiveJson().dump(), "x.json");
    EXPECT_EQ(again.EffectiveJson()["ecn"], eff);

    TopologyBuilder topo(c);
    topo.Build();
    uint32_t at100 = 0;
    uint32_t at400 = 0;
    for (uint32_t s = 0; s < topo.GetNSwitches(); ++s)
    {
        Ptr<DcbSwitch> sw = topo.GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            const bool fabric = sw->GetPort(p)->GetDataRate() == DataRate("400Gbps");
            EXPECT_EQ(Kmin(sw, p), fabric ? 1600000u : 400000u) << "switch " << s << " port " << p;
            EXPECT_DOUBLE_EQ(Pmax(sw, p), 0.2);
            ++(fabric ? at400 : at100);
        }
    }
    EXPECT_EQ(at100, 4u); // the leaves' host ports
    EXPECT_EQ(at400, 8u); // leaf uplinks and spine ports
    Simulator::Destroy();
}

TEST(EcnLinkRateTable, WithoutATableEveryPortHasTheSectionsThresholds)
{
    const ExperimentConfig c = ExperimentConfig::LoadString(
        Experiment({{"Kmin", "400KB"}, {"Kmax", "1600KB"}, {"Pmax", 0.2}}), "x.json");
    EXPECT_TRUE(c.GetEcnByLinkRate().empty());
    EXPECT_FALSE(c.EffectiveJson()["ecn"].contains("by_link_rate"));
    // A JSON null is an absent table (as for every field).
    const ExperimentConfig none = ExperimentConfig::LoadString(
        Experiment({{"Kmin", "400KB"}, {"by_link_rate", nullptr}}), "x.json");
    EXPECT_TRUE(none.GetEcnByLinkRate().empty());
    EXPECT_FALSE(none.EffectiveJson()["ecn"].contains("by_link_rate"));
    TopologyBuilder topo(c);
    topo.Build();
    for (uint32_t s = 0; s < topo.GetNSwitches(); ++s)
    {
        for (uint32_t p = 0; p < topo.GetSwitch(s)->GetNPorts(); ++p)
        {
            EXPECT_EQ(Kmin(topo.GetSwitch(s), p), 400000u);
        }
    }
    Simulator::Destroy();
}

TEST(EcnLinkRateTable, TheCommandLineWinsOverTheTableWithAWarning)
{
    CommandLineAttributes cli =
        CommandLineAttributes::FromArguments({"--ns3::RedEcnMarker::Kmin=100KB"});
    const ExperimentConfig c = ExperimentConfig::LoadString(
        Experiment({{"by_link_rate", {{"400Gbps", {{"Kmin", "150KB"}, {"Pmax", 0.5}}}}}}), "x.json",
        cli);
    ASSERT_EQ(c.GetEcnByLinkRate().size(), 1u);
    ASSERT_EQ(c.GetEcnByLinkRate()[0].attributes.size(), 1u);
    EXPECT_EQ(c.GetEcnByLinkRate()[0].attributes[0].name, "Pmax");
    bool warned = false;
    for (const std::string& w : c.GetWarnings())
    {
        warned |= w.find("--ns3::RedEcnMarker::Kmin=100KB overrides /ecn/by_link_rate/400Gbps/"
                         "Kmin") != std::string::npos;
    }
    EXPECT_TRUE(warned);
}

} // namespace
} // namespace ns3
