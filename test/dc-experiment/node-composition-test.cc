// Per-node composition ("nodes"): the reader (selection forms, field-by-field
// overrides, the effective record), the NIC profiles' single source (the JSON
// profiles and the C++ presets agree), and two scenarios with controls: hosts with a
// degraded host model push back with PFC under incast, and NICs with an on-chip
// memory model report cache misses in nodes.csv.
#include "output-file-reader.h"
#include "shipped-experiment-run.h"

#include "ns3/experiment-config-error.h"
#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/json-schema-reader.h"
#include "ns3/nic-profile.h"
#include "ns3/rdma-nic-profile.h"
#include "ns3/simulator.h"
#include "ns3/topology-builder.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{
namespace
{

using Json = nlohmann::json;
using test::CONFIGS;
using test::Fields;
using test::Lines;
using test::LoadAsShipped;
using test::OutputDir;
using test::ReadFile;
using test::RunAsShipped;
using test::Shipped;

/** Loaded under the shipped configs' directory, so that profile names resolve. */
ExperimentConfig
Load(const Json& j)
{
    return LoadAsShipped(j, "nodes-test.json");
}

/** Rows of a CSV file keyed by their first column, each a map column -> value. */
std::map<std::string, std::map<std::string, std::string>>
Rows(const std::string& path, std::size_t keyColumns = 1)
{
    const std::vector<std::string> lines = Lines(ReadFile(path));
    const std::vector<std::string> header = Fields(lines.at(0));
    std::map<std::string, std::map<std::string, std::string>> rows;
    for (std::size_t i = 1; i < lines.size(); ++i)
    {
        const std::vector<std::string> f = Fields(lines[i]);
        std::string key;
        for (std::size_t k = 0; k < keyColumns; ++k)
        {
            key += (k ? "/" : "") + f.at(k);
        }
        for (std::size_t c = 0; c < header.size() && c < f.size(); ++c)
        {
            rows[key][header[c]] = f[c];
        }
    }
    return rows;
}

class NodeCompositionTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    static void Run(const Json& j, const std::string& dir)
    {
        EXPECT_EQ(RunAsShipped(j, "nodes-test.json", dir), 0u);
    }
};

TEST_F(NodeCompositionTest, SelectionFormsAndFieldByFieldOverrides)
{
    Json j = Shipped("nodes-composition.json");
    j["nodes"] = Json::array({
        {{"hosts", "all"}, {"host_model", "plain"}, {"nic_cache", "cx6"}},
        {{"hosts", {{"range", {2, 4}}}}, {"nic_cache", "srnic"}},
        {{"hosts", Json::array({"h5", 7, "h0-h1"})}, {"host_model", "dgx-like"}},
        {{"hosts", {{"under", "s1"}}}, {"nic_profile", "srnic"}},
        {{"hosts", "h7"}, {"nic_cache", "none"}},
    });
    // Flows only between hosts of one transport (SRNIC's extensions under s1, none under
    // s0): a flow across would be refused (TransportCompatibility).
    j["flow_sets"] = Json::array({
        {{"type", "incast"}, {"senders", {"h5", "h6", "h7"}}, {"dst", "h4"}, {"bytes", 100000}},
        {{"type", "incast"}, {"senders", {"h1", "h2", "h3"}}, {"dst", "h0"}, {"bytes", 100000}},
    });
    const ExperimentConfig c = Load(j);
    const NodeComposition& n = c.GetNodes();
    ASSERT_EQ(n.hosts.size(), 8u);
    const auto host = [&](uint32_t h) { return n.hostModels.at(n.hosts[h].hostModel).label; };
    const auto cache = [&](uint32_t h) { return n.nicCaches.at(n.hosts[h].nicCache).label; };
    // Later entries replace earlier ones per field; fields they do not give stay.
    EXPECT_EQ(host(2), "plain");
    EXPECT_EQ(host(0), "dgx-like");
    EXPECT_EQ(host(1), "dgx-like");
    EXPECT_EQ(host(5), "dgx-like");
    EXPECT_EQ(host(7), "dgx-like");
    EXPECT_EQ(cache(0), "cx6");
    EXPECT_EQ(cache(2), "srnic");
    EXPECT_EQ(cache(3), "srnic");
    EXPECT_EQ(cache(4), "cx6");
    EXPECT_EQ(cache(7), "none");
    for (uint32_t h = 0; h < 8; ++h)
    {
        // Leaf s1 holds h4..h7.
        EXPECT_EQ(n.hosts[h].nicProfile >= 0, h >= 4) << h;
    }
    const NodeNicProfile& srnic = n.nicProfiles.at(n.hosts[4].nicProfile);
    EXPECT_EQ(srnic.lossRecovery.typeName, "ns3::RdmaSrnicSelectiveRepeat");
    EXPECT_EQ(srnic.cc.typeName, "ns3::RdmaDctcp");
    EXPECT_EQ(srnic.fabricSections, std::vector<std::string>{"buffer"});

    // The effective record names every host and resolves names; loading it again gives
    // the same composition.
    const Json eff = Json::parse(c.EffectiveJson()["nodes"].dump());
    ASSERT_EQ(eff.size(), 5u);
    EXPECT_EQ(eff[1]["hosts"], Json::array({"h2", "h3"}));
    EXPECT_EQ(eff[2]["hosts"], Json::array({"h5", "h7", "h0", "h1"}));
    EXPECT_EQ(eff[3]["hosts"], Json::array({"h4", "h5", "h6", "h7"}));
    EXPECT_EQ(eff[3]["nic_profile"], CONFIGS + "nic-profiles/srnic.json");
    EXPECT_EQ(eff[1]["nic_cache"]["scheduler"]["type"], "ns3::SrnicQpScheduler");
    const ExperimentConfig again = Load(Json::parse(c.EffectiveJson().dump()));
    EXPECT_EQ(again.EffectiveJson()["nodes"].dump(), c.EffectiveJson()["nodes"].dump());
}

// An SRNIC profile (header extensions) at one end of a flow and CX-6
// (none) at the other corrupted placement while the run reported every flow finished. Such
// a pair is refused at load, at the flow's pointer, naming both hosts and profiles.
TEST_F(NodeCompositionTest, ProfilesThatCannotInteroperateAtAFlowsEndsAreRefused)
{
    Json j = Shipped("nodes-composition.json");
    j["nodes"].push_back({{"hosts", "h0"}, {"nic_profile", "srnic"}});
    std::string error;
    try
    {
        Load(j);
    }
    catch (const ExperimentConfigError& e)
    {
        error = e.what();
    }
    ASSERT_FALSE(error.empty()) << "an SRNIC host receiving from CX-6 hosts was accepted";
    EXPECT_NE(error.find("nodes-test.json: /flow_sets/0: flow 0 connects h4"), std::string::npos)
        << error;
    EXPECT_NE(error.find("h4 (nic_profile \"cx6\": SRNIC header extensions off)"),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("h0 (nic_profile \"srnic\": SRNIC header extensions on)"),
              std::string::npos)
        << error;

    // A collective hop is checked as a flow is.
    Json ring = Shipped("nodes-composition.json");
    ring.erase("flow_sets");
    ring["nodes"].push_back({{"hosts", "h3"}, {"nic_profile", "srnic"}});
    ring["collectives"] = Json::array(
        {{{"type", "ring_allreduce"}, {"hosts", {"h2", "h3"}}, {"bytes", 4096}, {"over", "qps"}}});
    EXPECT_THROW(Load(ring), ExperimentConfigError);

    // SRNIC hosts that only talk to each other load; so does a profile whose transport
    // differs but whose wire format is the same (IRN's selective repeat beside CX-6).
    j["nodes"].back()["hosts"] = Json::array({"h0", "h4", "h5", "h6", "h7"});
    j["flow_sets"].erase(1);
    EXPECT_NO_THROW(Load(j));
    j["nodes"].back() = {{"hosts", "h0"}, {"nic_profile", "irn"}};
    EXPECT_NO_THROW(Load(j));
}

TEST_F(NodeCompositionTest, AbsentSectionLeavesEveryHostAlone)
{
    Json j = Shipped("nodes-composition.json");
    j.erase("nodes");
    const ExperimentConfig c = Load(j);
    EXPECT_TRUE(c.GetNodes().hosts.empty());
    EXPECT_FALSE(c.EffectiveJson().contains("nodes"));
}

// A host's congestion control lives in one place, its composition: "cc_hosts" or its NIC
// profile's "cc". A host given one by both is refused, naming both pointers.
TEST_F(NodeCompositionTest, CongestionControlGivenTwiceIsRefusedNamingBoth)
{
    Json j = Shipped("nodes-composition.json"); // "nodes"/0: every host the cx6 profile
    j["cc_hosts"] = Json::array({{{"hosts", {"h0"}}, {"cc", {{"type", "ns3::RdmaDctcp"}}}}});
    try
    {
        Load(j);
        FAIL() << "a host given two congestion controls was accepted";
    }
    catch (const ExperimentConfigError& e)
    {
        EXPECT_EQ(e.GetPointer(), "/nodes/0/nic_profile") << e.what();
        EXPECT_NE(std::string(e.what()).find("host h0 gets a congestion control"),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("and from /cc_hosts/0"), std::string::npos)
            << e.what();
    }
    // Twice in "cc_hosts": at the second, naming the first.
    Json twice = j;
    twice.erase("nodes");
    twice["cc_hosts"].push_back({{"hosts", {"h1", "h0"}}, {"cc", Json::object()}});
    try
    {
        Load(twice);
        FAIL() << "a host in two cc_hosts entries was accepted";
    }
    catch (const ExperimentConfigError& e)
    {
        EXPECT_EQ(e.GetPointer(), "/cc_hosts/1/hosts/1") << e.what();
        EXPECT_NE(std::string(e.what()).find("at /cc_hosts/0/hosts/0"), std::string::npos)
            << e.what();
    }

    // Each host from its one place: h0 from "cc_hosts", the others from the profile.
    j["nodes"][0]["hosts"] = "h1-h7";
    const ExperimentConfig c = Load(j);
    const NodeComposition& n = c.GetNodes();
    ASSERT_EQ(n.hosts.size(), 8u);
    ASSERT_NE(n.GetCongestionControl(0), nullptr);
    EXPECT_EQ(n.GetCongestionControl(0)->typeName, "ns3::RdmaDctcp");
    EXPECT_EQ(n.congestionControls.at(n.hosts[0].cc).pointer, "/cc_hosts/0");
    ASSERT_NE(n.GetCongestionControl(5), nullptr);
    EXPECT_EQ(n.congestionControls.at(n.hosts[5].cc).pointer, "/nodes/0/nic_profile");
    EXPECT_EQ(&c.GetCongestionControl(5), n.GetCongestionControl(5));
    TopologyBuilder topology(c);
    topology.Build();
    EXPECT_EQ(topology.GetNic(0)->GetCongestionControl()->GetInstanceTypeId().GetName(),
              "ns3::RdmaDctcp");
    EXPECT_EQ(topology.GetNic(5)->GetCongestionControl()->GetInstanceTypeId().GetName(),
              n.GetCongestionControl(5)->typeName);
}

TEST_F(NodeCompositionTest, CachePresetOverridesKeepThePresetsOtherAttributes)
{
    Json j = Shipped("nodes-composition.json");
    const ExperimentConfig c = Load(j);
    const NodeNicCache& srnic = c.GetNodes().nicCaches.at(0);
    EXPECT_EQ(srnic.scheduler.typeName, "ns3::SrnicQpScheduler");
    std::map<std::string, std::string> attributes;
    for (const ExperimentAttribute& a : srnic.cache.attributes)
    {
        attributes[a.name] = a.value->SerializeToString(nullptr);
    }
    EXPECT_EQ(attributes["QpcCacheBytes"], "210");    // the file's override
    EXPECT_EQ(attributes["QpcEntryBytes"], "210");    // the preset's (SRNIC Table 2)
    EXPECT_EQ(attributes["MttCacheBytes"], "524288"); // the preset's
}

// One source for a NIC's transport: each JSON profile naming a preset gets exactly the
// preset's loss recovery, congestion control and header extensions, except the keys it
// sets itself; and those keys really differ from the preset (a restated value would be a
// second copy of the preset that could drift from it).
TEST_F(NodeCompositionTest, JsonProfilesAgreeWithTheCppPresets)
{
    uint32_t checked = 0;
    for (const auto& entry : std::filesystem::directory_iterator(CONFIGS + "nic-profiles"))
    {
        const Json raw = Json::parse(ReadFile(entry.path().string()));
        if (!raw.contains("preset"))
        {
            continue;
        }
        SCOPED_TRACE(entry.path().filename().string());
        Json preset;
        ASSERT_NO_THROW(preset = NicProfile::PresetSections(raw["preset"], JsonSchemaReader("test"),
                                                            "/preset"));
        const Json expanded = NicProfile::Read(entry.path().string());
        EXPECT_FALSE(expanded.contains("preset"));
        for (const auto& [section, values] : preset.items())
        {
            for (const auto& [key, value] : values.items())
            {
                const bool own = raw.contains(section) && raw[section].contains(key);
                if (own)
                {
                    EXPECT_NE(raw[section][key], value)
                        << section << "/" << key << " restates the preset";
                    EXPECT_EQ(expanded[section][key], raw[section][key]);
                }
                else
                {
                    EXPECT_EQ(expanded[section][key], value) << section << "/" << key;
                }
            }
        }
        ++checked;
    }
    EXPECT_EQ(checked, 3u); // cx6, irn, srnic
    // The one deliberate deviation, and the preset values cx6.json takes from Cx6.
    const Json cx6 = NicProfile::Read(CONFIGS + "nic-profiles/cx6.json");
    EXPECT_EQ(cx6["loss_recovery"]["AdaptiveRetransmission"], false);
    EXPECT_EQ(cx6["loss_recovery"]["NakReactionTime"], "24us");
    EXPECT_EQ(cx6["loss_recovery"]["type"], "ns3::RdmaGoBackN");
    EXPECT_EQ(cx6["cc"]["type"], "ns3::RdmaDcqcn");
    RdmaNicProfile cpp;
    ASSERT_NO_THROW(cpp = RdmaNicProfile::Lookup("Cx6", JsonSchemaReader("test"), ""));
    EXPECT_EQ(cpp.lossRecoveryAttributes.front(),
              std::make_pair(std::string("AdaptiveRetransmission"), std::string("true")));
}

// Hostping's degraded host (NIC PCIe trained at x4, +200 ns) receiving incast: the NIC
// cannot write at line rate, its receive buffer fills and it pauses its ToR port. The
// control (same traffic, no host model) has no host pausing anything.
TEST_F(NodeCompositionTest, DegradedHostsPauseTheirTorPortsControlDoesNot)
{
    Json j = Shipped("nodes-composition.json");
    j["nodes"].erase(2); // SRNIC memory: the other scenario
    const std::string dir = OutputDir("degraded");
    Run(j, dir);
    auto pfc = Rows(dir + "/pfc.csv", 3);
    const auto ports = Rows(dir + "/ports.csv", 2);
    const auto xoffSent = [&](const std::string& node)
    {
        uint64_t n = 0;
        for (const auto& [key, row] : pfc)
        {
            n += row.at("node") == node ? std::stoull(row.at("xoff_sent")) : 0;
        }
        return n;
    };
    for (const std::string& h : {"h0", "h1"})
    {
        EXPECT_GT(xoffSent(h), 0u) << h;
        // The ToR (s0) port facing h received the pauses and was paused.
        std::string port;
        for (const auto& [key, row] : ports)
        {
            port = row.at("node") == "s0" && row.at("peer_node") == h ? row.at("port") : port;
        }
        ASSERT_FALSE(port.empty());
        const auto it = pfc.find("s0/" + port + "/3");
        ASSERT_NE(it, pfc.end()) << "no PFC at s0 port " << port;
        EXPECT_GT(std::stoull(it->second.at("xoff_received")), 0u);
        EXPECT_GT(std::stod(it->second.at("paused_us")), 0.0);
    }
    for (const std::string& h : {"h2", "h3", "h4", "h5", "h6", "h7"})
    {
        EXPECT_EQ(xoffSent(h), 0u) << h;
    }
    const auto nodes = Rows(dir + "/nodes.csv");
    EXPECT_EQ(nodes.at("h0").at("host_model"), "plain+2 overrides");
    EXPECT_GT(std::stoull(nodes.at("h0").at("pcie_write_bytes")), 0u);
    EXPECT_EQ(nodes.at("h2").at("pcie_write_bytes"), "");

    // Control: the same run without the degraded host model.
    j["nodes"].erase(1);
    const std::string control = OutputDir("control");
    Run(j, control);
    pfc = Rows(control + "/pfc.csv", 3);
    for (const std::string& h : {"h0", "h1", "h2", "h3", "h4", "h5", "h6", "h7"})
    {
        EXPECT_EQ(xoffSent(h), 0u) << h;
    }
}

// The SRNIC on-chip memory on the hosts under s1: their QPs miss the one-entry QPC cache,
// and the fills cross each host's PCIe (its host model). The control (no "nic_cache") has
// no cache model and no misses anywhere.
TEST_F(NodeCompositionTest, CacheModelReportsMissesControlHasNone)
{
    Json j = Shipped("nodes-composition.json");
    j["nodes"].erase(1); // the degraded hosts: the other scenario
    const std::string dir = OutputDir("cache");
    Run(j, dir);
    auto nodes = Rows(dir + "/nodes.csv");
    ASSERT_EQ(nodes.size(), 8u);
    for (const std::string& h : {"h4", "h5", "h6", "h7"})
    {
        EXPECT_EQ(nodes.at(h).at("nic_cache"), "srnic");
        EXPECT_GT(std::stoull(nodes.at(h).at("qpc_misses")), 0u) << h;
        EXPECT_GT(std::stoull(nodes.at(h).at("mtt_misses")), 0u) << h;
        EXPECT_GT(std::stoull(nodes.at(h).at("cache_fill_bytes")), 0u) << h;
        EXPECT_GT(std::stoull(nodes.at(h).at("pcie_read_bytes")), 0u) << h;
    }
    // h6 and h7 send on two QPs through a one-entry cache: more misses than their QPs.
    EXPECT_GT(std::stoull(nodes.at("h6").at("qpc_misses")), 2u);
    // Their host model read the two flows' payload (1 MB each), every cache fill and the
    // SRNIC scheduler's WQE batches: at least one 64 B WQE per turn of at most 16 KB.
    for (const std::string& h : {"h6", "h7"})
    {
        const uint64_t wqes = std::stoull(nodes.at(h).at("wqe_read_bytes"));
        EXPECT_GE(wqes, 2u * 62 * 64) << h;
        EXPECT_EQ(wqes % 64, 0u) << h;
        EXPECT_EQ(std::stoull(nodes.at(h).at("pcie_read_bytes")),
                  2000000 + std::stoull(nodes.at(h).at("cache_fill_bytes")) + wqes)
            << h;
    }
    for (const std::string& h : {"h0", "h1", "h2", "h3"})
    {
        EXPECT_EQ(nodes.at(h).at("nic_cache"), "");
        EXPECT_EQ(nodes.at(h).at("qpc_misses"), "") << h;
    }
    EXPECT_NE(ReadFile(dir + "/README").find("nodes.csv"), std::string::npos);

    j["nodes"][1].erase("nic_cache");
    const std::string control = OutputDir("control");
    Run(j, control);
    nodes = Rows(control + "/nodes.csv");
    for (const auto& [host, row] : nodes)
    {
        EXPECT_EQ(row.at("qpc_misses"), "") << host;
        EXPECT_EQ(row.at("mtt_misses"), "") << host;
    }
}

TEST_F(NodeCompositionTest, ProfileErrorsNameTheProfileFile)
{
    const std::string dir = OutputDir("profile");
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/bad.json") << R"({"cc": {"type": "ns3::RdmaDcqcn", "G": "x"}})";
    Json j = Shipped("nodes-composition.json");
    j["nodes"] = Json::array({{{"hosts", "h0"}, {"nic_profile", dir + "/bad.json"}}});
    try
    {
        Load(j);
        FAIL() << "accepted";
    }
    catch (const ExperimentConfigError& e)
    {
        EXPECT_EQ(e.GetFile(), dir + "/bad.json");
        EXPECT_EQ(e.GetPointer(), "/cc/G");
        EXPECT_NE(std::string(e.what()).find("/nodes/0/nic_profile"), std::string::npos);
    }
}

TEST(NodeCompositionPathsTest, PathsRelativeToAnchorsEveryPathField)
{
    // An edited copy of an experiment written elsewhere (input.json of
    // --set, --seed and sweeps) lost the NIC profiles named "cx6" (nic-profiles/cx6.json
    // next to the experiment) and the host-model and config_db files given relative to it.
    // "paths_relative_to" names the directory every path field is resolved against.
    nlohmann::json j = nlohmann::json::parse(test::ReadFile(CONFIGS + "nodes-composition.json"));
    j["nodes"][1]["host_model"] = "../contrib/host/examples/dgx-like.json";
    j["buffer"] = {{"type", "ns3::SonicBufferManager"},
                   {"config_db", {"../topologies/sonic/azure-pizza-box-24MB.json"}}};
    const std::string elsewhere = test::OutputDir("elsewhere") + "/input.json";
    EXPECT_THROW(ExperimentConfig::LoadString(j.dump(), elsewhere), ExperimentConfigError);
    j["paths_relative_to"] = CONFIGS;
    const ExperimentConfig config = ExperimentConfig::LoadString(j.dump(), elsewhere);
    const auto& eff = config.EffectiveJson();
    EXPECT_EQ(eff["nodes"][0]["nic_profile"], CONFIGS + "nic-profiles/cx6.json");
    EXPECT_EQ(config.GetNodes().nicProfiles[0].name, "cx6") << "as written (nodes.csv)";
    EXPECT_NE(eff["buffer"].dump().find(std::string(ROCE_LAB_SOURCE_DIR) +
                                        "/topologies/sonic/azure-pizza-box-24MB.json"),
              std::string::npos)
        << eff["buffer"].dump();
    EXPECT_EQ(config.GetNodes().hostModels[0].file,
              std::string(ROCE_LAB_SOURCE_DIR) + "/contrib/host/examples/dgx-like.json");
    // Relative to the file's own directory; must be a directory.
    for (const auto& [value, reason] : std::vector<std::pair<nlohmann::json, std::string>>{
             {3, "expected the path of a directory"},
             {"", "expected the path of a directory"},
             {"no-such-folder", "no directory \""}})
    {
        j["paths_relative_to"] = value;
        try
        {
            ExperimentConfig::LoadString(j.dump(), elsewhere);
            ADD_FAILURE() << value.dump();
        }
        catch (const ExperimentConfigError& e)
        {
            EXPECT_EQ(e.GetPointer(), "/paths_relative_to");
            EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
        }
    }
}

} // namespace
} // namespace ns3
