// SonicConfigLoader on config_db as SONiC writes it: nested and flat Redis-key
// layouts, port naming (4-lane, 8-lane, breakout, explicit map), the QoS maps
// (PORT_QOS_MAP global and per port), SCHEDULER weights on DWRR queues, WRED on
// queues, the one line naming what is not modelled, and located errors (the suite's
// one ConfigError).
#include "sonic-loader-probe.h"

#include "ns3/boolean.h"
#include "ns3/config-error.h"
#include "ns3/dcb-helper.h"
#include "ns3/dcb-net-device.h"
#include "ns3/dcb-switch.h"
#include "ns3/node.h"
#include "ns3/red-ecn-marker.h"
#include "ns3/simulator.h"
#include "ns3/sonic-buffer-manager.h"
#include "ns3/sonic-config-loader.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

using namespace ns3;

namespace
{

const std::string SAMPLES = std::string(ROCE_LAB_SOURCE_DIR) + "/test/data/sonic-samples/";
const std::string NESTED = SAMPLES + "qos-config-nested.json";
const std::string QOS_GLOBAL = SAMPLES + "port-qos-map-global-redis-keys.json";

std::string
ReadText(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

/** The nested file rewritten as sonic-db-dump writes it: "TABLE|key": {fields}. */
std::string
Flatten(const std::string& nested)
{
    const nlohmann::json root = nlohmann::json::parse(nested);
    nlohmann::json flat = nlohmann::json::object();
    for (const auto& [table, entries] : root.items())
    {
        for (const auto& [key, fields] : entries.items())
        {
            flat[table + "|" + key] = fields;
        }
    }
    return flat.dump();
}

/** A one-port buffer configuration (nested) to which tests add tables. */
std::string
Minimal(const std::string& port, const std::string& more = "")
{
    return R"({"BUFFER_POOL": {"ingress_lossless_pool": {"type": "ingress", "size": "1000000"},
                               "egress_lossy_pool": {"type": "egress", "size": "1000000"}},
               "BUFFER_PROFILE": {"in": {"pool": "ingress_lossless_pool", "dynamic_th": "0"},
                                  "out": {"pool": "egress_lossy_pool", "dynamic_th": "0"}},
               "BUFFER_PG": {")" +
           port + R"(|0": {"profile": "in"}},
               "BUFFER_QUEUE": {")" +
           port + R"(|0-7": {"profile": "out"}})" + more + "}";
}

TEST(SonicConfigLayout, FlatRedisKeysLoadLikeNestedTables)
{
    SonicLoaderProbe nestedLoader;
    SonicLoaderProbe flatLoader;
    SonicBufferConfig nested;
    SonicBufferConfig flat;
    ASSERT_TRUE(nestedLoader.LoadFile(NESTED, nested)) << nestedLoader.GetError();
    ASSERT_TRUE(flatLoader.LoadString(Flatten(ReadText(NESTED)), "flat.json", flat))
        << flatLoader.GetError();
    ASSERT_EQ(nested.pools.size(), 3u);
    ASSERT_EQ(flat.pools.size(), nested.pools.size());
    for (size_t i = 0; i < nested.pools.size(); ++i)
    {
        EXPECT_EQ(flat.pools[i].name, nested.pools[i].name);
        EXPECT_EQ(flat.pools[i].size, nested.pools[i].size);
    }
    ASSERT_EQ(flat.ports.size(), 32u); // Ethernet0 .. Ethernet124
    EXPECT_EQ(nested.ports.size(), 32u);
    EXPECT_EQ(flat.ports[31].name, "Ethernet124");
    EXPECT_EQ(flat.ports[5].queueProfile[3], nested.ports[5].queueProfile[3]);
    EXPECT_EQ(flat.ports[5].cableMetres, 300);
    EXPECT_TRUE(flat.flatKeys);
    // Both name the same things as not modelled, each with its own file.
    EXPECT_NE(nestedLoader.GetUnmodelled().find(NESTED + ": tables MPLS_TC_TO_TC_MAP"),
              std::string::npos)
        << nestedLoader.GetUnmodelled();
    EXPECT_NE(flatLoader.GetUnmodelled().find("flat.json: tables MPLS_TC_TO_TC_MAP"),
              std::string::npos)
        << flatLoader.GetUnmodelled();
    EXPECT_NE(flatLoader.GetUnmodelled().find("WRED_PROFILE.red_min_threshold"), std::string::npos);
    EXPECT_EQ(flatLoader.GetUnmodelled().find('\n'), std::string::npos); // one line
}

TEST(SonicConfigLayout, ConfigErrorIsTheSuitesOneLocatedError)
{
    // The three forms every reader of the suite reports (ExperimentConfigError is this type).
    const ConfigError pointer("a.json", "/BUFFER_POOL/p/size", "'1k' is not a size");
    EXPECT_STREQ(pointer.what(), "a.json: /BUFFER_POOL/p/size: '1k' is not a size");
    EXPECT_EQ(pointer.GetFile(), "a.json");
    EXPECT_EQ(pointer.GetPointer(), "/BUFFER_POOL/p/size");
    EXPECT_EQ(pointer.GetReason(), "'1k' is not a size");
    EXPECT_STREQ(ConfigError("a.json", "", "not an object").what(),
                 "a.json: (root): not an object");
    EXPECT_STREQ(ConfigError("a.json", 3, 7, "missing ','").what(), "a.json:3:7: missing ','");
    const ConfigError file("a.json", "cannot open the file");
    EXPECT_STREQ(file.what(), "a.json: cannot open the file");
    EXPECT_EQ(file.GetPointer(), "");
    // The loader's root is "(root)", as every other reader's.
    SonicLoaderProbe loader;
    SonicBufferConfig c;
    EXPECT_FALSE(loader.LoadString("[1, 2]", "top.json", c));
    EXPECT_EQ(loader.GetError(),
              "top.json: (root): the top level must be a JSON object of config_db tables");
}

TEST(SonicConfigLayout, ErrorsNameFileAndPointerInEitherLayout)
{
    SonicLoaderProbe loader;
    SonicBufferConfig c;
    EXPECT_FALSE(loader.LoadString(R"({"BUFFER_POOL|p/q": {"type": "sideways", "size": "1"}})",
                                   "f.json", c));
    EXPECT_NE(loader.GetError().find("f.json: /BUFFER_POOL|p~1q/type: 'sideways'"),
              std::string::npos)
        << loader.GetError();
    EXPECT_FALSE(loader.LoadString(R"({"BUFFER_POOL": {"p": {"type": "ingress", "size": "1k"}}})",
                                   "n.json", c));
    EXPECT_NE(loader.GetError().find("n.json: /BUFFER_POOL/p/size: '1k'"), std::string::npos)
        << loader.GetError();
    EXPECT_FALSE(
        loader.LoadString(R"({"CABLE_LENGTH|AZURE": {"Ethernet0": "5 metres"}})", "c.json", c));
    EXPECT_NE(loader.GetError().find("c.json: /CABLE_LENGTH|AZURE/Ethernet0: '5 metres'"),
              std::string::npos)
        << loader.GetError();
    EXPECT_FALSE(loader.LoadString(R"({"BUFFER_PG|Ethernet0|0": "profile"})", "s.json", c));
    EXPECT_NE(loader.GetError().find("s.json: /BUFFER_PG|Ethernet0|0: an entry must be"),
              std::string::npos)
        << loader.GetError();
    // Cross-table checks use the file's layout in their pointers too.
    EXPECT_FALSE(loader.LoadString(R"({"BUFFER_POOL|ingress_lossless_pool":
                                           {"type": "ingress", "size": "100000"},
                                       "BUFFER_PROFILE|in": {"pool": "ingress_lossless_pool",
                                                             "dynamic_th": "0"},
                                       "BUFFER_PG|Ethernet0|3-4": {"profile": "in"},
                                       "PORT_QOS_MAP|Ethernet0": {"pfc_enable": "3,4"}})",
                                   "x.json", c));
    EXPECT_NE(loader.GetError().find("x.json: /BUFFER_PG|Ethernet0|3-4/profile: lossless PG 3"),
              std::string::npos)
        << loader.GetError();
    // A second file's error names the second file.
    EXPECT_FALSE(loader.LoadFiles({NESTED, "/nonexistent/qos.json"}, c));
    EXPECT_NE(loader.GetError().find("/nonexistent/qos.json: cannot open"), std::string::npos);
}

TEST(SonicConfigLayout, PortNamesOf8LaneAndBreakoutPortsTakeConsecutiveIndices)
{
    SonicLoaderProbe loader;
    SonicBufferConfig c;
    // 400G 8-lane ports.
    ASSERT_TRUE(loader.LoadString(Minimal("Ethernet0,Ethernet8,Ethernet16"), "8lane.json", c))
        << loader.GetError();
    ASSERT_EQ(c.ports.size(), 3u);
    EXPECT_EQ(c.ports[1].name, "Ethernet8");
    EXPECT_EQ(c.ports[2].name, "Ethernet16");
    // Breakout: Ethernet0 split in four, with Ethernet4 unsplit after it.
    ASSERT_TRUE(loader.LoadString(Minimal("Ethernet4,Ethernet3,Ethernet2,Ethernet1,Ethernet0"),
                                  "breakout.json", c));
    ASSERT_EQ(c.ports.size(), 5u);
    for (uint32_t i = 0; i < 5; ++i)
    {
        EXPECT_EQ(c.ports[i].name, "Ethernet" + std::to_string(i));
    }
    // The 4-lane rule N / 4 still exists, and rejects breakout names.
    loader.SetEthernetDivisor(4);
    EXPECT_FALSE(loader.LoadString(Minimal("Ethernet0,Ethernet2"), "div4.json", c));
    EXPECT_NE(loader.GetError().find("div4.json: /BUFFER_PG/Ethernet0,Ethernet2|0"),
              std::string::npos)
        << loader.GetError();
    // An explicit map skips the ports it leaves out, and says so.
    SonicLoaderProbe mapped;
    mapped.SetPortMap({{"Ethernet16", 0}, {"Ethernet0", 1}});
    ASSERT_TRUE(mapped.LoadString(Minimal("Ethernet0,Ethernet8,Ethernet16"), "m.json", c));
    ASSERT_EQ(c.ports.size(), 2u);
    EXPECT_EQ(c.ports[0].name, "Ethernet16");
    EXPECT_EQ(c.ports[1].name, "Ethernet0");
    ASSERT_EQ(mapped.GetNotes().size(), 1u);
    EXPECT_NE(mapped.GetNotes()[0].find("Ethernet8"), std::string::npos);
    // Names that are not EthernetN need a map.
    SonicLoaderProbe plain;
    EXPECT_FALSE(plain.LoadString(Minimal("etp1"), "alias.json", c));
    EXPECT_NE(plain.GetError().find("alias.json: /BUFFER_PG/etp1|0: port 'etp1'"),
              std::string::npos)
        << plain.GetError();
}

TEST(SonicConfigLayout, QosMapsPerPortOverTheGlobalOne)
{
    const std::string more = R"(,
        "DSCP_TO_TC_MAP": {"AZURE": {"3": "3", "26": "4"}, "OTHER": {"3": "5"}},
        "TC_TO_PRIORITY_GROUP_MAP": {"AZURE": {"3": "3", "4": "3"}},
        "TC_TO_QUEUE_MAP": {"AZURE": {"3": "3", "4": "4"}},
        "MAP_PFC_PRIORITY_TO_QUEUE": {"AZURE": {"3": "3", "4": "4"}},
        "PORT_QOS_MAP": {"global": {"dscp_to_tc_map": "AZURE"},
                         "Ethernet4": {"dscp_to_tc_map": "[DSCP_TO_TC_MAP|OTHER]",
                                       "tc_to_pg_map": "AZURE", "tc_to_queue_map": "AZURE",
                                       "pfc_to_queue_map": "AZURE"}})";
    SonicLoaderProbe loader;
    SonicBufferConfig c;
    ASSERT_TRUE(loader.LoadString(Minimal("Ethernet0,Ethernet4", more), "qos.json", c))
        << loader.GetError();
    ASSERT_NE(c.DscpToTc(0), nullptr);
    EXPECT_EQ((*c.DscpToTc(0))[26], 4); // global map
    EXPECT_EQ((*c.DscpToTc(0))[46], 0); // not in the map: TC 0 (SAI)
    EXPECT_EQ((*c.DscpToTc(1))[3], 5);  // Ethernet4's own map
    EXPECT_EQ((*c.DscpToTc(1))[26], 0);
    EXPECT_EQ(c.ports[1].tcToPg[4], 3);
    EXPECT_EQ(c.ports[1].tcToPg[7], 0); // not in the map
    EXPECT_EQ(loader.GetUnmodelled(), "");

    // A queue map other than the identity is refused where it says so.
    std::string bad = more;
    bad.replace(bad.find(R"("TC_TO_QUEUE_MAP": {"AZURE": {"3": "3")"),
                std::string(R"("TC_TO_QUEUE_MAP": {"AZURE": {"3": "3")").size(),
                R"("TC_TO_QUEUE_MAP": {"AZURE": {"3": "1")");
    EXPECT_FALSE(loader.LoadString(Minimal("Ethernet0,Ethernet4", bad), "q.json", c));
    EXPECT_NE(loader.GetError().find("q.json: /TC_TO_QUEUE_MAP/AZURE/3: 3 -> queue 1"),
              std::string::npos)
        << loader.GetError();
    // A port naming a map that does not exist.
    EXPECT_FALSE(loader.LoadString(
        Minimal("Ethernet0", R"(, "PORT_QOS_MAP|Ethernet0": {"dscp_to_tc_map": "NONE"})"), "r.json",
        c));
    EXPECT_NE(loader.GetError().find("r.json: /PORT_QOS_MAP|Ethernet0/dscp_to_tc_map"),
              std::string::npos)
        << loader.GetError();
}

TEST(SonicConfigLayout, PortQosMapOverPortsNotYetSeenReachesEveryPort)
{
    // Found by fuzzing, on its seed topologies/sonic/voq-chassis-j2-6GB.json itself: a
    // PORT_QOS_MAP key listing ports that no table named before grows the port list while
    // the reader held pointers into it; the map reached freed memory, not the ports.
    const std::string more = R"(,
        "DSCP_TO_TC_MAP": {"AZURE": {"26": "4"}},
        "PORT_QOS_MAP": {"Ethernet0,Ethernet4,Ethernet8,Ethernet12,Ethernet16,Ethernet20,Ethernet24,Ethernet28": {"dscp_to_tc_map": "AZURE"}})";
    SonicLoaderProbe loader;
    SonicBufferConfig c;
    ASSERT_TRUE(loader.LoadString(Minimal("Ethernet0", more), "qos.json", c)) << loader.GetError();
    ASSERT_EQ(c.ports.size(), 8u);
    for (uint32_t i = 0; i < 8; ++i)
    {
        EXPECT_TRUE(c.ports[i].hasDscpToTc) << c.ports[i].name;
        EXPECT_EQ(c.ports[i].dscpToTc[26], 4) << c.ports[i].name;
    }
}

TEST(SonicConfigLayout, DynamicPgNeedsTheDynamicModel)
{
    SonicLoaderProbe loader;
    SonicBufferConfig c;
    const std::string pg = R"(, "BUFFER_PG|Ethernet0|3-4": {"profile": "NULL"})";
    ASSERT_TRUE(loader.LoadString(Minimal("Ethernet0", pg), "d.json", c)) << loader.GetError();
    EXPECT_EQ(c.ports[0].pgDynamic, 0x18);
    EXPECT_EQ(c.ports[0].pgProfile[3], SonicPortBuffer::NONE);
    EXPECT_FALSE(loader.LoadString(
        Minimal("Ethernet0",
                pg + R"(, "DEVICE_METADATA": {"localhost": {"buffer_model": "traditional"}})"),
        "t.json", c));
    EXPECT_NE(loader.GetError().find("t.json: /BUFFER_PG|Ethernet0|3-4/profile"), std::string::npos)
        << loader.GetError();
}

class SonicQosOnSwitch : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /** A switch with 3 ports, loading \p files. */
    Ptr<DcbSwitch> Build(const std::string& files)
    {
        Ptr<Node> sw = CreateObject<Node>();
        DcbHelper dcb;
        for (uint32_t i = 0; i < 3; ++i)
        {
            dcb.Install(sw, CreateObject<Node>());
        }
        dcb.SetBufferManager("ns3::SonicBufferManager");
        dcb.SetBufferManagerAttribute("ConfigFile", StringValue(files));
        dcb.SetBufferManagerAttribute("UnlistedPortsLikeFirst", BooleanValue(true));
        try
        {
            return dcb.InstallSwitch(sw);
        }
        catch (const ConfigError& e)
        {
            ADD_FAILURE() << e.what();
        }
        return nullptr;
    }
};

TEST_F(SonicQosOnSwitch, SchedulersWredAndDscpMapProgramTheSwitch)
{
    // The nested sample (SCHEDULER scheduler.0/1 DWRR 14/15, WRED AZURE_LOSSLESS, maps)
    // plus a flat file binding them to Ethernet0's queues and its DSCP map.
    const std::string dir = std::string(ROCE_LAB_BINARY_DIR) + "/test-output/sonic-layout";
    std::filesystem::create_directories(dir);
    const std::string binding = dir + "/sonic-queue-binding.json";
    std::ofstream(binding) << R"({
        "QUEUE|Ethernet0|0": {"scheduler": "[SCHEDULER|scheduler.0]"},
        "QUEUE|Ethernet0|1": {"scheduler": "scheduler.1"},
        "QUEUE|Ethernet0|3-4": {"wred_profile": "AZURE_LOSSLESS"},
        "PORT_QOS_MAP|Ethernet0": {"dscp_to_tc_map": "AZURE", "pfc_enable": ""}})";
    Ptr<DcbSwitch> sw = Build(NESTED + "," + binding);
    ASSERT_TRUE(sw);
    Ptr<DcbNetDevice> port0 = sw->GetPort(0);
    UintegerValue mask;
    port0->GetAttribute("DwrrClassMask", mask);
    EXPECT_EQ(mask.Get(), 0x03u);
    EXPECT_EQ(port0->GetDwrrWeight(0), 14u);
    EXPECT_EQ(port0->GetDwrrWeight(1), 15u);
    sw->GetPort(1)->GetAttribute("DwrrClassMask", mask);
    EXPECT_EQ(mask.Get(), 0u); // no QUEUE entry: strict priority as before
    // AZURE: DSCP 46 -> TC 5, 3 -> 3, 8 -> 0, 26 -> 1 on Ethernet0 only.
    EXPECT_EQ(sw->GetDscpToTc(0, 46), 5);
    EXPECT_EQ(sw->GetDscpToTc(0, 3), 3);
    EXPECT_EQ(sw->GetDscpToTc(0, 8), 0);
    EXPECT_EQ(sw->GetDscpToTc(0, 26), 1);
    EXPECT_EQ(sw->GetDscpToTc(1, 26), 26 >> 3);
    // WRED green 1048576 .. 2097152 B, 5 %, ecn_all: RED marking on queues 3 and 4.
    Ptr<RedEcnMarker> red = DynamicCast<RedEcnMarker>(sw->GetEcnMarker(0));
    ASSERT_TRUE(red);
    EXPECT_DOUBLE_EQ(red->GetProbability(3, 1048576), 0.0);
    EXPECT_NEAR(red->GetProbability(4, (1048576 + 2097152) / 2), 0.025, 1e-9);
    EXPECT_DOUBLE_EQ(red->GetProbability(3, 2097153), 1.0);
    EXPECT_DOUBLE_EQ(red->GetProbability(0, 2097153), 0.0);
}

TEST_F(SonicQosOnSwitch, GlobalMapOnlyFileBesideBuffers)
{
    // Both files define DSCP_TO_TC_MAP|AZURE; merged as sonic-cfggen merges (later file's
    // fields win, the rest stays): 0 -> 0 (was 1), 1 -> 1, 26 -> 1, 46 -> 5 from the first.
    // PORT_QOS_MAP|global binds it to every port.
    Ptr<DcbSwitch> sw = Build(NESTED + "," + QOS_GLOBAL);
    ASSERT_TRUE(sw);
    for (uint32_t p = 0; p < 3; ++p)
    {
        EXPECT_EQ(sw->GetDscpToTc(p, 0), 0);
        EXPECT_EQ(sw->GetDscpToTc(p, 1), 1);
        EXPECT_EQ(sw->GetDscpToTc(p, 26), 1);
        EXPECT_EQ(sw->GetDscpToTc(p, 46), 5);
    }
}

} // namespace
