// Buffer configuration per switch role and per switch ("buffer_switches",
// "config_db"): roles from the topology builders, precedence, errors naming the
// file and JSON pointer, and a run mixing a deep-buffer chassis with pizza boxes.
#include "config-error-of.h"
#include "output-file-reader.h"

#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

using test::Fields;
using test::Lines;
using test::ReadFile;

const std::string SONIC_DIR = std::string(ROCE_LAB_SOURCE_DIR) + "/topologies/sonic/";
const std::string PIZZA = SONIC_DIR + "azure-pizza-box-24MB.json";
const std::string CHASSIS = SONIC_DIR + "voq-chassis-j2-6GB.json";

class SwitchBufferAssignmentTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /** A leaf-spine experiment (2 leaves, 2 spines, 2 hosts per leaf) plus \p extra. */
    static std::string LeafSpine(const std::string& extra)
    {
        return R"({"progress": false,
                   "topology": {"type": "leaf_spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 2},
                   "flows": [{"src": "h0", "dst": "h3", "bytes": 1000}], )" +
               extra + "}";
    }

    static bool Contains(const std::string& s, const std::string& part)
    {
        return s.find(part) != std::string::npos;
    }

    static std::string Attribute(const ExperimentComponent& c, const std::string& name)
    {
        for (const auto& a : c.attributes)
        {
            if (a.name == name)
            {
                return a.value->SerializeToString(nullptr);
            }
        }
        return "<unset>";
    }
};

TEST_F(SwitchBufferAssignmentTest, TopologyBuildersNameSwitchRoles)
{
    auto roles = [](const std::string& topology)
    {
        return ExperimentConfig::LoadString(R"({"topology": )" + topology +
                                                R"(, "flows": [{"src": 0, "dst": 1, "bytes": 1}]})",
                                            "roles.json")
            .GetTopology()
            .switchRoles;
    };
    EXPECT_EQ(roles(R"({"type": "leaf_spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 1})"),
              (std::vector<std::string>{"leaf", "leaf", "spine"}));
    const std::vector<std::string> fat = roles(R"({"type": "fat_tree", "k": 4})");
    ASSERT_EQ(fat.size(), 20u); // 8 ToRs, 8 Aggs, 4 cores
    EXPECT_EQ(fat[0], "tor");
    EXPECT_EQ(fat[8], "agg");
    EXPECT_EQ(fat[16], "core");
    EXPECT_EQ(roles(R"({"type": "dumbbell", "hosts_per_side": 1})"),
              (std::vector<std::string>{"", ""}));
    const std::string custom = R"({"type": "custom",
        "switches": [{"name": "t2", "role": "T2"}, "t0", {"name": "rh", "role": "RH"}],
        "hosts": ["a", "b"],
        "links": [{"a": "a", "b": "t0"}, {"a": "t0", "b": "t2"}, {"a": "t2", "b": "rh"},
                  {"a": "b", "b": "rh"}]})";
    EXPECT_EQ(roles(custom), (std::vector<std::string>{"T2", "", "RH"}));
    // The same custom topology read from a roce-lab topology file keeps its roles.
    const std::string dir = std::string(ROCE_LAB_BINARY_DIR) + "/test-output/buffer-assignment";
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/roles-topology.json") << custom;
    EXPECT_EQ(roles(R"({"type": "file", "path": ")" + dir + R"(/roles-topology.json"})"),
              (std::vector<std::string>{"T2", "", "RH"}));
    // The effective form keeps the roles.
    const ExperimentConfig c = ExperimentConfig::LoadString(
        R"({"topology": )" + custom + R"(, "flows": [{"src": 0, "dst": 1, "bytes": 1}]})",
        "c.json");
    const ExperimentConfig back = ExperimentConfig::LoadString(c.EffectiveJson().dump(), "e.json");
    EXPECT_EQ(back.GetTopology().switchRoles, (std::vector<std::string>{"T2", "", "RH"}));
}

TEST_F(SwitchBufferAssignmentTest, SwitchEntryOverRoleEntryOverDefault)
{
    const ExperimentConfig c = ExperimentConfig::LoadString(
        LeafSpine(R"("buffer": {"type": "ns3::SonicBufferManager", "UnlistedPortsLikeFirst": true},
                     "buffer_switches": [
                       {"roles": ["spine"], "buffer": {"type": "ns3::DeepBufferVoq",
                                                       "config_db": ")" +
                  CHASSIS + R"("}},
                       {"switches": ["s3", "s1"], "buffer": {"config_db": ")" +
                  PIZZA + R"("}}])"),
        "mix.json");
    // s0, s1 leaves; s2, s3 spines.
    EXPECT_EQ(c.GetBuffer(0).typeName, "ns3::SonicBufferManager");
    EXPECT_EQ(&c.GetBuffer(0), &c.GetBuffer());
    EXPECT_EQ(c.GetBuffer(0).pointer, "/buffer");
    EXPECT_EQ(Attribute(c.GetBuffer(0), "ConfigFile"), "<unset>"); // Listing 1 built in
    EXPECT_EQ(Attribute(c.GetBuffer(0), "UnlistedPortsLikeFirst"), "true");
    EXPECT_EQ(c.GetBuffer(2).typeName, "ns3::DeepBufferVoq");
    EXPECT_EQ(c.GetBuffer(2).pointer, "/buffer_switches/0/buffer");
    EXPECT_EQ(Attribute(c.GetBuffer(2), "ConfigFile"), CHASSIS);
    // A switch entry wins over its role; the entry's type defaults to /buffer's, but
    // nothing else is inherited.
    for (uint32_t s : {1u, 3u})
    {
        EXPECT_EQ(c.GetBuffer(s).typeName, "ns3::SonicBufferManager") << s;
        EXPECT_EQ(c.GetBuffer(s).pointer, "/buffer_switches/1/buffer");
        EXPECT_EQ(Attribute(c.GetBuffer(s), "ConfigFile"), PIZZA);
        EXPECT_EQ(Attribute(c.GetBuffer(s), "UnlistedPortsLikeFirst"), "<unset>");
    }
    // config.json gives the same assignment (config_db written as ConfigFile).
    const ExperimentConfig back = ExperimentConfig::LoadString(c.EffectiveJson().dump(), "e.json");
    const std::vector<std::string> files = {"", PIZZA, CHASSIS, PIZZA};
    for (uint32_t s = 0; s < 4; ++s)
    {
        EXPECT_EQ(back.GetBuffer(s).typeName, c.GetBuffer(s).typeName);
        EXPECT_EQ(Attribute(back.GetBuffer(s), "ConfigFile"), files[s]) << s;
    }
    EXPECT_EQ(back.EffectiveJson(), c.EffectiveJson());
}

TEST_F(SwitchBufferAssignmentTest, ConfigDbIsRelativeToTheExperimentFile)
{
    const ExperimentConfig c =
        ExperimentConfig::LoadString(LeafSpine(R"("buffer": {"type": "ns3::SonicBufferManager",
                                "config_db": "../topologies/sonic/azure-pizza-box-24MB.json"})"),
                                     std::string(ROCE_LAB_SOURCE_DIR) + "/scratch/x.json");
    EXPECT_EQ(Attribute(c.GetBuffer(), "ConfigFile"),
              std::filesystem::path(PIZZA).lexically_normal().string());
}

TEST_F(SwitchBufferAssignmentTest, NamesAndRolesAreChecked)
{
    const std::string chassis =
        R"("buffer": {"type": "ns3::DeepBufferVoq", "config_db": ")" + CHASSIS + R"("})";
    ExperimentConfigError e = test::ConfigErrorOf(
        LeafSpine(R"("buffer_switches": [{"roles": ["T2"], )" + chassis + "}]"));
    EXPECT_EQ(e.GetFile(), "bad.json");
    EXPECT_EQ(e.GetPointer(), "/buffer_switches/0/roles/0");
    EXPECT_TRUE(Contains(e.GetReason(), "unknown switch role \"T2\"")) << e.what();
    EXPECT_TRUE(Contains(e.GetReason(), "leaf, spine")) << e.what();

    e = test::ConfigErrorOf(
        LeafSpine(R"("buffer_switches": [{"switches": ["s0", "sw12"], )" + chassis + "}]"));
    EXPECT_EQ(e.GetPointer(), "/buffer_switches/0/switches/1");
    EXPECT_TRUE(Contains(e.GetReason(), "unknown switch \"sw12\"")) << e.what();

    e = test::ConfigErrorOf(R"({"topology": {"type": "dumbbell", "hosts_per_side": 1},
                  "flows": [{"src": 0, "dst": 1, "bytes": 1}],
                  "buffer_switches": [{"roles": ["tor"], )" +
                            chassis + "}]}");
    EXPECT_EQ(e.GetPointer(), "/buffer_switches/0/roles/0");
    EXPECT_TRUE(Contains(e.GetReason(), "dumbbell topology has no switch roles")) << e.what();

    e = test::ConfigErrorOf(LeafSpine(R"("buffer_switches": [{"roles": ["spine"], )" + chassis +
                                      R"(}, {"roles": ["leaf", "spine"], )" + chassis + "}]"));
    EXPECT_EQ(e.GetPointer(), "/buffer_switches/1/roles/1");
    EXPECT_TRUE(Contains(e.GetReason(), "already configured at /buffer_switches/0/roles/0"))
        << e.what();

    e = test::ConfigErrorOf(
        LeafSpine(R"("buffer_switches": [{"switches": ["s1", "s1"], )" + chassis + "}]"));
    EXPECT_EQ(e.GetPointer(), "/buffer_switches/0/switches/1");

    e = test::ConfigErrorOf(LeafSpine(R"("buffer_switches": [{)" + chassis + "}]"));
    EXPECT_EQ(e.GetPointer(), "/buffer_switches/0");
    EXPECT_TRUE(Contains(e.GetReason(), "\"roles\" or \"switches\"")) << e.what();

    e = test::ConfigErrorOf(
        R"({"topology": {"type": "custom", "switches": [{"name": "s", "role": "T 0"}],
                  "hosts": ["a"], "links": [{"a": "a", "b": "s"}]},
                  "flows": [{"src": 0, "dst": 0, "bytes": 1}]})");
    EXPECT_EQ(e.GetPointer(), "/topology/switches/0/role");
}

TEST_F(SwitchBufferAssignmentTest, WrongTypesAreErrors)
{
    const std::string chassis =
        R"("buffer": {"type": "ns3::DeepBufferVoq", "config_db": ")" + CHASSIS + R"("})";
    struct Case
    {
        std::string extra;
        std::string pointer;
        std::string reason;
    };
    const std::vector<Case> cases = {
        {R"("buffer_switches": {"spine": {}})", "/buffer_switches", "expected an array"},
        {R"("buffer_switches": [{"roles": "spine", )" + chassis + "}]", "/buffer_switches/0/roles",
         "non-empty array"},
        {R"("buffer_switches": [{"roles": [3], )" + chassis + "}]", "/buffer_switches/0/roles/0",
         "expected a name"},
        {R"("buffer_switches": [{"roles": ["spine"], "buffer": "chassis"}])",
         "/buffer_switches/0/buffer", ""},
        {R"("buffer_switches": [{"roles": ["spine"]}])", "/buffer_switches/0/buffer",
         "missing required field"},
        {R"("buffer_switches": [{"roles": ["spine"], "bufer": {}}])", "/buffer_switches/0/bufer",
         "unknown key"},
        {R"("buffer_switches": [{"roles": ["spine"], "buffer": {"type": "ns3::RedEcnMarker"}}])",
         "/buffer_switches/0/buffer/type", "ns3::BufferManager"},
        {R"("buffer_switches": [{"roles": ["spine"], "buffer": {"config_db": ")" + CHASSIS +
             R"("}}])",
         "/buffer_switches/0/buffer/config_db", "does not read a SONiC config_db file"},
        {R"("buffer": {"type": "ns3::SonicBufferManager", "config_db": 7})", "/buffer/config_db",
         "expected a string"},
        {R"("buffer": {"type": "ns3::SonicBufferManager", "config_db": ")" + PIZZA +
             R"(", "ConfigFile": "x.json"})",
         "/buffer/ConfigFile", "not both"},
        {R"("buffer_switches": [{"roles": ["spine"], "buffer": {"type": "ns3::DeepBufferVoq",
              "OcbSize": 5}}])",
         "/buffer_switches/0/buffer/OcbSize", ""},
    };
    for (const Case& c : cases)
    {
        const ExperimentConfigError e = test::ConfigErrorOf(LeafSpine(c.extra));
        EXPECT_EQ(e.GetFile(), "bad.json");
        EXPECT_EQ(e.GetPointer(), c.pointer) << e.what();
        EXPECT_TRUE(Contains(e.GetReason(), c.reason)) << e.what();
    }
}

TEST_F(SwitchBufferAssignmentTest, ConfigDbFileErrorsNameBothFiles)
{
    ExperimentConfigError e = test::ConfigErrorOf(LeafSpine(
        R"("buffer_switches": [{"roles": ["leaf"], "buffer": {"type": "ns3::SonicBufferManager",
            "config_db": "/nonexistent/sonic.json"}}])"));
    EXPECT_EQ(e.GetPointer(), "/buffer_switches/0/buffer/config_db");
    EXPECT_TRUE(Contains(e.GetReason(), "cannot open the SONiC config_db file")) << e.what();
    EXPECT_TRUE(Contains(e.GetReason(), "/nonexistent/sonic.json")) << e.what();

    // A profile naming a pool that does not exist: the loader's error names the
    // config_db file and its pointer, the experiment error the entry.
    const std::string dir = std::string(ROCE_LAB_BINARY_DIR) + "/test-output/buffer-assignment";
    std::filesystem::create_directories(dir);
    std::ifstream in(PIZZA);
    std::ostringstream text;
    text << in.rdbuf();
    std::string bad = text.str();
    const std::string pool = "\"pool\": \"[BUFFER_POOL|ingress_pool]\"";
    ASSERT_NE(bad.find(pool), std::string::npos);
    bad.replace(bad.find(pool), pool.size(), "\"pool\": \"no_such_pool\"");
    const std::string badFile = dir + "/bad-config-db.json";
    std::ofstream(badFile) << bad;
    e = test::ConfigErrorOf(LeafSpine(
        R"("buffer": {"type": "ns3::SonicBufferManager", "config_db": ")" + badFile + R"("})"));
    EXPECT_EQ(e.GetFile(), "bad.json");
    EXPECT_EQ(e.GetPointer(), "/buffer/config_db");
    EXPECT_TRUE(Contains(e.GetReason(), "bad-config-db.json")) << e.what();
    EXPECT_TRUE(Contains(e.GetReason(), "/BUFFER_PROFILE/")) << e.what();
    EXPECT_TRUE(Contains(e.GetReason(), "no_such_pool")) << e.what();
}

/** Run \p config into \p dir; \return the configuration error, "" if none. */
std::string
RunExperiment(const ExperimentConfig& config, const std::string& dir)
{
    std::filesystem::remove_all(dir);
    try
    {
        ExperimentRunner runner(config, dir);
        runner.Run();
    }
    catch (const ExperimentConfigError& e)
    {
        Simulator::Destroy();
        return e.what();
    }
    Simulator::Destroy();
    return "";
}

TEST_F(SwitchBufferAssignmentTest, ChassisSpinesAndPizzaBoxLeavesInOneRun)
{
    // configs/leaf-spine-buffer-roles.json: 2 leaves x 4 hosts, 2 spines at
    // 100G; 3 senders on leaf 0 -> one receiver on leaf 1, lossless (priority 3).
    // Spines (role "spine") are Jericho2 VoQ chassis, leaves Listing 1 pizza boxes
    // (config_db paths relative to the experiment file).
    const std::string dir = std::string(ROCE_LAB_BINARY_DIR) + "/test-output/buffer-roles";
    const ExperimentConfig config = ExperimentConfig::LoadFile(
        std::string(ROCE_LAB_SOURCE_DIR) + "/configs/leaf-spine-buffer-roles.json");
    EXPECT_EQ(config.GetBuffer(1).typeName, "ns3::SonicBufferManager"); // s1: by name
    EXPECT_EQ(config.GetBuffer(2).typeName, "ns3::DeepBufferVoq");      // s2: spine
    ASSERT_EQ(RunExperiment(config, dir), "");
    const std::vector<std::string> rows = Lines(ReadFile(dir + "/buffers.csv"));
    ASSERT_GT(rows.size(), 10u);
    ASSERT_EQ(rows[0], "time_us,node,object,name,port,index,bytes,watermark_bytes");
    std::map<std::string, std::set<std::string>> pools; // node -> pool names
    std::map<std::string, uint64_t> dramPeak;           // node -> DRAM watermark
    std::map<std::string, uint64_t> queuePeak;          // node -> queue watermark
    for (size_t i = 1; i < rows.size(); ++i)
    {
        const std::vector<std::string> f = Fields(rows[i]);
        ASSERT_EQ(f.size(), 8u) << rows[i];
        if (f[2] == "pool_shared")
        {
            pools[f[1]].insert(f[3]);
        }
        if (f[2] == "dram")
        {
            dramPeak[f[1]] = std::max<uint64_t>(dramPeak[f[1]], std::stoull(f[7]));
        }
        if (f[2] == "queue")
        {
            queuePeak[f[1]] = std::max<uint64_t>(queuePeak[f[1]], std::stoull(f[7]));
        }
    }
    const std::set<std::string> listing1 = {"ingress_pool", "egress_lossy_pool",
                                            "egress_lossless_pool"};
    EXPECT_EQ(pools["s0"], listing1);
    EXPECT_EQ(pools["s1"], listing1);
    EXPECT_EQ(pools["s2"], std::set<std::string>{"ingress_lossless_pool"});
    EXPECT_EQ(pools["s3"], std::set<std::string>{"ingress_lossless_pool"});
    EXPECT_EQ(dramPeak.count("s0") + dramPeak.count("s1"), 0u); // no DRAM on pizza boxes
    // The spines forward through DRAM (the J2 chassis writes every packet there).
    EXPECT_GT(dramPeak["s2"] + dramPeak["s3"], 0u);
    // 3 x 100G into one 100G path (a leaf uplink or the receiver's port, as ECMP hashes
    // the QPs): data queues on a pizza box.
    EXPECT_GT(std::max(queuePeak["s0"], queuePeak["s1"]), 100000u);
    // Lossless all the way: no buffer drop anywhere.
    EXPECT_EQ(Lines(ReadFile(dir + "/buffer_drops.csv")).size(), 1u);
    const std::vector<std::string> flows = Lines(ReadFile(dir + "/flows.csv"));
    ASSERT_EQ(flows.size(), 4u);
    for (size_t i = 1; i < flows.size(); ++i)
    {
        EXPECT_FALSE(Fields(flows[i])[5].empty()) << flows[i]; // finished
    }
}

TEST_F(SwitchBufferAssignmentTest, PortsBeyondTheConfigDbNameTheEntryAndSwitch)
{
    // Leaves with 8 hosts + 2 spines have 10 ports; the chassis file names 8.
    const std::string text =
        R"({"progress": false,
            "topology": {"type": "leaf_spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 8},
            "buffer_switches": [{"roles": ["leaf"], "buffer": {"type": "ns3::DeepBufferVoq",
                                 "config_db": ")" +
        CHASSIS + R"("}}],
            "flows": [{"src": "h0", "dst": "h9", "bytes": 1000}]})";
    std::string msg;
    try
    {
        const ExperimentConfig config = ExperimentConfig::LoadString(text, "mixed.json");
        msg = RunExperiment(config, std::string(ROCE_LAB_BINARY_DIR) + "/test-output/buffer-ports");
    }
    catch (const ExperimentConfigError& e)
    {
        msg = std::string("load: ") + e.what();
    }
    EXPECT_TRUE(Contains(msg, "mixed.json: /buffer_switches/0/buffer")) << msg;
    EXPECT_TRUE(Contains(msg, "switch s0")) << msg;
    EXPECT_TRUE(Contains(msg, "switch port 8")) << msg;
    EXPECT_TRUE(Contains(msg, "UnlistedPortsLikeFirst")) << msg;
}

} // namespace
} // namespace ns3
