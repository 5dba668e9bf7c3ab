// Inputs that once crashed the simulator or were silently accepted are located
// configuration errors, found when the experiment file is read. Each test names the
// input it covers.
#include "../rdma/dcqcn-profile.h"
#include "output-file-reader.h"

#include "ns3/config-error.h"
#include "ns3/double.h"
#include "ns3/experiment-config-error.h"
#include "ns3/experiment-config.h"
#include "ns3/nic-profile.h"
#include "ns3/nstime.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/simulator.h"
#include "ns3/sonic-buffer-config.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>

namespace ns3
{
namespace
{

using test::CONFIGS;

/**
 * The test's own scratch directory: ctest runs the tests of this file in parallel
 * processes, which must not write each other's files.
 */
std::string
Out()
{
    return std::string(ROCE_LAB_BINARY_DIR) + "/test-output/config-robustness/" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "/";
}

class ConfigRobustnessTest : public ::testing::Test
{
  protected:
    void SetUp() override { std::filesystem::create_directories(Out()); }

    void TearDown() override { Simulator::Destroy(); }

    static void Write(const std::string& name, const std::string& text)
    {
        std::ofstream(Out() + name, std::ios::binary) << text;
    }

    /** An incast of two senders with \p extra top-level members, one flow h1 -> h0. */
    static std::string Incast(const std::string& extra, const std::string& topology = "")
    {
        return R"({"topology": {"type": "incast", "senders": 2)" + topology +
               R"(}, "progress": false, "flows": [{"src": "h1", "dst": "h0", "bytes": 1000}])" +
               (extra.empty() ? "" : ", " + extra) + "}";
    }

    /** Load \p text as Out()/exp.json (relative paths resolve in Out()); the error or "". */
    static std::string Error(const std::string& text, std::string* pointer = nullptr)
    {
        Write("exp.json", text);
        try
        {
            ExperimentConfig::LoadFile(Out() + "exp.json");
        }
        catch (const ExperimentConfigError& e)
        {
            if (pointer)
            {
                *pointer = e.GetPointer();
            }
            return e.what();
        }
        return "";
    }

    static bool Has(const std::string& s, const std::string& part)
    {
        return s.find(part) != std::string::npos;
    }
};

// "An HPCC-format topology link of 0Gbps": abort in RdmaDcqcn, SIGFPE with no CC.
TEST_F(ConfigRobustnessTest, HpccZeroRateLinkIsALocatedError)
{
    Write("zero.txt", "3 1 2\n2\n0 2 100Gbps 1000ns 0\n1 2 0Gbps 1000ns 0\n");
    for (const char* cc : {"ns3::RdmaDcqcn", "ns3::RdmaNoCongestionControl"})
    {
        SCOPED_TRACE(cc);
        const std::string e = Error(std::string(R"({"topology": {"type": "file", "path": "zero.txt",
                                               "format": "hpcc"},
                                  "cc": {"type": ")") +
                                    cc + R"("}, "flows": [{"src": 0, "dst": 1, "bytes": 1000}]})");
        EXPECT_TRUE(Has(e, "zero.txt:4:5: rate:")) << e;
        EXPECT_TRUE(Has(e, "\"0Gbps\"")) << e;
    }
}

// "cc": {"MinRate": "200Gbps"} on 100G links: abort. Two values: both named.
TEST_F(ConfigRobustnessTest, MinRateAboveTheLineRateNamesBothValues)
{
    std::string pointer;
    const std::string e = Error(Incast(R"("cc": {"MinRate": "200Gbps"})"), &pointer);
    EXPECT_EQ(pointer, "/cc/MinRate") << e;
    EXPECT_TRUE(Has(e, "200Gbps")) << e;
    EXPECT_TRUE(Has(e, "line rate = 100Gbps")) << e;
    EXPECT_TRUE(Has(e, "/topology/host_link_rate")) << e;
    // Per host: a cc_hosts entry is checked against its own hosts' links.
    const std::string custom = R"({"topology": {"type": "custom", "switches": ["s"],
        "hosts": ["a", "b"], "links": [{"a": "a", "b": "s", "rate": "10Gbps"},
                                       {"a": "b", "b": "s"}]},
        "cc_hosts": [{"hosts": ["b"], "cc": {"MinRate": "20Gbps"}}],
        "cc": {"MinRate": "5Gbps"},
        "flows": [{"src": "a", "dst": "b", "bytes": 1000}]})";
    EXPECT_EQ(Error(custom, &pointer), "");
    const std::string slowA = R"({"topology": {"type": "custom", "switches": ["s"],
        "hosts": ["a", "b"], "links": [{"a": "a", "b": "s", "rate": "10Gbps"},
                                       {"a": "b", "b": "s"}]},
        "cc_hosts": [{"hosts": ["a"], "cc": {"MinRate": "20Gbps"}}],
        "flows": [{"src": "a", "dst": "b", "bytes": 1000}]})";
    const std::string e2 = Error(slowA, &pointer);
    EXPECT_EQ(pointer, "/cc_hosts/0/cc/MinRate") << e2;
    EXPECT_TRUE(Has(e2, "/topology/links/0/rate")) << e2;
}

// DCQCN's MinRate (the firmware's rpg_min_rate) and RateOnFirstCnp: the error names the attribute
// set. (A NIC profile that writes the firmware's knob name gets that name:
// NicProfileExperimentTest.FirmwareKnobNamesMapToAttributes.)
TEST_F(ConfigRobustnessTest, FirmwareMinRateNamesRpgMinRate)
{
    std::string pointer;
    const std::string e =
        Error(Incast(R"("cc": {"type": "ns3::RdmaDcqcn", "MinRate": "200Gbps"})"), &pointer);
    EXPECT_EQ(pointer, "/cc/MinRate") << e;
    const std::string e2 =
        Error(Incast(R"("cc": {"type": "ns3::RdmaDcqcn", "RateOnFirstCnp": "400Gbps"})"), &pointer);
    EXPECT_EQ(pointer, "/cc/RateOnFirstCnp") << e2;
}

// "host_link_rate": "50Mbps" (legal) with the default DCQCN MinRate 100 Mbps: abort.
// No silent clamp: an error naming both values and where each comes from.
TEST_F(ConfigRobustnessTest, SlowHostLinkWithDefaultMinRateIsAnError)
{
    std::string pointer;
    const std::string e = Error(Incast("", R"(, "host_link_rate": "50Mbps")"), &pointer);
    EXPECT_EQ(pointer, "/cc/MinRate") << e;
    EXPECT_TRUE(Has(e, "MinRate = 100Mbps")) << e;
    EXPECT_TRUE(Has(e, "line rate = 50Mbps")) << e;
    EXPECT_TRUE(Has(e, "not set in /cc")) << e;
    EXPECT_TRUE(Has(e, "/topology/host_link_rate")) << e;
    // Valid once MinRate fits, and with a CC that has no minimum rate.
    EXPECT_EQ(Error(Incast(R"("cc": {"MinRate": "10Mbps"})", R"(, "host_link_rate": "50Mbps")")),
              "");
    EXPECT_EQ(Error(Incast(R"("cc": {"type": "ns3::RdmaNoCongestionControl"})",
                           R"(, "host_link_rate": "50Mbps")")),
              "");
}

// cc.G = 0.0 (the checker allowed [0, 1]), AlphaUpdatePeriod / RateIncreaseTimer "0ns".
TEST_F(ConfigRobustnessTest, DcqcnSingleValueRangesAreInTheCheckers)
{
    for (const auto& [key, value] : {std::pair<std::string, std::string>{"G", "0.0"},
                                     {"AlphaUpdatePeriod", "\"0ns\""},
                                     {"RateIncreaseTimer", "\"0ns\""},
                                     {"CnpInterval", "\"-1ns\""}})
    {
        SCOPED_TRACE(key);
        std::string pointer;
        const std::string e = Error(Incast(R"("cc": {")" + key + "\": " + value + "}"), &pointer);
        EXPECT_EQ(pointer, "/cc/" + key) << e;
        EXPECT_TRUE(Has(e, key == "G"             ? "(0, 1]"
                           : key == "CnpInterval" ? "at least 0ns"
                                                  : "at least 1ns"))
            << e;
    }
    // The checker itself refuses, whoever sets the value.
    Ptr<RdmaDcqcn> dcqcn = CreateObject<RdmaDcqcn>();
    EXPECT_FALSE(dcqcn->SetAttributeFailSafe("G", DoubleValue(0.0)));
    EXPECT_TRUE(dcqcn->SetAttributeFailSafe("G", DoubleValue(1.0)));
    EXPECT_FALSE(dcqcn->SetAttributeFailSafe("AlphaUpdatePeriod", TimeValue(Time(0))));
    EXPECT_FALSE(dcqcn->SetAttributeFailSafe("RateIncreaseTimer", TimeValue(Time(0))));
    // The ranges are named in the message.
    const std::string e = Error(Incast(R"("cc": {"G": 0.0})"));
    EXPECT_TRUE(Has(e, "(0, 1]")) << e;
    const std::string t = Error(Incast(R"("cc": {"RateIncreaseTimer": "0ns"})"));
    EXPECT_TRUE(Has(t, "at least 1ns")) << t;
}

// The model's run-time check and the reader's share one function.
TEST_F(ConfigRobustnessTest, CheckAttributesIsWhatInitEnforces)
{
    Ptr<RdmaDcqcn> dcqcn = CreateObject<RdmaDcqcn>();
    std::string attribute;
    std::string reason;
    EXPECT_TRUE(dcqcn->CheckAttributes(DataRate("100Gbps"), attribute, reason));
    EXPECT_FALSE(dcqcn->CheckAttributes(DataRate("50Mbps"), attribute, reason));
    EXPECT_EQ(attribute, "MinRate");
    EXPECT_TRUE(Has(reason, "50Mbps")) << reason;
    Ptr<RdmaDcqcn> fw = test::DcqcnOfProfile("gen2-gen3"); // rpg_min_rate 1 Mbps
    EXPECT_FALSE(fw->CheckAttributes(DataRate("500Kbps"), attribute, reason));
    EXPECT_EQ(attribute, "MinRate");
}

// "link": {"Mtu": 64} was stored and never enforced.
TEST_F(ConfigRobustnessTest, LinkMtuBelowTheQueuePairPacketIsRejected)
{
    std::string pointer;
    const std::string e = Error(Incast(R"("link": {"Mtu": 64})"), &pointer);
    EXPECT_EQ(pointer, "/link/Mtu") << e;
    EXPECT_TRUE(Has(e, "/qp/Mtu 1024")) << e;
    EXPECT_TRUE(Has(e, "[1088, 65535]")) << e;
    // 1024 B payload + 64 B of headers fits exactly; a 4096 B path MTU does not.
    EXPECT_EQ(Error(Incast(R"("link": {"Mtu": 1088})")), "");
    EXPECT_TRUE(Has(Error(Incast(R"("link": {"Mtu": 1500}, "qp": {"Mtu": 4096})")), "/link/Mtu"));
    EXPECT_EQ(Error(Incast(R"("link": {"Mtu": 1500}, "qp": {"Mtu": 1024})")), "");
}

// A CDF whose sizes exceed the 1 GiB flow limit was clamped without a word.
TEST_F(ConfigRobustnessTest, CdfBeyondTheFlowLimitNamesItsLine)
{
    // A rare tail above the limit: the file loaded and its largest flows were cut.
    Write("big.cdf", "# sizes\n1000 0\n1000000 99.99\n2000000000 100\n");
    const std::string e = Error(Incast(R"("stop_time": "1ms", "workload": {"type": "poisson",
        "cdf": "big.cdf", "load": 0.5, "duration": "900us"})"));
    EXPECT_TRUE(Has(e, "big.cdf:4:1:")) << e;
    EXPECT_TRUE(Has(e, "1073741824")) << e;
    EXPECT_TRUE(Has(e, "/workload/cdf")) << e;
    // Exactly 1 GiB is the limit, not beyond it.
    Write("max.cdf", "1000 0\n1000000 99.99\n1073741824 100\n");
    EXPECT_EQ(Error(Incast(R"("stop_time": "1ms", "workload": {"type": "poisson",
        "cdf": "max.cdf", "load": 0.5, "duration": "900us"})")),
              "");
}

// A path with an embedded NUL was cut at the NUL.
TEST_F(ConfigRobustnessTest, EmbeddedNulIsRejectedWithItsPointer)
{
    Write("zero.txt", "3 1 2\n2\n0 2 100Gbps 1000ns 0\n1 2 100Gbps 1000ns 0\n");
    std::string pointer;
    const std::string e = Error(R"({"topology": {"type": "file", "path": "zero.txt\u0000.bak",
                                   "format": "hpcc"}, "flows": [{"src": 0, "dst": 1, "bytes": 1}]})",
                                &pointer);
    EXPECT_EQ(pointer, "/topology/path") << e;
    EXPECT_TRUE(Has(e, "NUL")) << e;
    Write("w.cdf", "1000 0\n2000 100\n");
    Error(Incast(R"("stop_time": "1ms", "workload": {"type": "poisson",
        "cdf": "w.cdf\u0000", "load": 0.1, "duration": "100us"})"),
          &pointer);
    EXPECT_EQ(pointer, "/workload/cdf");
    Error(Incast(R"("description": "a\u0000b")"), &pointer);
    EXPECT_EQ(pointer, "/description");
}

// "plots": ["fct_cfd"] was ignored by roce-run.
TEST_F(ConfigRobustnessTest, UnknownPlotNameIsRejected)
{
    std::string pointer;
    const std::string e = Error(Incast(R"("plots": ["fct_cdf", "fct_cfd"])"), &pointer);
    EXPECT_EQ(pointer, "/plots/1") << e;
    EXPECT_TRUE(Has(e, "slowdown_by_size")) << e;
    EXPECT_EQ(Error(Incast(R"("plots": ["fct_cdf", "slowdown_cdf", "slowdown_by_size"])")), "");
}

// "seed": 1e400 failed without file or pointer (and roce-run exited 1, not 2).
TEST_F(ConfigRobustnessTest, NumberOverflowNamesItsPointer)
{
    std::string pointer;
    std::string e = Error(Incast(R"("seed": 1e400)"), &pointer);
    EXPECT_EQ(pointer, "/seed") << e;
    EXPECT_TRUE(Has(e, "exp.json")) << e;
    e = Error(Incast(R"("flow_sets": [{"type": "incast", "dst": "h0", "bytes": 1e999}])"),
              &pointer);
    EXPECT_EQ(pointer, "/flow_sets/0/bytes") << e;
    e = Error(R"([1, 2, -1e400])", &pointer);
    EXPECT_EQ(pointer, "/2") << e;
}

// config_db: pools smaller than the reservations they hold; dynamic_th outside [-8, 7].
// SonicBufferConfig::Check refuses with a ConfigError located at the file and the pointer.
TEST_F(ConfigRobustnessTest, SonicPoolsAndDynamicThresholdsAreValidated)
{
    // Check's ConfigError (its text, file and pointer), or nothing when it passes.
    struct Refusal
    {
        std::string text;
        std::string file;
        std::string pointer;
    };

    auto check = [](const SonicBufferConfig& config)
    {
        try
        {
            config.Check();
        }
        catch (const ConfigError& e)
        {
            return Refusal{e.what(), e.GetFile(), e.GetPointer()};
        }
        return Refusal{};
    };
    SonicBufferConfig c = SonicBufferConfig::AzureListing1(4);
    c.source = "db.json";
    EXPECT_EQ(check(c).text, "");
    for (int32_t th : {-100, -9, 8, 100})
    {
        SonicBufferConfig bad = c;
        bad.profiles[0].dynamic = true;
        bad.profiles[0].dynamicTh = th;
        const Refusal e = check(bad);
        EXPECT_TRUE(Has(e.text, "db.json: /BUFFER_PROFILE/" + bad.profiles[0].name + "/dynamic_th"))
            << e.text;
        EXPECT_TRUE(Has(e.text, "[-8, 7]")) << e.text;
        EXPECT_EQ(e.file, "db.json");
        EXPECT_EQ(e.pointer, "/BUFFER_PROFILE/" + bad.profiles[0].name + "/dynamic_th");
    }
    for (int32_t th : {-8, 7})
    {
        SonicBufferConfig ok = c;
        ok.profiles[0].dynamic = true;
        ok.profiles[0].dynamicTh = th;
        EXPECT_EQ(check(ok).text, "");
    }
    SonicBufferConfig small = c;
    const uint32_t pool = small.profiles[0].pool;
    small.profiles[0].size = 1000000; // 1 MB reserved per bound PG, on 4 ports
    small.pools[pool].size = 1000;
    const Refusal e = check(small);
    EXPECT_TRUE(Has(e.text, "/BUFFER_POOL/" + small.pools[pool].name + "/size: 1000 B")) << e.text;
    EXPECT_TRUE(Has(e.text, small.profiles[0].name)) << e.text;
    EXPECT_EQ(e.file, "db.json");
    EXPECT_EQ(e.pointer, "/BUFFER_POOL/" + small.pools[pool].name + "/size");
}

// ... and in an experiment, against /buffer/config_db and the file's pointer.
TEST_F(ConfigRobustnessTest, ConfigDbDynamicThresholdOutOfRangeIsLocated)
{
    std::ifstream in(std::string(ROCE_LAB_SOURCE_DIR) +
                     "/topologies/sonic/azure-pizza-box-24MB.json");
    std::ostringstream text;
    text << in.rdbuf();
    std::string db = text.str();
    const auto at = db.find("\"dynamic_th\": \"-3\"");
    ASSERT_NE(at, std::string::npos);
    db.replace(at, std::string("\"dynamic_th\": \"-3\"").size(), "\"dynamic_th\": \"-100\"");
    Write("db.json", db);
    std::string pointer;
    const std::string e =
        Error(Incast(R"("buffer": {"type": "ns3::SonicBufferManager", "config_db": "db.json"})"),
              &pointer);
    EXPECT_EQ(pointer, "/buffer/config_db") << e;
    EXPECT_TRUE(Has(e, "db.json: /BUFFER_PROFILE/")) << e;
    EXPECT_TRUE(Has(e, "/dynamic_th: -100 is outside [-8, 7]")) << e;
}

// A bad attribute in a NIC profile file was reported against the experiment file.
TEST_F(ConfigRobustnessTest, NicProfileErrorsNameTheProfile)
{
    Write("profile.json", R"({"cc": {"type": "ns3::RdmaDcqcn", "MinRate": "900Gbps"}})");
    try
    {
        NicProfile::Load(CONFIGS + "fat-tree-fct.json", Out() + "profile.json", {});
        FAIL() << "profile accepted";
    }
    catch (const ExperimentConfigError& e)
    {
        EXPECT_EQ(e.GetFile(), Out() + "profile.json") << e.what();
        EXPECT_EQ(e.GetPointer(), "/cc/MinRate") << e.what();
    }
    Write("profile.json", R"({"qp": {"Mtu": 100}})");
    try
    {
        NicProfile::Load(CONFIGS + "fat-tree-fct.json", Out() + "profile.json", {});
        FAIL() << "profile accepted";
    }
    catch (const ExperimentConfigError& e)
    {
        EXPECT_EQ(e.GetFile(), Out() + "profile.json") << e.what();
        EXPECT_EQ(e.GetPointer(), "/qp/Mtu") << e.what();
    }
}

} // namespace
} // namespace ns3
