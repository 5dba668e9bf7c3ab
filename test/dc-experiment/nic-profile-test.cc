// NIC profiles (configs/nic-profiles): merged into the fat-tree base
// experiment they give the transport, congestion control and PFC settings of
// SRNIC Fig. 12's CX-6, IRN and SRNIC; profile errors name the profile file.
#include "output-file-reader.h"

#include "ns3/experiment-config-error.h"
#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/nic-profile.h"
#include "ns3/simulator.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <string>

namespace ns3
{
namespace
{

using test::CONFIGS;

ExperimentConfig
LoadProfile(const std::string& name, uint32_t servers)
{
    NicProfile::Overrides o;
    o.srnicServers = servers;
    o.duration = "50us";
    return NicProfile::Load(CONFIGS + "fat-tree-fct.json",
                            CONFIGS + "nic-profiles/" + name + ".json", o);
}

TEST(NicProfileExperimentTest, ShippedProfilesSetTransportAndPfc)
{
    struct Expected
    {
        const char* name;
        const char* lossRecovery;
        const char* cc;
        uint64_t lossless;
    };
    for (const Expected& e :
         {Expected{"cx6", "ns3::RdmaGoBackN", "ns3::RdmaDcqcn", 24},
          Expected{"irn", "ns3::RdmaSelectiveRepeat", "ns3::RdmaDcqcn", 0},
          Expected{"srnic", "ns3::RdmaSrnicSelectiveRepeat", "ns3::RdmaDctcp", 0}})
    {
        SCOPED_TRACE(e.name);
        const ExperimentConfig c = LoadProfile(e.name, 64);
        const auto& eff = c.EffectiveJson();
        EXPECT_EQ(eff["loss_recovery"]["type"], e.lossRecovery);
        EXPECT_EQ(eff["cc"]["type"], e.cc);
        EXPECT_EQ(eff["buffer"]["LosslessClasses"], e.lossless);
        // Header extensions only where SRNIC's transport is (66/78 B headers, section 4.4.1).
        EXPECT_EQ(eff["qp"]["SrnicHeaderExtensions"], std::string(e.name) == "srnic");
        EXPECT_EQ(c.GetTopology().hosts.size(), 64u);
        EXPECT_EQ(eff["topology"]["fabric_link_rate"], "400Gbps");
        EXPECT_EQ(eff["workload"]["duration"], "50us");
        EXPECT_EQ(eff["workload"]["load"], 0.7);
        EXPECT_NE(eff["description"].get<std::string>().find("profile: "), std::string::npos);
    }
}

TEST(NicProfileExperimentTest, ProfileErrorsNameTheProfileFile)
{
    const std::string dir = std::string(ROCE_LAB_BINARY_DIR) + "/test-output/nic-profile-test";
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/bad.json") << "{\"cc\": {\"type\": \"ns3::RdmaDcqcn\"},\n \"flows\": []}";
    try
    {
        NicProfile::Merge(CONFIGS + "fat-tree-fct.json", dir + "/bad.json", {});
        FAIL() << "unknown profile key accepted";
    }
    catch (const ExperimentConfigError& e)
    {
        const std::string what = e.what();
        EXPECT_NE(what.find("bad.json"), std::string::npos) << what;
        EXPECT_NE(what.find("flows"), std::string::npos) << what;
    }
    // A bad attribute value in a profile section is caught when the merged experiment loads.
    std::ofstream(dir + "/bad-value.json") << R"({"cc": {"type": "ns3::RdmaDcqcn", "G": "x"}})";
    EXPECT_THROW(NicProfile::Load(CONFIGS + "fat-tree-fct.json", dir + "/bad-value.json", {}),
                 ExperimentConfigError);
    EXPECT_THROW(NicProfile::Merge(CONFIGS + "fat-tree-fct.json", dir + "/missing.json", {}),
                 ExperimentConfigError);
}

// A DCQCN "cc" may name the ConnectX firmware's knobs: each sets its RdmaDcqcn attribute,
// and an error in such a value names the knob the file wrote.
TEST(NicProfileExperimentTest, FirmwareKnobNamesMapToAttributes)
{
    const std::string dir = std::string(ROCE_LAB_BINARY_DIR) + "/test-output/nic-profile-test";
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/fw.json") << R"({"cc": {"type": "ns3::RdmaDcqcn",
        "RpgAiRate": "20Mbps", "MinTimeBetweenCnps": "4us", "BurstBytes": 0}})";
    const nlohmann::json p = NicProfile::Read(dir + "/fw.json");
    EXPECT_EQ(p["cc"]["RateAI"], "20Mbps");
    EXPECT_EQ(p["cc"]["CnpInterval"], "4us");
    EXPECT_FALSE(p["cc"].contains("RpgAiRate"));
    const auto pointerOf = [&dir](const std::string& cc, const std::string& expected)
    {
        std::ofstream(dir + "/fw-bad.json") << "{\"cc\": " + cc + "}";
        try
        {
            NicProfile::Load(CONFIGS + "fat-tree-fct.json", dir + "/fw-bad.json", {});
            return std::string("accepted");
        }
        catch (const ExperimentConfigError& e)
        {
            const std::string what = e.what();
            EXPECT_NE(what.find("fw-bad.json"), std::string::npos) << what;
            EXPECT_NE(what.find(expected), std::string::npos) << what;
            return e.GetPointer();
        }
    };
    // Above the 100 Gb/s line rate: found when the merged experiment loads.
    EXPECT_EQ(pointerOf(R"({"type": "ns3::RdmaDcqcn", "RpgMinRate": "200Gbps"})",
                        "RpgMinRate sets MinRate"),
              "/cc/RpgMinRate");
    EXPECT_EQ(pointerOf(R"({"type": "ns3::RdmaDcqcn", "RpgTimeReset": "x"})",
                        "RpgTimeReset sets RateIncreaseTimer"),
              "/cc/RpgTimeReset");
    EXPECT_EQ(pointerOf(R"({"type": "ns3::RdmaDcqcn", "DceTcpG": 0.5, "G": 0.5})", "give one"),
              "/cc/DceTcpG");
    // A profile written for the retired firmware TypeId is told which profile replaces it.
    EXPECT_EQ(pointerOf(R"({"type": "ns3::RdmaDcqcnFirmware", "RpgAiRate": "20Mbps"})",
                        "NIC profile gen2-gen3"),
              "/cc/type");
}

} // namespace
} // namespace ns3

namespace ns3
{
namespace
{

double
MeanSlowdown(const ExperimentRunner& runner, uint32_t& unfinished)
{
    double sum = 0;
    uint32_t n = 0;
    unfinished = 0;
    for (const auto& f : runner.GetFlowResults())
    {
        if (!f.finished)
        {
            ++unfinished;
            continue;
        }
        sum += (f.finish - f.start).GetPicoSeconds() /
               static_cast<double>(f.idealFct.GetPicoSeconds());
        ++n;
    }
    return n ? sum / n : 0;
}

TEST(NicProfileExperimentTest, SixteenServersIrnAndSrnicBeatCx6OnAverageSlowdown)
{
    // SRNIC Fig. 12's qualitative claim at its smallest scale, 1 ms of
    // Cache_Follower arrivals at load 0.7 (about 200 flows). Measured over
    // seeds 1-5: CX-6/IRN 1.13-1.32x, CX-6/SRNIC 1.30-1.58x in average
    // slowdown (average FCT differs by less, and not robustly for IRN, so it
    // is not asserted). At this scale nothing is paused or dropped: the gap
    // comes from congestion control and IRN's in-flight cap.
    std::map<std::string, double> slowdown;
    for (const char* profile : {"cx6", "irn", "srnic"})
    {
        NicProfile::Overrides o;
        o.srnicServers = 16;
        o.duration = "1ms";
        const ExperimentConfig c = NicProfile::Load(
            CONFIGS + "fat-tree-fct.json", CONFIGS + "nic-profiles/" + profile + ".json", o);
        {
            ExperimentRunner runner(c, std::string(ROCE_LAB_BINARY_DIR) +
                                           "/test-output/fat-tree-fct-16/" + profile);
            runner.Run();
            uint32_t unfinished = 0;
            slowdown[profile] = MeanSlowdown(runner, unfinished);
            EXPECT_GT(runner.GetFlowResults().size(), 150u) << profile;
            EXPECT_EQ(unfinished, 0u) << profile;
        }
        Simulator::Destroy();
    }
    EXPECT_GT(slowdown["cx6"], 1.05 * slowdown["irn"])
        << "cx6 " << slowdown["cx6"] << " irn " << slowdown["irn"];
    EXPECT_GT(slowdown["cx6"], 1.05 * slowdown["srnic"])
        << "cx6 " << slowdown["cx6"] << " srnic " << slowdown["srnic"];
}

} // namespace
} // namespace ns3
