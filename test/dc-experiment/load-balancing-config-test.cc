// "load_balancing": a DcbLoadBalancer per switch role or switch, chosen by TypeId with
// its attributes; errors naming the JSON pointer and field; one balancer object per
// switch with its own random stream; absent, every switch routes by ECMP.
#include "config-error-of.h"
#include "output-file-reader.h"

#include "ns3/adaptive-load-balancer.h"
#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/spray-load-balancer.h"
#include "ns3/topology-builder.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <string>

namespace ns3
{
namespace
{

using test::ReadFile;

class LoadBalancingConfigTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /** 2 leaves (s0, s1) x 2 spines (s2, s3), 2 hosts per leaf, plus \p extra. */
    static std::string LeafSpine(const std::string& extra)
    {
        return R"({"progress": false,
                   "topology": {"type": "leaf_spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 2},
                   "flows": [{"src": "h0", "dst": "h2", "bytes": 200000},
                             {"src": "h1", "dst": "h3", "bytes": 200000}])" +
               extra + "}";
    }

    static bool Contains(const std::string& s, const std::string& part)
    {
        return s.find(part) != std::string::npos;
    }

    static Ptr<DcbLoadBalancer> BalancerOf(Ptr<DcbSwitch> sw)
    {
        PointerValue v;
        sw->GetAttribute("LoadBalancer", v);
        return v.Get<DcbLoadBalancer>();
    }
};

TEST_F(LoadBalancingConfigTest, RoleAndSwitchEntriesChooseTheBalancer)
{
    const ExperimentConfig c = ExperimentConfig::LoadString(LeafSpine(R"(, "load_balancing": [
            {"roles": ["leaf"], "balancer": {"type": "ns3::SprayLoadBalancer"}},
            {"switches": ["s3"], "balancer": {"type": "ns3::AdaptiveLoadBalancer",
                                              "Queues": "OneClass"}}])"),
                                                            "lb.json");
    ASSERT_NE(c.GetLoadBalancer(0), nullptr);
    EXPECT_EQ(c.GetLoadBalancer(0)->typeName, "ns3::SprayLoadBalancer");
    EXPECT_EQ(c.GetLoadBalancer(0), c.GetLoadBalancer(1));
    EXPECT_EQ(c.GetLoadBalancer(0)->pointer, "/load_balancing/0/balancer");
    EXPECT_EQ(c.GetLoadBalancer(2), nullptr); // a spine no entry names: ECMP
    ASSERT_NE(c.GetLoadBalancer(3), nullptr);
    EXPECT_EQ(c.GetLoadBalancer(3)->typeName, "ns3::AdaptiveLoadBalancer");
    ASSERT_EQ(c.GetLoadBalancer(3)->attributes.size(), 1u);
    EXPECT_EQ(c.GetLoadBalancer(3)->attributes[0].name, "Queues");
    // The effective section lists every attribute; reloading it gives the same choice.
    const auto& eff = c.EffectiveJson().at("load_balancing");
    EXPECT_EQ(eff.at(1).at("balancer").at("Queues"), "OneClass");
    EXPECT_EQ(eff.at(1).at("balancer").at("Class"), 3);
    const ExperimentConfig back = ExperimentConfig::LoadString(c.EffectiveJson().dump(), "e.json");
    for (uint32_t s = 0; s < 4; ++s)
    {
        EXPECT_EQ(back.GetLoadBalancer(s) == nullptr, c.GetLoadBalancer(s) == nullptr) << s;
    }
    EXPECT_EQ(back.EffectiveJson(), c.EffectiveJson());

    // A switch entry wins over its role's.
    const ExperimentConfig d = ExperimentConfig::LoadString(LeafSpine(R"(, "load_balancing": [
            {"roles": ["leaf", "spine"], "balancer": {"type": "ns3::SprayLoadBalancer"}},
            {"switches": ["s1"], "balancer": {"type": "ns3::RoundRobinLoadBalancer"}}])"),
                                                            "lb.json");
    EXPECT_EQ(d.GetLoadBalancer(0)->typeName, "ns3::SprayLoadBalancer");
    EXPECT_EQ(d.GetLoadBalancer(1)->typeName, "ns3::RoundRobinLoadBalancer");
    EXPECT_EQ(d.GetLoadBalancer(3)->typeName, "ns3::SprayLoadBalancer");
}

TEST_F(LoadBalancingConfigTest, AbsentSectionIsEcmp)
{
    const ExperimentConfig c = ExperimentConfig::LoadString(LeafSpine(""), "ecmp.json");
    EXPECT_FALSE(c.EffectiveJson().contains("load_balancing"));
    TopologyBuilder builder(c);
    builder.Build();
    for (uint32_t s = 0; s < 4; ++s)
    {
        EXPECT_EQ(c.GetLoadBalancer(s), nullptr);
        EXPECT_EQ(BalancerOf(builder.GetSwitch(s)), nullptr) << s;
    }
}

TEST_F(LoadBalancingConfigTest, ErrorsNameThePointerAndTheField)
{
    ExperimentConfigError e = test::ConfigErrorOf(LeafSpine(
        R"(, "load_balancing": [{"roles": ["leaf"], "balancer": {"type": "ns3::Sprayer"}}])"));
    EXPECT_EQ(e.GetFile(), "bad.json");
    EXPECT_EQ(e.GetPointer(), "/load_balancing/0/balancer/type");
    for (const char* valid : {"ns3::AdaptiveLoadBalancer", "ns3::FlowletLoadBalancer",
                              "ns3::RoundRobinLoadBalancer", "ns3::SprayLoadBalancer"})
    {
        EXPECT_TRUE(Contains(e.GetReason(), valid)) << e.what();
    }
    EXPECT_TRUE(Contains(e.GetReason(), "unknown TypeId \"ns3::Sprayer\"")) << e.what();

    // A TypeId that is not a load balancer.
    e = test::ConfigErrorOf(LeafSpine(
        R"(, "load_balancing": [{"roles": ["leaf"], "balancer": {"type": "ns3::DcbSwitch"}}])"));
    EXPECT_EQ(e.GetPointer(), "/load_balancing/0/balancer/type");
    EXPECT_TRUE(Contains(e.GetReason(), "not a constructible subclass of ns3::DcbLoadBalancer"))
        << e.what();

    e = test::ConfigErrorOf(
        LeafSpine(R"(, "load_balancing": [{"roles": ["leaf"], "balancer": {}}])"));
    EXPECT_EQ(e.GetPointer(), "/load_balancing/0/balancer/type");
    EXPECT_TRUE(Contains(e.GetReason(), "ns3::SprayLoadBalancer")) << e.what();

    e = test::ConfigErrorOf(LeafSpine(R"(, "load_balancing": [{"roles": ["leaf"]}])"));
    EXPECT_EQ(e.GetPointer(), "/load_balancing/0/balancer");

    e = test::ConfigErrorOf(LeafSpine(R"(, "load_balancing": [{"roles": ["leaf"],
        "balancer": {"type": "ns3::FlowletLoadBalancer", "Gapp": "50us"}}])"));
    EXPECT_EQ(e.GetPointer(), "/load_balancing/0/balancer/Gapp");
    EXPECT_TRUE(Contains(e.GetReason(), "unknown attribute \"Gapp\"")) << e.what();
    EXPECT_TRUE(Contains(e.GetReason(), "Gap")) << e.what();

    e = test::ConfigErrorOf(LeafSpine(R"(, "load_balancing": [{"roles": ["leaf"],
        "balancer": {"type": "ns3::FlowletLoadBalancer", "Gap": "fast"}}])"));
    EXPECT_EQ(e.GetPointer(), "/load_balancing/0/balancer/Gap");

    e = test::ConfigErrorOf(LeafSpine(R"(, "load_balancing": [{"roles": ["tor"],
        "balancer": {"type": "ns3::SprayLoadBalancer"}}])"));
    EXPECT_EQ(e.GetPointer(), "/load_balancing/0/roles/0");
    EXPECT_TRUE(Contains(e.GetReason(), "leaf, spine")) << e.what();

    e = test::ConfigErrorOf(LeafSpine(R"(, "load_balancing": [
        {"roles": ["leaf"], "balancer": {"type": "ns3::SprayLoadBalancer"}},
        {"roles": ["leaf"], "balancer": {"type": "ns3::SprayLoadBalancer"}}])"));
    EXPECT_EQ(e.GetPointer(), "/load_balancing/1/roles/0");
    EXPECT_TRUE(Contains(e.GetReason(), "already configured at /load_balancing/0/roles/0"))
        << e.what();

    e = test::ConfigErrorOf(
        LeafSpine(R"(, "load_balancing": [{"balancer": {"type": "ns3::SprayLoadBalancer"}}])"));
    EXPECT_EQ(e.GetPointer(), "/load_balancing/0");

    e = test::ConfigErrorOf(LeafSpine(R"(, "load_balancing": [{"roles": ["leaf"], "lb": {}}])"));
    EXPECT_EQ(e.GetPointer(), "/load_balancing/0/lb");

    e = test::ConfigErrorOf(LeafSpine(R"(, "load_balancing": {"type": "ns3::SprayLoadBalancer"})"));
    EXPECT_EQ(e.GetPointer(), "/load_balancing");
}

TEST_F(LoadBalancingConfigTest, EachSwitchGetsItsOwnBalancerAndStream)
{
    const std::string spray = LeafSpine(R"(, "load_balancing": [
        {"roles": ["leaf"], "balancer": {"type": "ns3::SprayLoadBalancer"}}])");
    int64_t ecmpStreams = 0;
    {
        const ExperimentConfig c = ExperimentConfig::LoadString(LeafSpine(""), "ecmp.json");
        TopologyBuilder builder(c);
        builder.Build();
        ecmpStreams = builder.AssignStreams(0);
    }
    Simulator::Destroy();
    const ExperimentConfig c = ExperimentConfig::LoadString(spray, "spray.json");
    TopologyBuilder builder(c);
    builder.Build();
    Ptr<DcbLoadBalancer> a = BalancerOf(builder.GetSwitch(0));
    Ptr<DcbLoadBalancer> b = BalancerOf(builder.GetSwitch(1));
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_NE(a, b);
    EXPECT_NE(DynamicCast<SprayLoadBalancer>(a), nullptr);
    EXPECT_EQ(BalancerOf(builder.GetSwitch(2)), nullptr);
    EXPECT_EQ(BalancerOf(builder.GetSwitch(3)), nullptr);
    // The ECN markers keep their streams; each spraying leaf draws from one more.
    EXPECT_EQ(builder.AssignStreams(0), ecmpStreams + 2);
}

TEST_F(LoadBalancingConfigTest, SprayingRunsAreReproducible)
{
    const std::string spray = LeafSpine(R"(, "load_balancing": [
        {"roles": ["leaf"], "balancer": {"type": "ns3::SprayLoadBalancer"}}])");
    const std::string base = std::string(ROCE_LAB_BINARY_DIR) + "/test-output/lb-config-";
    std::string flows[2];
    for (int run = 0; run < 2; ++run)
    {
        const std::string dir = base + std::to_string(run);
        std::filesystem::remove_all(dir);
        const ExperimentConfig c = ExperimentConfig::LoadString(spray, "spray.json");
        {
            ExperimentRunner runner(c, dir);
            runner.Run();
            EXPECT_EQ(runner.GetFinishedFlows(), 2u);
        }
        Simulator::Destroy();
        flows[run] = ReadFile(dir + "/flows.csv");
    }
    EXPECT_FALSE(flows[0].empty());
    EXPECT_EQ(flows[0], flows[1]);
}

} // namespace
} // namespace ns3
