// Tests of ExperimentConfig: every error names the file and where the problem
// is (line/column for syntax, JSON pointer otherwise), defaults are filled in,
// and the effective configuration loads back to the same experiment.
#include "config-error-of.h"

#include "ns3/double.h"
#include "ns3/experiment-config.h"
#include "ns3/json-attribute-converter.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <set>
#include <string>

namespace ns3
{
namespace
{

class ExperimentConfigTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /** A valid minimal experiment with \p extra members added at the top level. */
    static std::string Minimal(const std::string& extra = "")
    {
        return R"({"topology": {"type": "incast", "senders": 2},
                   "flows": [{"src": "h1", "dst": "h0", "bytes": 1000}])" +
               (extra.empty() ? std::string() : ", " + extra) + "}";
    }

    static bool Contains(const std::string& s, const std::string& part)
    {
        return s.find(part) != std::string::npos;
    }
};

TEST_F(ExperimentConfigTest, MalformedJsonNamesFileLineAndColumn)
{
    const ExperimentConfigError e =
        test::ConfigErrorOf("{\n  \"seed\": 1,\n  \"topology\": {\"type\": \"incast\" "
                            "\"senders\": 2}\n}\n");
    EXPECT_EQ(e.GetFile(), "bad.json");
    // Line 3; nlohmann stops at the end of the unexpected token "senders" (column 41).
    EXPECT_TRUE(Contains(e.what(), "bad.json:3:41:")) << e.what();
    EXPECT_TRUE(Contains(e.what(), "invalid JSON")) << e.what();
}

TEST_F(ExperimentConfigTest, EmptyFileIsASyntaxErrorAtLineOne)
{
    const ExperimentConfigError e = test::ConfigErrorOf("");
    EXPECT_TRUE(Contains(e.what(), "bad.json:1:1:")) << e.what();
}

TEST_F(ExperimentConfigTest, MissingFileIsAnError)
{
    EXPECT_THROW(ExperimentConfig::LoadFile("/nonexistent/dir/experiment.json"),
                 ExperimentConfigError);
}

TEST_F(ExperimentConfigTest, UnknownTopLevelKey)
{
    const ExperimentConfigError e = test::ConfigErrorOf(Minimal(R"("sed": 3)"));
    EXPECT_EQ(e.GetPointer(), "/sed");
    EXPECT_TRUE(Contains(e.what(), "bad.json: /sed: unknown key \"sed\"")) << e.what();
    EXPECT_TRUE(Contains(e.what(), "seed")) << "lists the allowed keys: " << e.what();
}

TEST_F(ExperimentConfigTest, UnknownNestedKey)
{
    const ExperimentConfigError e =
        test::ConfigErrorOf(R"({"topology": {"type": "incast", "senders": 2},
        "flows": [{"src": 1, "dst": 0, "bytes": 10}, {"src": 1, "dst": 0, "size": 10}]})");
    EXPECT_EQ(e.GetPointer(), "/flows/1/size");
}

TEST_F(ExperimentConfigTest, DuplicateKeyIsAnError)
{
    const ExperimentConfigError e = test::ConfigErrorOf(Minimal(R"("seed": 1, "seed": 2)"));
    EXPECT_EQ(e.GetPointer(), "/seed");
    EXPECT_TRUE(Contains(e.what(), "duplicate")) << e.what();
}

TEST_F(ExperimentConfigTest, WrongType)
{
    const ExperimentConfigError e = test::ConfigErrorOf(Minimal(R"("seed": "one")"));
    EXPECT_EQ(e.GetPointer(), "/seed");
    EXPECT_TRUE(Contains(e.what(), "expected an integer in [1, 4294967295]")) << e.what();

    const ExperimentConfigError b = test::ConfigErrorOf(Minimal(R"("progress": 1)"));
    EXPECT_EQ(b.GetPointer(), "/progress");
}

TEST_F(ExperimentConfigTest, BadTimeUnitIsACleanError)
{
    const ExperimentConfigError e = test::ConfigErrorOf(Minimal(R"("stop_time": "20xs")"));
    EXPECT_EQ(e.GetPointer(), "/stop_time");
    EXPECT_TRUE(Contains(e.what(), "unit s, ms, us, ns or ps")) << e.what();
    EXPECT_EQ(test::ConfigErrorOf(Minimal(R"("stop_time": "-5ms")")).GetPointer(), "/stop_time");
    EXPECT_EQ(test::ConfigErrorOf(Minimal(R"("stop_time": "5 ms")")).GetPointer(), "/stop_time");
}

TEST_F(ExperimentConfigTest, OutOfRangeAttributeValue)
{
    const ExperimentConfigError e =
        test::ConfigErrorOf(Minimal(R"("cc": {"type": "ns3::RdmaDcqcn", "G": 2})"));
    EXPECT_EQ(e.GetPointer(), "/cc/G");
    const std::string m = e.what();
    EXPECT_TRUE(Contains(m, "attribute G of ns3::RdmaDcqcn")) << m;
    EXPECT_TRUE(Contains(m, "Gain g")) << "help summary: " << m;
    EXPECT_TRUE(Contains(m, "bad value 2")) << m;
    // (0, 1]: g = 0 would freeze alpha (RdmaDcqcn aborted on it at run time).
    EXPECT_TRUE(Contains(m, "(0, 1]")) << "allowed range: " << m;
}

TEST_F(ExperimentConfigTest, NegativeGen1FirmwareCnpTimeIsNamed)
{
    const ExperimentConfigError e = test::ConfigErrorOf(
        Minimal(R"("cc": {"type": "ns3::RdmaDcqcn", "FirmwareCnpTime": "-1us"})"));
    EXPECT_EQ(e.GetPointer(), "/cc/FirmwareCnpTime");
    const std::string m = e.what();
    EXPECT_TRUE(Contains(m, "attribute FirmwareCnpTime of ns3::RdmaDcqcn")) << m;
}

// The DCQCN generations were TypeIds once; they are NIC profiles over ns3::RdmaDcqcn now,
// and a file that names an old TypeId is told which profile to use.
TEST_F(ExperimentConfigTest, RetiredDcqcnGenerationTypeIdsNameTheirProfiles)
{
    for (const auto& [type, profile] :
         {std::pair<std::string, std::string>{"ns3::RdmaDcqcnGen1", "gen1.json"},
          {"ns3::RdmaDcqcnFirmware", "gen2-gen3.json"}})
    {
        const ExperimentConfigError e =
            test::ConfigErrorOf(Minimal(R"("cc": {"type": ")" + type + R"("})"));
        EXPECT_EQ(e.GetPointer(), "/cc/type");
        const std::string m = e.what();
        EXPECT_TRUE(Contains(m, "no longer a TypeId")) << m;
        EXPECT_TRUE(Contains(m, "configs/nic-profiles/" + profile)) << m;
    }
}

TEST_F(ExperimentConfigTest, AttributeValuesThatNs3WouldAbortOnAreCleanErrors)
{
    // Each of these makes ns-3's own string conversion abort the process.
    EXPECT_EQ(test::ConfigErrorOf(Minimal(R"("qp": {"Mtu": 3.5})")).GetPointer(), "/qp/Mtu");
    EXPECT_EQ(test::ConfigErrorOf(Minimal(R"("qp": {"Mtu": "abc"})")).GetPointer(), "/qp/Mtu");
    EXPECT_EQ(test::ConfigErrorOf(Minimal(R"("cc": {"AlphaUpdatePeriod": "55xs"})")).GetPointer(),
              "/cc/AlphaUpdatePeriod");
    EXPECT_EQ(test::ConfigErrorOf(Minimal(R"("cc": {"G": "0.5x"})")).GetPointer(), "/cc/G");
    EXPECT_EQ(test::ConfigErrorOf(Minimal(R"("cc": {"AlphaCutOrder": "Sideways"})")).GetPointer(),
              "/cc/AlphaCutOrder");
    EXPECT_EQ(test::ConfigErrorOf(Minimal(R"("buffer": {"BufferSize": "16XB"})")).GetPointer(),
              "/buffer/BufferSize");
    EXPECT_EQ(test::ConfigErrorOf(Minimal(R"("cc": {"MinRate": "100Gbs"})")).GetPointer(),
              "/cc/MinRate");
    EXPECT_EQ(test::ConfigErrorOf(Minimal(R"("qp": {"Mtu": 100000})")).GetPointer(), "/qp/Mtu");
    EXPECT_EQ(test::ConfigErrorOf(Minimal(R"("qp": {"Mtu": -1})")).GetPointer(), "/qp/Mtu");
}

TEST_F(ExperimentConfigTest, UnknownAttributeListsTheKnownOnes)
{
    const ExperimentConfigError e = test::ConfigErrorOf(Minimal(R"("cc": {"Gain": 0.1})"));
    EXPECT_EQ(e.GetPointer(), "/cc/Gain");
    EXPECT_TRUE(Contains(e.what(), "AlphaUpdatePeriod")) << e.what();
}

TEST_F(ExperimentConfigTest, ComponentTypeMustBeOfTheRightKind)
{
    EXPECT_EQ(test::ConfigErrorOf(Minimal(R"("cc": {"type": "ns3::RdmaGoBackN"})")).GetPointer(),
              "/cc/type");
    EXPECT_EQ(test::ConfigErrorOf(Minimal(R"("cc": {"type": "ns3::NoSuchType"})")).GetPointer(),
              "/cc/type");
    // Attributes the experiment sets itself are refused where they would be ignored.
    EXPECT_EQ(test::ConfigErrorOf(Minimal(R"("nic": {"CongestionControl": "ns3::RdmaDcqcn"})"))
                  .GetPointer(),
              "/nic/CongestionControl");
    EXPECT_EQ(test::ConfigErrorOf(Minimal(R"("qp": {"Dscp": 26})")).GetPointer(), "/qp/Dscp");
    EXPECT_EQ(test::ConfigErrorOf(Minimal(R"("link": {"DataRate": "10Gbps"})")).GetPointer(),
              "/link/DataRate");
}

TEST_F(ExperimentConfigTest, CustomTopologyLinkToUndeclaredNode)
{
    const ExperimentConfigError e = test::ConfigErrorOf(R"({"topology": {"type": "custom",
        "switches": ["s0"], "hosts": ["h0", "h1"],
        "links": [{"a": "h0", "b": "s0"}, {"a": "h1", "b": "s9"}]},
        "flows": [{"src": "h0", "dst": "h1", "bytes": 10}]})");
    EXPECT_EQ(e.GetPointer(), "/topology/links/1/b");
    EXPECT_TRUE(Contains(e.what(), "bad.json: /topology/links/1/b:")) << e.what();
    EXPECT_TRUE(Contains(e.what(), "\"s9\"")) << e.what();
}

TEST_F(ExperimentConfigTest, CustomTopologyStructuralErrors)
{
    // A host with two links.
    EXPECT_EQ(test::ConfigErrorOf(R"({"topology": {"type": "custom", "switches": ["s0", "s1"],
        "hosts": ["h0", "h1"], "links": [{"a": "h0", "b": "s0"}, {"a": "h0", "b": "s1"},
        {"a": "h1", "b": "s1"}]}, "flows": [{"src": 0, "dst": 1, "bytes": 10}]})")
                  .GetPointer(),
              "/topology/hosts/0");
    // Two islands.
    EXPECT_EQ(test::ConfigErrorOf(R"({"topology": {"type": "custom", "switches": ["s0", "s1"],
        "hosts": ["h0", "h1"], "links": [{"a": "h0", "b": "s0"}, {"a": "h1", "b": "s1"}]},
        "flows": [{"src": 0, "dst": 1, "bytes": 10}]})")
                  .GetPointer(),
              "/topology/hosts/1");
    // A name declared twice.
    EXPECT_EQ(test::ConfigErrorOf(R"({"topology": {"type": "custom", "switches": ["x"],
        "hosts": ["h0", "x"], "links": [{"a": "h0", "b": "x"}]},
        "flows": [{"src": 0, "dst": 1, "bytes": 10}]})")
                  .GetPointer(),
              "/topology/hosts/1");
}

TEST_F(ExperimentConfigTest, FlowFromAHostToItself)
{
    const ExperimentConfigError e =
        test::ConfigErrorOf(R"({"topology": {"type": "incast", "senders": 2},
                  "flows": [{"src": "h1", "dst": 1, "bytes": 10}]})");
    EXPECT_EQ(e.GetPointer(), "/flows/0/dst");
    EXPECT_TRUE(Contains(e.what(), "same host")) << e.what();
}

TEST_F(ExperimentConfigTest, FlowNamingAMissingHost)
{
    const ExperimentConfigError e =
        test::ConfigErrorOf(R"({"topology": {"type": "incast", "senders": 2},
                  "flows": [{"src": "h1", "dst": "h99", "bytes": 10}]})");
    EXPECT_EQ(e.GetPointer(), "/flows/0/dst");
    EXPECT_TRUE(Contains(e.what(), "unknown host \"h99\"")) << e.what();

    EXPECT_EQ(test::ConfigErrorOf(R"({"topology": {"type": "incast", "senders": 2},
                        "flows": [{"src": 7, "dst": 0, "bytes": 10}]})")
                  .GetPointer(),
              "/flows/0/src");
    EXPECT_TRUE(Contains(test::ConfigErrorOf(R"({"topology": {"type": "incast", "senders": 2},
                        "flows": [{"src": "s0", "dst": 0, "bytes": 10}]})")
                             .what(),
                         "is a switch"));
}

TEST_F(ExperimentConfigTest, FlowRanges)
{
    EXPECT_EQ(test::ConfigErrorOf(R"({"topology": {"type": "incast", "senders": 2},
                        "flows": [{"src": 1, "dst": 0, "bytes": 0}]})")
                  .GetPointer(),
              "/flows/0/bytes");
    EXPECT_EQ(test::ConfigErrorOf(R"({"topology": {"type": "incast", "senders": 2},
                        "flows": [{"src": 1, "dst": 0, "bytes": 10, "priority": 8}]})")
                  .GetPointer(),
              "/flows/0/priority");
    EXPECT_EQ(test::ConfigErrorOf(R"({"topology": {"type": "incast", "senders": 2},
                        "flows": [{"src": 1, "dst": 0, "bytes": 10, "verb": "atomic"}]})")
                  .GetPointer(),
              "/flows/0/verb");
    EXPECT_EQ(
        test::ConfigErrorOf(R"({"topology": {"type": "incast", "senders": 2}, "stop_time": "1ms",
                        "flows": [{"src": 1, "dst": 0, "bytes": 10, "start": "2ms"}]})")
            .GetPointer(),
        "/flows/0/start");
    EXPECT_EQ(test::ConfigErrorOf(R"({"topology": {"type": "incast", "senders": 2}})").GetPointer(),
              "/flows");
}

TEST_F(ExperimentConfigTest, TopologyErrors)
{
    EXPECT_EQ(test::ConfigErrorOf(R"({"flows": []})").GetPointer(), "/topology");
    EXPECT_EQ(test::ConfigErrorOf(R"({"topology": {"type": "ring"}})").GetPointer(),
              "/topology/type");
    EXPECT_EQ(test::ConfigErrorOf(R"({"topology": {"type": "leaf_spine", "leaves": 2, "spines": 0,
                        "hosts_per_leaf": 2}})")
                  .GetPointer(),
              "/topology/spines");
    EXPECT_EQ(test::ConfigErrorOf(R"({"topology": {"type": "dumbbell", "hosts_per_side": 1,
                        "host_link_rate": "100Gbs"}})")
                  .GetPointer(),
              "/topology/host_link_rate");
    EXPECT_EQ(test::ConfigErrorOf(R"({"topology": {"type": "incast", "senders": 2, "leaves": 2}})")
                  .GetPointer(),
              "/topology/leaves");
}

TEST_F(ExperimentConfigTest, DefaultsAndBuiltInTopologies)
{
    const ExperimentConfig c = ExperimentConfig::LoadString(
        R"({"topology": {"type": "leaf_spine", "leaves": 4, "spines": 2, "hosts_per_leaf": 4,
                         "fabric_link_rate": "400Gbps"},
            "flows": [{"src": "h0", "dst": 15, "bytes": 1000}]})",
        "ok.json");
    EXPECT_EQ(c.GetSeed(), 1u);
    EXPECT_EQ(c.GetStopTime(), MilliSeconds(100));
    const ExperimentTopology& t = c.GetTopology();
    EXPECT_EQ(t.hosts.size(), 16u);
    EXPECT_EQ(t.switches.size(), 6u);
    EXPECT_EQ(t.links.size(), 16u + 8u);
    EXPECT_EQ(t.links.back().rate, DataRate("400Gbps"));
    EXPECT_EQ(t.links.front().rate, DataRate("100Gbps"));
    EXPECT_EQ(t.links.front().delay, MicroSeconds(1));
    ASSERT_EQ(c.GetFlows().size(), 1u);
    const ExperimentFlow& f = c.GetFlows()[0];
    EXPECT_EQ(f.src, 0u);
    EXPECT_EQ(f.dst, 15u);
    EXPECT_EQ(f.priority, 3u);
    EXPECT_EQ(f.verb, RdmaVerb::Write);
    EXPECT_EQ(f.start, Time(0));
    EXPECT_EQ(c.GetCongestionControl().typeName, "ns3::RdmaDcqcn");
    EXPECT_TRUE(c.GetMonitors().queueInterval.IsZero());

    const auto& eff = c.EffectiveJson();
    EXPECT_EQ(eff["stop_time"], "100ms");
    EXPECT_EQ(eff["topology"]["link_delay"], "1us");
    EXPECT_EQ(eff["cc"]["type"], "ns3::RdmaDcqcn");
    EXPECT_DOUBLE_EQ(eff["cc"]["G"].get<double>(), 1.0 / 256.0);
    EXPECT_EQ(eff["cc"]["AlphaUpdatePeriod"], "55us");
    EXPECT_EQ(eff["qp"]["Mtu"], 1024);
    EXPECT_FALSE(eff["qp"].contains("Dscp"));
    EXPECT_EQ(eff["flows"][0]["dst"], "h15");
    EXPECT_TRUE(eff["monitors"]["queue_interval"].is_null());
}

TEST_F(ExperimentConfigTest, AttributeValuesAreConverted)
{
    const ExperimentConfig c = ExperimentConfig::LoadString(
        Minimal(R"("cc": {"G": 0.0625, "AlphaUpdatePeriod": "0.1ms"}, "qp": {"Mtu": 4096})"),
        "ok.json");
    ASSERT_EQ(c.GetCongestionControl().attributes.size(), 2u);
    for (const auto& a : c.GetCongestionControl().attributes)
    {
        if (a.name == "G")
        {
            EXPECT_DOUBLE_EQ(DynamicCast<DoubleValue>(a.value)->Get(), 0.0625);
        }
        else
        {
            EXPECT_EQ(a.name, "AlphaUpdatePeriod");
            EXPECT_EQ(DynamicCast<TimeValue>(a.value)->Get(), MicroSeconds(100));
        }
    }
    EXPECT_EQ(c.EffectiveJson()["cc"]["AlphaUpdatePeriod"], "100us");
    EXPECT_EQ(c.EffectiveJson()["qp"]["Mtu"], 4096);
}

TEST_F(ExperimentConfigTest, EffectiveJsonLoadsBackToTheSameExperiment)
{
    const ExperimentConfig a = ExperimentConfig::LoadString(
        R"({"seed": 7, "topology": {"type": "custom", "switches": ["tor", "agg"],
              "hosts": ["a", "b", "c"],
              "links": [{"a": "a", "b": "tor"}, {"a": "b", "b": "tor", "rate": "25Gbps"},
                        {"a": "tor", "b": "agg", "delay": "500ns"}, {"a": "c", "b": "agg"}]},
            "ecn": {"type": "none"},
            "flows": [{"src": "a", "dst": "c", "bytes": 5000, "verb": "read"}],
            "flow_sets": [{"type": "incast", "dst": "a", "bytes": 100},
                          {"type": "permutation_background", "bytes": 10}],
            "monitors": {"rate_interval": "1us"}})",
        "a.json");
    const ExperimentConfig b = ExperimentConfig::LoadString(a.EffectiveJson().dump(), "b.json");
    EXPECT_EQ(a.EffectiveJson(), b.EffectiveJson());
    ASSERT_EQ(a.GetFlows().size(), b.GetFlows().size());
    for (std::size_t i = 0; i < a.GetFlows().size(); ++i)
    {
        EXPECT_EQ(a.GetFlows()[i].src, b.GetFlows()[i].src);
        EXPECT_EQ(a.GetFlows()[i].dst, b.GetFlows()[i].dst);
    }
    EXPECT_EQ(b.GetTopology().links[1].rate, DataRate("25Gbps"));
    EXPECT_EQ(b.GetTopology().links[2].delay, NanoSeconds(500));
    EXPECT_EQ(b.GetEcn().typeName, "none");
}

TEST_F(ExperimentConfigTest, FlowSetsExpand)
{
    const ExperimentConfig c = ExperimentConfig::LoadString(
        R"({"seed": 3, "topology": {"type": "leaf_spine", "leaves": 2, "spines": 1,
                                    "hosts_per_leaf": 4},
            "flows": [{"src": 0, "dst": 1, "bytes": 10}],
            "flow_sets": [{"type": "incast", "senders": "all_but_dst", "dst": "h5",
                           "bytes": 100, "start": "10us", "priority": 4},
                          {"type": "permutation_background", "bytes": 10}]})",
        "sets.json");
    const auto& flows = c.GetFlows();
    ASSERT_EQ(flows.size(), 1u + 7u + 8u);
    for (uint32_t i = 0; i < flows.size(); ++i)
    {
        EXPECT_EQ(flows[i].id, i);
    }
    for (uint32_t i = 1; i < 8; ++i)
    {
        EXPECT_EQ(flows[i].dst, 5u);
        EXPECT_NE(flows[i].src, 5u);
        EXPECT_EQ(flows[i].priority, 4u);
        EXPECT_EQ(flows[i].start, MicroSeconds(10));
        EXPECT_EQ(flows[i].origin, "/flow_sets/0");
    }
    std::set<uint32_t> dsts;
    for (uint32_t i = 8; i < 16; ++i)
    {
        EXPECT_EQ(flows[i].src, i - 8);
        EXPECT_NE(flows[i].src, flows[i].dst);
        dsts.insert(flows[i].dst);
    }
    EXPECT_EQ(dsts.size(), 8u) << "a permutation: every host receives once";

    const ExperimentConfigError e =
        test::ConfigErrorOf(R"({"topology": {"type": "incast", "senders": 2},
        "flow_sets": [{"type": "incast", "senders": ["h1", "h0"], "dst": "h0", "bytes": 1}]})");
    EXPECT_EQ(e.GetPointer(), "/flow_sets/0/senders/1");
}

TEST_F(ExperimentConfigTest, UnitStrings)
{
    Time t;
    EXPECT_TRUE(JsonAttributeConverter::ParseTime("1.5us", t));
    EXPECT_EQ(t, NanoSeconds(1500));
    EXPECT_TRUE(JsonAttributeConverter::ParseTime("20ms", t));
    EXPECT_EQ(t, MilliSeconds(20));
    EXPECT_FALSE(JsonAttributeConverter::ParseTime("1.5ps", t));
    EXPECT_FALSE(JsonAttributeConverter::ParseTime("10", t));
    EXPECT_FALSE(JsonAttributeConverter::ParseTime("+10us", t));
    EXPECT_EQ(JsonAttributeConverter::FormatTime(NanoSeconds(1500)), "1500ns");
    EXPECT_EQ(JsonAttributeConverter::FormatTime(MilliSeconds(20)), "20ms");
    DataRate r;
    EXPECT_TRUE(JsonAttributeConverter::ParseDataRate("400Gbps", r));
    EXPECT_EQ(r, DataRate("400Gbps"));
    EXPECT_FALSE(JsonAttributeConverter::ParseDataRate("400Gbs", r));
    EXPECT_FALSE(JsonAttributeConverter::ParseDataRate("Gbps", r));
    EXPECT_EQ(JsonAttributeConverter::FormatDataRate(DataRate("25Gbps")), "25Gbps");
    EXPECT_EQ(JsonAttributeConverter::FormatDataRate(DataRate("1500Mbps")), "1500Mbps");
}

TEST_F(ExperimentConfigTest, CommandLineAttributeDefaultsAreChecked)
{
    std::string error;
    EXPECT_TRUE(JsonAttributeConverter::CheckCommandLineDefault("--ns3::RdmaDcqcn::G=0.01", error));
    EXPECT_TRUE(JsonAttributeConverter::CheckCommandLineDefault("--out=dir", error));
    EXPECT_TRUE(JsonAttributeConverter::CheckCommandLineDefault("config.json", error));
    EXPECT_TRUE(
        JsonAttributeConverter::CheckCommandLineDefault("--ns3::RdmaNic::EcnCapable=false", error));
    EXPECT_FALSE(JsonAttributeConverter::CheckCommandLineDefault(
        "--ns3::RdmaDcqcn::CnpInterval=5xs", error));
    EXPECT_TRUE(Contains(error, "CnpInterval")) << error;
    EXPECT_FALSE(JsonAttributeConverter::CheckCommandLineDefault("--ns3::RdmaDcqcn::G=2", error));
    EXPECT_FALSE(
        JsonAttributeConverter::CheckCommandLineDefault("--ns3::RdmaQueuePair::Mtu=3.5", error));
}

TEST_F(ExperimentConfigTest, BufferMonitorIsValidated)
{
    const ExperimentConfig c = ExperimentConfig::LoadString(
        Minimal(R"("monitors": {"buffer_interval": "10us", "watermark_mode": "persistent"})"),
        "ok.json");
    EXPECT_EQ(c.GetMonitors().bufferInterval, MicroSeconds(10));
    EXPECT_FALSE(c.GetMonitors().clearWatermarks);
    EXPECT_EQ(c.EffectiveJson()["monitors"]["buffer_interval"], "10us");
    EXPECT_TRUE(ExperimentConfig::LoadString(Minimal(), "ok.json").GetMonitors().clearWatermarks);

    ExperimentConfigError e = test::ConfigErrorOf(
        Minimal(R"("monitors": {"buffer_interval": "10us", "watermark_mode": "sticky"})"));
    EXPECT_EQ(e.GetPointer(), "/monitors/watermark_mode");
    EXPECT_TRUE(Contains(e.what(), "bad.json: /monitors/watermark_mode: value \"sticky\" is "
                                   "not one of \"periodic\", \"persistent\""))
        << e.what();
    e = test::ConfigErrorOf(Minimal(R"("monitors": {"watermark_mode": "persistent"})"));
    EXPECT_EQ(e.GetPointer(), "/monitors/watermark_mode");
    EXPECT_TRUE(Contains(e.what(), "needs buffer_interval")) << e.what();
    e = test::ConfigErrorOf(Minimal(R"("monitors": {"buffer_interval": "-1us"})"));
    EXPECT_EQ(e.GetPointer(), "/monitors/buffer_interval");
}

} // namespace
} // namespace ns3
