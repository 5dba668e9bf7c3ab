// Why ~830 lines: the HPCC simulator's files both ways (every translated or refused key, and
// both of its output files) in one place, as HpccConfigTranslator keeps its key list in one.
// What users of the HPCC ns-3 simulator bring: its configuration files (HpccConfigTranslator:
// each key mapped or refused with file, line and key) and its output files (HpccOutputWriter:
// fct.txt and pfc.txt in that simulator's columns, checked against our own flows.csv and
// pfc.csv for a small incast run that pauses).
#include "output-file-reader.h"

#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/hpcc-config-translator.h"
#include "ns3/ideal-fct-calculator.h"
#include "ns3/nic-profile.h"
#include "ns3/rdma-nic.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

using test::Fields;
using test::Lines;
using test::OutputDir;
using test::ReadFile;

const std::string SRC = ROCE_LAB_SOURCE_DIR;
const std::string TOPOLOGY = SRC + "/topologies/hpcc-leaf-spine-8.txt"; // 8 hosts, 100G + 400G
const std::string FLOWS = SRC + "/configs/hpcc-config-example-flows.txt";

/** A configuration naming the 8-host topology and the example's flows, then \p extra lines. */
std::string
Config(const std::string& extra, const std::string& trace = "0")
{
    return "TOPOLOGY_FILE " + TOPOLOGY + "\nFLOW_FILE " + FLOWS + "\nENABLE_TRACE " + trace + "\n" +
           extra;
}

/** \return the error translating \p text as "cfg.txt", "" if it translates. */
std::string
TranslateError(const std::string& text)
{
    try
    {
        HpccConfigTranslator::Translate(text, "cfg.txt");
    }
    catch (const ExperimentConfigError& e)
    {
        return e.what();
    }
    return "";
}

bool
Contains(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

/** The blank-separated words of \p line. */
std::vector<std::string>
Words(const std::string& line)
{
    std::istringstream in(line);
    std::vector<std::string> words;
    std::string w;
    while (in >> w)
    {
        words.push_back(w);
    }
    return words;
}

class HpccCompatTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }
};

TEST_F(HpccCompatTest, RecognizesItsFormatByContent)
{
    EXPECT_TRUE(
        HpccConfigTranslator::IsHpccConfig(ReadFile(SRC + "/configs/hpcc-config-example.txt")));
    EXPECT_TRUE(HpccConfigTranslator::IsHpccConfig("\n# c\nCC_MODE 1\n"));
    EXPECT_FALSE(
        HpccConfigTranslator::IsHpccConfig(ReadFile(SRC + "/configs/dumbbell-small.json")));
    EXPECT_FALSE(HpccConfigTranslator::IsHpccConfig("{\"seed\": 1}"));
    EXPECT_FALSE(HpccConfigTranslator::IsHpccConfig("BROKEN"));
}

TEST_F(HpccCompatTest, KeysMapToTheExperiment)
{
    const nlohmann::ordered_json j = HpccConfigTranslator::Translate(
        Config("PACKET_PAYLOAD_SIZE 1000\nBUFFER_SIZE 32\nSIMULATOR_STOP_TIME 2.02\n"
               "CC_MODE 1\nALPHA_RESUME_INTERVAL 1\nRATE_DECREASE_INTERVAL 4\nRP_TIMER 300\n"
               "EWMA_GAIN 0.00390625\nFAST_RECOVERY_TIMES 1\nRATE_AI 20Mb/s\nRATE_HAI 200Mb/s\n"
               "MIN_RATE 1000Mb/s\nCLAMP_TARGET_RATE 1\nL2_ACK_INTERVAL 1\nL2_BACK_TO_ZERO 0\n"
               "FCT_OUTPUT_FILE mix/fct.txt\n"
               "KMAX_MAP 3 25000000000 400 100000000000 1600 400000000000 1600\n"
               "KMIN_MAP 2 100000000000 400 400000000000 400\n"
               "PMAX_MAP 2 100000000000 0.2 400000000000 0.2\n"),
        "cfg.txt");
    EXPECT_EQ(j["qp"]["Mtu"], 1000);
    EXPECT_EQ(j["qp"]["AckInterval"], 1);
    EXPECT_EQ(j["buffer"]["BufferSize"], "33554432B"); // the peer's MB is 1024 x 1024 B
    EXPECT_EQ(j["stop_time"], "2020ms");
    EXPECT_EQ(j["cc"]["type"], "ns3::RdmaDcqcn");
    EXPECT_EQ(j["cc"]["AlphaUpdatePeriod"], "1us");
    // The peer's NP answers every marked packet and its RP cuts at most once per
    // RATE_DECREASE_INTERVAL, at the tick of its check.
    EXPECT_EQ(j["cc"]["CnpInterval"], "0us");
    EXPECT_EQ(j["cc"]["CnpDelivery"], "AckBecn"); // its CNP is a flag on the ACK
    EXPECT_EQ(j["cc"]["RateDecreaseInterval"], "4us");
    EXPECT_EQ(j["cc"]["IncreaseStages"], "TimerOnly");
    EXPECT_EQ(j["cc"]["AlphaUpdate"], "CnpPeriods");
    EXPECT_EQ(j["cc"]["RateIncreaseTimer"], "300us");
    EXPECT_EQ(j["cc"]["G"], 0.00390625);
    EXPECT_EQ(j["cc"]["RateAI"], "20Mbps");
    EXPECT_EQ(j["cc"]["MinRate"], "1Gbps");
    EXPECT_EQ(j["cc"]["ByteCounter"], 0);
    EXPECT_EQ(j["cc"]["ClampTargetRate"], true);
    EXPECT_EQ(j["ecn"]["Kmin"], "400000B"); // the peer's KB is 1000 B
    EXPECT_EQ(j["ecn"]["Kmax"], "1600000B");
    EXPECT_EQ(j["ecn"]["Pmax"], 0.2);
    EXPECT_EQ(j["ecn"]["MarkingPoint"], "Dequeue"); // the peer marks as a packet leaves
    EXPECT_EQ(j["loss_recovery"]["type"], "ns3::RdmaGoBackN");
    EXPECT_EQ(j["outputs"]["hpcc"], true);
    EXPECT_EQ(j["flows_file"]["time_origin"], "0s");
    // The reader accepts what the translator writes.
    const ExperimentConfig c = ExperimentConfig::LoadString(j.dump(), SRC + "/x/cfg.txt");
    EXPECT_EQ(c.GetFlows().size(), 12u);
    EXPECT_EQ(c.GetFlows()[0].start, Seconds(2) + MicroSeconds(1));
    EXPECT_EQ(c.GetFlows()[0].dport, 100);
}

TEST_F(HpccCompatTest, EcnThresholdsDifferByLinkRate)
{
    // As the peer's run.py writes them for 100G hosts and 400G fabric links: 4x at 400G.
    const nlohmann::ordered_json j =
        HpccConfigTranslator::Translate(Config("KMAX_MAP 2 100000000000 1600 400000000000 6400\n"
                                               "KMIN_MAP 2 100000000000 400 400000000000 1600\n"
                                               "PMAX_MAP 2 100000000000 0.2 400000000000 0.2\n"),
                                        "cfg.txt");
    EXPECT_EQ(j["ecn"]["Kmin"], "400000B"); // the lowest rate's set is the section's
    EXPECT_EQ(j["ecn"]["Kmax"], "1600000B");
    EXPECT_EQ(j["ecn"]["Pmax"], 0.2);
    ASSERT_TRUE(j["ecn"].contains("by_link_rate")) << j["ecn"].dump();
    EXPECT_EQ(j["ecn"]["by_link_rate"].size(), 1u);
    EXPECT_EQ(j["ecn"]["by_link_rate"]["400Gbps"]["Kmin"], "1600000B");
    EXPECT_EQ(j["ecn"]["by_link_rate"]["400Gbps"]["Kmax"], "6400000B");
    EXPECT_EQ(j["ecn"]["by_link_rate"]["400Gbps"]["Pmax"], 0.2);
    // The reader accepts it: the 400G switch ports get the 400G set.
    const ExperimentConfig c = ExperimentConfig::LoadString(j.dump(), SRC + "/x/cfg.txt");
    ASSERT_EQ(c.GetEcnByLinkRate().size(), 1u);
    EXPECT_EQ(c.GetEcnByLinkRate()[0].rate, DataRate("400Gbps"));
    EXPECT_EQ(c.EffectiveJson()["ecn"]["by_link_rate"]["400Gbps"]["Kmax"], "6400000B");

    // Equal sets at every rate: one section, no table (as before).
    const nlohmann::ordered_json same =
        HpccConfigTranslator::Translate(Config("KMAX_MAP 2 100000000000 1600 400000000000 1600\n"
                                               "KMIN_MAP 2 100000000000 400 400000000000 400\n"
                                               "PMAX_MAP 2 100000000000 0.2 400000000000 0.2\n"),
                                        "cfg.txt");
    EXPECT_FALSE(same["ecn"].contains("by_link_rate")) << same["ecn"].dump();
    // Only Pmax differs: the entry carries the whole set of that rate.
    const nlohmann::ordered_json pmax =
        HpccConfigTranslator::Translate(Config("KMAX_MAP 2 100000000000 1600 400000000000 1600\n"
                                               "KMIN_MAP 2 100000000000 400 400000000000 400\n"
                                               "PMAX_MAP 2 100000000000 0.2 400000000000 0.5\n"),
                                        "cfg.txt");
    EXPECT_EQ(pmax["ecn"]["by_link_rate"]["400Gbps"]["Pmax"], 0.5);
    EXPECT_EQ(pmax["ecn"]["by_link_rate"]["400Gbps"]["Kmin"], "400000B");
}

TEST_F(HpccCompatTest, UnknownAndRefusedKeysNameLineAndKey)
{
    // Line 4: the three lines of Config() come first.
    EXPECT_TRUE(
        Contains(TranslateError(Config("BOGUS_KEY 7\n")), "cfg.txt:4:1: BOGUS_KEY: unknown key"));
    // CC_MODE 3 (HPCC): the switches of the peer's HPCC that ns3::RdmaHpcc does not have.
    EXPECT_TRUE(Contains(TranslateError(Config("CC_MODE 3\nFAST_REACT 0\n")),
                         "cfg.txt:5:1: FAST_REACT: not supported: reacting once per RTT"));
    EXPECT_TRUE(Contains(TranslateError(Config("CC_MODE 3\nMULTI_RATE 1\n")),
                         "cfg.txt:5:1: MULTI_RATE: not supported"));
    EXPECT_TRUE(Contains(TranslateError(Config("CC_MODE 3\nSAMPLE_FEEDBACK 1\n")),
                         "cfg.txt:5:1: SAMPLE_FEEDBACK: not supported"));
    EXPECT_TRUE(Contains(TranslateError(Config("CC_MODE 3\nGLOBAL_T 0\n")),
                         "cfg.txt:5:1: GLOBAL_T: not supported: a T per host pair"));
    EXPECT_TRUE(Contains(TranslateError(Config("CC_MODE 3\nVAR_WIN 0\n")),
                         "cfg.txt:5:1: VAR_WIN: not supported"));
    EXPECT_TRUE(Contains(TranslateError(Config("CC_MODE 3\nHAS_WIN 0\n")),
                         "cfg.txt:5:1: HAS_WIN: not supported: HPCC without its window"));
    EXPECT_TRUE(Contains(TranslateError(Config("CC_MODE 3\nU_TARGET 3\n")),
                         "cfg.txt:5:10: U_TARGET: expected a number in [0.01, 2]"));
    EXPECT_TRUE(Contains(TranslateError(Config("CC_MODE 7\n")), "ns3::RdmaTimely"));
    EXPECT_TRUE(Contains(TranslateError(Config("CC_MODE 8\n")), "DCTCP"));
    EXPECT_TRUE(Contains(TranslateError(Config("CC_MODE 10\n")), "HPCC-PINT"));
    EXPECT_TRUE(Contains(TranslateError(Config("CC_MODE 2\n")), "cfg.txt:4:9: CC_MODE: unknown"));
    EXPECT_TRUE(Contains(TranslateError(Config("HAS_WIN 1\nGLOBAL_T 0\n")),
                         "cfg.txt:5:1: GLOBAL_T: not supported: a window per host pair"));
    EXPECT_TRUE(Contains(TranslateError(Config("QLEN_MON_START 3\nQLEN_MON_END 2\n")),
                         "cfg.txt:5:14: QLEN_MON_END: QLEN_MON_END 2 ns is before QLEN_MON_START"));
    EXPECT_TRUE(Contains(TranslateError(Config("LINK_DOWN 100 1 8\n")), "cfg.txt:4:1: LINK_DOWN"));
    EXPECT_TRUE(Contains(TranslateError(Config("L2_ACK_INTERVAL 4000\n")), "L2_ACK_INTERVAL"));
    EXPECT_TRUE(Contains(TranslateError(Config("RP_TIMER 300\nRP_TIMER 55\n")),
                         "cfg.txt:5:1: RP_TIMER: given again (first on line 4)"));
    EXPECT_TRUE(Contains(TranslateError(Config("RP_TIMER fast\n")),
                         "cfg.txt:4:10: RP_TIMER: expected a number"));
    EXPECT_TRUE(Contains(TranslateError(Config("LINK_DOWN 0 0\n")), "expected 3 values"));
    EXPECT_TRUE(Contains(TranslateError("FLOW_FILE f\n"), "missing TOPOLOGY_FILE"));
    EXPECT_TRUE(Contains(TranslateError("TOPOLOGY_FILE mix/topology.txt\nFLOW_FILE f\n"),
                         "cfg.txt:1:15: TOPOLOGY_FILE: cannot open"));
    EXPECT_TRUE(Contains(TranslateError("TOPOLOGY_FILE mix/topology.txt\nFLOW_FILE f\n"),
                         "cannot open \"mix/topology.txt\": tried "));
    EXPECT_TRUE(Contains(TranslateError("TOPOLOGY_FILE mix/topology.txt\nFLOW_FILE f\n"),
                         "mix/topology.txt (from this file's directory)"));
    // A rate of the topology missing from a map is refused (thresholds that differ by rate
    // translate: EcnThresholdsDifferByLinkRate).
    EXPECT_TRUE(Contains(TranslateError(Config("KMAX_MAP 1 100000000000 1600\n"
                                               "KMIN_MAP 1 100000000000 400\n"
                                               "PMAX_MAP 1 100000000000 0.2\n")),
                         "no entry for the topology's 400000000000 bit/s links"));
    // Through the file loader too: the error names the file.
    const std::string dir = OutputDir("unknown");
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/bad.txt") << Config("FOO 1\n");
    try
    {
        ExperimentConfig::LoadFile(dir + "/bad.txt");
        ADD_FAILURE() << "an unknown key was accepted";
    }
    catch (const ExperimentConfigError& e)
    {
        EXPECT_TRUE(Contains(e.what(), dir + "/bad.txt:4:1: FOO: unknown key")) << e.what();
    }
}

// The HPCC simulator's files run as they are: every problem of config.txt in one error,
// ENABLE_TRACE 1 a pcap of the nodes TRACE_FILE lists, QLEN_MON_* the queue monitor over that
// window, the keys with no effect named once, a path found from the file's directory when
// the working directory does not have it, flows after the stop time not started.
TEST_F(HpccCompatTest, EveryProblemOfTheFileIsReportedInOnePass)
{
    const std::string error =
        TranslateError(Config("BOGUS_KEY 7\nRP_TIMER fast\nCC_MODE 2\nLINK_DOWN 0 0\n"
                              "RP_TIMER 5\nlowercase 1\n"));
    EXPECT_TRUE(Contains(error, "cfg.txt:4:1: BOGUS_KEY: unknown key")) << error;
    EXPECT_TRUE(Contains(error, "cfg.txt:5:10: RP_TIMER: expected a number")) << error;
    EXPECT_TRUE(Contains(error, "cfg.txt:6:9: CC_MODE: unknown mode")) << error;
    EXPECT_TRUE(Contains(error, "cfg.txt:7:1: LINK_DOWN: expected 3 values")) << error;
    EXPECT_TRUE(Contains(error, "cfg.txt:8:1: RP_TIMER: given again (first on line 5)")) << error;
    EXPECT_TRUE(Contains(error, "cfg.txt:9:1: expected a line \"KEY value\"")) << error;
    EXPECT_TRUE(Contains(error, "cfg.txt: 6 problems")) << error;
    // Missing files and a malformed TOPOLOGY_FILE line: reported, nothing else breaks.
    const std::string missing =
        TranslateError("TOPOLOGY_FILE\nCC_MODE 3\nKMAX_MAP 1 1 1\nKMIN_MAP 1 1 1\n"
                       "PMAX_MAP 1 1 0.1\nENABLE_TRACE 1\nTRACE_FILE\n");
    EXPECT_TRUE(Contains(missing, "cfg.txt:1:1: TOPOLOGY_FILE: expected 1 value")) << missing;
    EXPECT_TRUE(Contains(missing, "missing FLOW_FILE")) << missing;
    EXPECT_TRUE(Contains(missing, "cfg.txt:7:1: TRACE_FILE: expected 1 value")) << missing;
}

TEST_F(HpccCompatTest, TraceQueueMonitorAndKeysWithNoEffect)
{
    const std::string dir = OutputDir("trace");
    std::filesystem::create_directories(dir);
    // The count, then node ids over lines; 99 is not a node (skipped, as the peer skips
    // it); what follows the announced ids is not read.
    std::ofstream(dir + "/trace.txt") << "4\n1 9\n99 1\n\nFirst line: tracing node #\n";
    std::vector<std::string> warnings;
    nlohmann::ordered_json j = HpccConfigTranslator::Translate(
        Config("TRACE_FILE " + dir +
                   "/trace.txt\nTRACE_OUTPUT_FILE mix/mix.tr\n"
                   "QLEN_MON_FILE mix/qlen.txt\nQLEN_MON_START 2000000000\n"
                   "QLEN_MON_END 2000500000\nDATA_RATE 100Gbps\nLINK_DELAY 1us\n"
                   "SIMULATOR_STOP_TIME 2.01\n",
               "1"),
        "cfg.txt", warnings);
    EXPECT_EQ(j["pcap"]["hosts"], nlohmann::ordered_json::array({"h1"}));
    EXPECT_EQ(j["pcap"]["switches"], nlohmann::ordered_json::array({"s9"}));
    EXPECT_EQ(j["monitors"]["queue_interval"], "1us");
    EXPECT_EQ(j["monitors"]["queue_start"], "2s");
    EXPECT_EQ(j["monitors"]["queue_end"], "2000500us");
    auto count = [&warnings](const std::string& part)
    {
        uint32_t n = 0;
        for (const std::string& w : warnings)
        {
            for (std::size_t at = w.find(part); at != std::string::npos; at = w.find(part, at + 1))
            {
                ++n;
            }
        }
        return n;
    };
    EXPECT_EQ(count("(99), skipped"), 1u);
    EXPECT_EQ(count("the frames of nodes 1 9 (every port"), 1u);
    EXPECT_EQ(count("queues.csv in the output directory every 1us from 2s to 2000500us"), 1u);
    // Each key with no effect is named once, with its line.
    EXPECT_EQ(count("TRACE_OUTPUT_FILE (line 5)"), 1u);
    EXPECT_EQ(count("DATA_RATE (line 9), LINK_DELAY (line 10)"), 1u);
    EXPECT_EQ(count("no effect: TRACE_FILE"), 0u); // it is read

    // ENABLE_TRACE 0: TRACE_FILE has no effect and is not read.
    warnings.clear();
    j = HpccConfigTranslator::Translate(Config("TRACE_FILE mix/no-such-trace.txt\n"), "cfg.txt",
                                        warnings);
    EXPECT_FALSE(j.contains("pcap"));
    EXPECT_EQ(count("no effect: TRACE_FILE (line 4): the nodes to trace are read only with "
                    "ENABLE_TRACE 1"),
              1u);
    // ENABLE_TRACE 1 without TRACE_FILE: one line says nothing is traced.
    warnings.clear();
    j = HpccConfigTranslator::Translate(Config("", "1"), "cfg.txt", warnings);
    EXPECT_FALSE(j.contains("pcap"));
    EXPECT_EQ(count("cfg.txt:3: ENABLE_TRACE 1 without TRACE_FILE: nothing is traced"), 1u);
}

TEST_F(HpccCompatTest, PathsFromTheFilesDirectoryAndFlowsAfterTheStopTime)
{
    // The working directory (the build directory) has no mix/: the paths are found from the
    // configuration file's directory, and the warning says so.
    const std::string dir = OutputDir("paths");
    std::filesystem::create_directories(dir + "/mix");
    std::filesystem::copy_file(TOPOLOGY, dir + "/mix/topology.txt");
    std::ofstream(dir + "/mix/flow.txt") << "3\n1 0 3 100 20000 2.000001\n2 0 3 100 20000 2\n"
                                            "3 0 3 100 20000 2.5\n";
    std::ofstream(dir + "/config.txt")
        << "TOPOLOGY_FILE mix/topology.txt\nFLOW_FILE mix/flow.txt\nSIMULATOR_STOP_TIME 2.01\n";
    ASSERT_FALSE(std::filesystem::exists("mix/topology.txt"));
    const ExperimentConfig c = ExperimentConfig::LoadFile(dir + "/config.txt");
    EXPECT_EQ(c.GetTopology().hosts.size(), 8u);
    uint32_t fromFileDir = 0;
    uint32_t notStarted = 0;
    for (const std::string& w : c.GetWarnings())
    {
        fromFileDir += Contains(w, "read relative to this file's directory") ? 1 : 0;
        notStarted += Contains(w, "1 of the 3 flows of " + dir + "/mix/flow.txt (the first on " +
                                      dir + "/mix/flow.txt:4) starts at or after stop_time 2010ms")
                          ? 1
                          : 0;
    }
    EXPECT_EQ(fromFileDir, 2u); // TOPOLOGY_FILE and FLOW_FILE
    EXPECT_EQ(notStarted, 1u);
    // The flow at 2.5 s does not start: not in the run, counted in summary.json.
    ASSERT_EQ(c.GetFlows().size(), 2u);
    ASSERT_EQ(c.GetNotStartedFlows().size(), 1u);
    EXPECT_EQ(c.GetNotStartedFlows()[0].origin, dir + "/mix/flow.txt:4");
    const std::string out = OutputDir("paths-run");
    {
        ExperimentRunner runner(c, out);
        runner.Run();
    }
    const nlohmann::json summary = nlohmann::json::parse(ReadFile(out + "/summary.json"));
    EXPECT_EQ(summary["flows"], 2);
    EXPECT_EQ(summary["finished"], 2);
    EXPECT_EQ(summary["not_started"]["flows"], 1);
    EXPECT_EQ(summary["not_started"]["first"], dir + "/mix/flow.txt:4");
    // A JSON experiment keeps refusing such a flow unless it asks for "not_started".
    std::ofstream(dir + "/exp.json") << R"({"topology": {"type": "file", "path": "mix/topology.txt",
        "format": "hpcc"}, "stop_time": "10ms",
        "flows_file": {"path": "mix/flow.txt", "format": "hpcc", "time_origin": "2s"}})";
    try
    {
        ExperimentConfig::LoadFile(dir + "/exp.json");
        ADD_FAILURE() << "a flow after stop_time was accepted";
    }
    catch (const ExperimentConfigError& e)
    {
        EXPECT_TRUE(Contains(e.what(), "flow.txt:4: (root): the flow starts at 500ms")) << e.what();
    }
}

TEST_F(HpccCompatTest, HpccModeMapsToRdmaHpcc)
{
    const nlohmann::ordered_json j = HpccConfigTranslator::Translate(
        Config("PACKET_PAYLOAD_SIZE 1000\nCC_MODE 3\nU_TARGET 0.9\nMI_THRESH 3\n"
               "RATE_AI 40Mb/s\nRATE_HAI 40Mb/s\nMIN_RATE 1000Mb/s\nRP_TIMER 300\n"
               "EWMA_GAIN 0.00390625\nHAS_WIN 1\nVAR_WIN 1\nFAST_REACT 1\nGLOBAL_T 1\n"
               "MULTI_RATE 0\nSAMPLE_FEEDBACK 0\nINT_MULTI 4\n"),
        "cfg.txt");
    EXPECT_EQ(j["cc"]["type"], "ns3::RdmaHpcc");
    EXPECT_EQ(j["cc"]["TargetUtilization"], 0.9);
    EXPECT_EQ(j["cc"]["MaxStage"], 3);
    EXPECT_EQ(j["cc"]["AdditiveIncrease"], "40Mbps");
    EXPECT_EQ(j["cc"]["MinRate"], "1Gbps"); // the peer floors HPCC's rate at MIN_RATE
    // T: host - leaf - spine - leaf - host, 4 links of 1 us (8 us both ways) plus one
    // 1000-byte packet's serialization on the three links after the first: 400G, 400G,
    // 100G = 20 + 20 + 80 ns.
    EXPECT_EQ(Time(j["cc"]["BaseRtt"].get<std::string>()), NanoSeconds(8120));
    // The DCQCN keys set nothing under HPCC; the description says so.
    for (const char* dcqcn : {"RateAI", "RateHAI", "RateIncreaseTimer", "G"})
    {
        EXPECT_FALSE(j["cc"].contains(dcqcn)) << dcqcn;
    }
    const std::string description = j["description"];
    EXPECT_TRUE(Contains(description, "RP_TIMER (line 11)")) << description;
    EXPECT_TRUE(Contains(description, "INT_MULTI (line 19)")) << description;
    // The reader accepts what the translator writes.
    const ExperimentConfig c = ExperimentConfig::LoadString(j.dump(), SRC + "/x/cfg.txt");
    EXPECT_EQ(c.EffectiveJson()["cc"]["type"], "ns3::RdmaHpcc");
}

TEST_F(HpccCompatTest, ShippedHpccExampleRunsAndItsIdealFctCountsTheIntTrailer)
{
    // The peer's slowdown: FCT / (base RTT + bytes with headers / bottleneck rate); with HPCC
    // the headers include the INT trailer of each data packet (IntTrailer::SizeFor(5) = 42 B).
    for (const auto& [file, trailer] :
         {std::pair<const char*, uint32_t>{"hpcc-config-example-hpcc.txt", 42},
          {"hpcc-config-example.txt", 0}})
    {
        const std::string dir = OutputDir(std::string("ideal-") + file);
        const ExperimentConfig c = ExperimentConfig::LoadFile(SRC + "/configs/" + file);
        {
            ExperimentRunner runner(c, dir);
            runner.Run();
            EXPECT_EQ(runner.GetFinishedFlows(), c.GetFlows().size()) << file;
        }
        Simulator::Destroy();
        // A config.txt runs with the peer's framing: 48 bytes of headers per packet, as its
        // standalone FCT counts them (RdmaNic Framing HpccSim).
        const IdealFctCalculator ideal(c.GetTopology(), RdmaNic::HPCC_SIM_DATA_HEADER_BYTES);
        const std::vector<std::string> rows = Lines(ReadFile(dir + "/flows.csv"));
        ASSERT_EQ(rows.size(), c.GetFlows().size() + 1) << file;
        ASSERT_EQ(Fields(rows[0])[7], "ideal_fct_us");
        for (std::size_t i = 1; i < rows.size(); ++i)
        {
            const std::vector<std::string> f = Fields(rows[i]);
            const ExperimentFlow& flow = c.GetFlows().at(std::stoul(f[0]));
            const double expected =
                static_cast<double>(ideal.GetIdealFct(flow.src, flow.dst, flow.bytes, 1000, trailer)
                                        .GetPicoSeconds()) /
                1e6;
            EXPECT_NEAR(std::stod(f[7]), expected, 1e-6) << file << ": " << rows[i];
        }
        EXPECT_EQ(Lines(ReadFile(dir + "/fct.txt")).size(), c.GetFlows().size()) << file;
    }
}

TEST_F(HpccCompatTest, AckHighPrioMapsToTheAckClassAndMatchesTheHpccDcqcnProfile)
{
    // ACK_HIGH_PRIO 1 queues ACK/NAK in a never-paused NIC class (/nic/AckEgressClass 7) and
    // keeps their wire class (no AckDscp): the peer raises their priority at the hosts only.
    const auto high = HpccConfigTranslator::Translate(Config("ACK_HIGH_PRIO 1\n"), "cfg.txt");
    EXPECT_EQ(high["nic"]["AckEgressClass"], 7);
    EXPECT_FALSE(high["nic"].contains("AckDscp"));
    // ACK_HIGH_PRIO 0 sets nothing of the NIC's but the framing every translation sets.
    const auto low = HpccConfigTranslator::Translate(Config("ACK_HIGH_PRIO 0\n"), "cfg.txt");
    EXPECT_EQ(low["nic"], nlohmann::ordered_json({{"Framing", "HpccSim"}}));
    // The shipped example with ACK_HIGH_PRIO 1 (the peer's run.py setting) gives the DCQCN of
    // the hpcc-dcqcn NIC profile: one set of values, reachable from both front doors.
    const std::string path = SRC + "/configs/hpcc-config-example.txt";
    std::string text = ReadFile(path);
    const auto at = text.find("ACK_HIGH_PRIO 0");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 15, "ACK_HIGH_PRIO 1");
    const ExperimentConfig translated =
        ExperimentConfig::LoadString(HpccConfigTranslator::Translate(text, path).dump(), path);
    NicProfile::Overrides small;
    small.srnicServers = 64;
    small.duration = "50us";
    const ExperimentConfig profiled = NicProfile::Load(
        SRC + "/configs/fat-tree-fct.json", SRC + "/configs/nic-profiles/hpcc-dcqcn.json", small);
    const auto& t = translated.EffectiveJson();
    const auto& p = profiled.EffectiveJson();
    EXPECT_EQ(t["nic"]["AckEgressClass"], 7);
    EXPECT_EQ(p["nic"]["AckEgressClass"], 7);
    EXPECT_EQ(t["nic"]["AckDscp"], -1);
    EXPECT_EQ(p["nic"]["AckDscp"], -1);
    for (const char* key :
         {"type", "AlphaUpdatePeriod", "CnpInterval", "RateDecreaseInterval", "RateIncreaseTimer",
          "ByteCounter", "G", "FastRecoveryTimes", "RateAI", "RateHAI", "MinRate",
          "ClampTargetRate", "IncreaseStages", "AlphaUpdate", "CnpDelivery"})
    {
        EXPECT_EQ(t["cc"][key], p["cc"][key]) << key;
    }
}

TEST_F(HpccCompatTest, ConfigTxtTakesThePeersFramingAndRealFramingIsOneOptionAway)
{
    std::vector<std::string> warnings;
    const auto j = HpccConfigTranslator::Translate(Config(""), "cfg.txt", warnings);
    EXPECT_EQ(j["nic"]["Framing"], "HpccSim");
    // One line on the terminal says so, and how to get real RoCEv2 framing.
    uint32_t lines = 0;
    for (const std::string& w : warnings)
    {
        if (Contains(w, "Framing"))
        {
            ++lines;
            EXPECT_TRUE(Contains(w, "cfg.txt: HPCC-simulator framing (/nic/Framing HpccSim")) << w;
            EXPECT_TRUE(Contains(w, "real RoCEv2 framing: --ns3::RdmaNic::Framing=RoceV2")) << w;
        }
    }
    EXPECT_EQ(lines, 1u);
    const std::string path = SRC + "/configs/hpcc-config-example.txt";
    EXPECT_EQ(ExperimentConfig::LoadFile(path).EffectiveJson()["nic"]["Framing"], "HpccSim");
    // The command-line attribute wins over the translation, and config.json records it.
    const auto real = CommandLineAttributes::FromArguments({"--ns3::RdmaNic::Framing=RoceV2"});
    EXPECT_EQ(ExperimentConfig::LoadFile(path, real).EffectiveJson()["nic"]["Framing"], "RoceV2");
    // JSON experiments keep real framing.
    const ExperimentConfig bench =
        ExperimentConfig::LoadFile(SRC + "/configs/hpcc-bench-320-1ms.json");
    EXPECT_EQ(bench.EffectiveJson()["nic"]["Framing"], "RoceV2");
    TypeId::AttributeInformation info;
    ASSERT_TRUE(RdmaNic::GetTypeId().LookupAttributeByName("Framing", &info));
    EXPECT_EQ(info.initialValue->SerializeToString(info.checker), "RoceV2");
}

/** \return the FCT (ns) of each flow of \p dir/fct.txt, in file order. */
std::vector<uint64_t>
FctNs(const std::string& dir)
{
    std::vector<uint64_t> fct;
    for (const std::string& line : Lines(ReadFile(dir + "/fct.txt")))
    {
        fct.push_back(std::stoull(Words(line).at(6)));
    }
    return fct;
}

TEST_F(HpccCompatTest, LoneFlowsTakeThePeersFctsWithItsFraming)
{
    // Two flows of the peer's own runs that met (almost) no other traffic there, alone on the
    // benchmark's 320-host fat-tree with its config.txt: a 38-byte flow over six hops (2 x
    // 100G, 4 x 400G, 1 us each), 12,028 ns in bench/hpcc-sim-alistorage-*-fct.txt, and a
    // 4,397,308-byte flow within a ToR, 369,390 ns in bench/hpcc-sim-websearch-*-fct.txt.
    // Real RoCEv2 framing takes 4.6 % longer for the long one (86.88 ns a packet, not 83).
    const std::string dir = OutputDir("lone-flows");
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/flows.txt") << "2\n306 30 3 100 38 2.0\n54 57 3 100 4397308 2.0\n";
    // The benchmark's config.txt with its own two files named by absolute path.
    std::ofstream config(dir + "/config.txt");
    for (const std::string& line :
         Lines(ReadFile(SRC + "/bench/hpcc-sim-websearch-320h-load0.3-10ms-config.txt")))
    {
        const std::string key = Words(line).empty() ? "" : Words(line)[0];
        config << (key == "FLOW_FILE" ? "FLOW_FILE " + dir + "/flows.txt"
                   : key == "TOPOLOGY_FILE"
                       ? "TOPOLOGY_FILE " + SRC + "/bench/hpcc-fat-tree-320.txt"
                       : line)
               << "\n";
    }
    config.close();
    std::map<std::string, std::vector<uint64_t>> fct;
    for (const char* framing : {"HpccSim", "RoceV2"})
    {
        const std::string out = dir + "/" + framing;
        // The translation as it is, and with real framing (what config.json holds after
        // --ns3::RdmaNic::Framing=RoceV2).
        nlohmann::ordered_json j =
            HpccConfigTranslator::Translate(ReadFile(dir + "/config.txt"), dir + "/config.txt");
        j["nic"]["Framing"] = framing;
        const ExperimentConfig c = ExperimentConfig::LoadString(j.dump(), dir + "/config.txt");
        {
            ExperimentRunner runner(c, out);
            runner.Run();
            ASSERT_EQ(runner.GetFinishedFlows(), 2u) << framing;
        }
        Simulator::Destroy();
        fct[framing] = FctNs(out);
        ASSERT_EQ(fct[framing].size(), 2u) << framing;
    }
    EXPECT_NEAR(fct["HpccSim"][0], 12028.0, 5.0);
    EXPECT_NEAR(fct["HpccSim"][1], 369390.0, 369390 * 0.002);
    EXPECT_GT(fct["RoceV2"][1], 369390 * 1.04);
}

// HAS_WIN 1 under DCQCN (CC_MODE 1): as in the peer, every QP may have at most a
// bandwidth-delay product in flight, the topology's largest (GLOBAL_T 1), fixed (VAR_WIN 0)
// or scaled by the QP's rate over its line rate (VAR_WIN 1). The shipped DCQCN example
// (a 7-to-1 incast of 200 KB and five short flows) runs with it and every flow finishes.
TEST_F(HpccCompatTest, DcqcnWithHasWinCapsTheBytesInFlight)
{
    const std::string path = SRC + "/configs/hpcc-config-example.txt";
    const std::string dir = OutputDir("dcqcn-has-win");
    std::filesystem::create_directories(dir);
    std::map<std::string, std::vector<uint64_t>> fct;
    for (const char* window : {"HAS_WIN 0", "HAS_WIN 1\nVAR_WIN 0", "HAS_WIN 1\nVAR_WIN 1"})
    {
        std::string text;
        for (const std::string& line : Lines(ReadFile(path)))
        {
            const std::string key = Words(line).empty() ? "" : Words(line)[0];
            text += (key == "HAS_WIN" ? std::string(window) : key == "VAR_WIN" ? "" : line) + "\n";
        }
        std::vector<std::string> warnings;
        const nlohmann::ordered_json j = HpccConfigTranslator::Translate(text, path, warnings);
        const bool hasWin = Contains(window, "HAS_WIN 1");
        const bool varWin = Contains(window, "VAR_WIN 1");
        if (hasWin)
        {
            // T = 8,120 ns (HpccModeMapsToRdmaHpcc) x 100 Gb/s (the hosts' links) / 8.
            EXPECT_EQ(j["qp"]["InFlightCap"], 101500) << window;
            EXPECT_EQ(j["qp"].contains("InFlightCapFollowsRate"), varWin) << window;
            const std::string description = j["description"];
            EXPECT_TRUE(Contains(description, "HAS_WIN 1 under CC_MODE 1 -> /qp/InFlightCap "
                                              "101500 B"))
                << description;
        }
        else
        {
            EXPECT_FALSE(j["qp"].contains("InFlightCap"));
        }
        const ExperimentConfig c = ExperimentConfig::LoadString(j.dump(), path);
        EXPECT_EQ(c.EffectiveJson()["qp"]["InFlightCap"], hasWin ? 101500 : 0);
        EXPECT_EQ(c.EffectiveJson()["qp"]["InFlightCapFollowsRate"], varWin);
        const std::string out = dir + "/" + std::to_string(fct.size());
        {
            ExperimentRunner runner(c, out);
            runner.Run();
            EXPECT_EQ(runner.GetFinishedFlows(), c.GetFlows().size()) << window;
        }
        Simulator::Destroy();
        fct[window] = FctNs(out);
        ASSERT_EQ(fct[window].size(), c.GetFlows().size()) << window;
    }
    // Printed for the record (doc/dc-experiment.md quotes them).
    for (const auto& [window, f] : fct)
    {
        std::ostringstream line;
        for (uint64_t ns : f)
        {
            line << " " << ns;
        }
        std::string name = window;
        std::replace(name.begin(), name.end(), '\n', ' ');
        std::cout << name << ": FCTs (ns)" << line.str() << std::endl;
    }
}

TEST_F(HpccCompatTest, ShippedExampleRuns)
{
    const std::string dir = OutputDir("example");
    const ExperimentConfig c = ExperimentConfig::LoadFile(SRC + "/configs/hpcc-config-example.txt");
    EXPECT_TRUE(c.GetOutputs().hpcc);
    {
        ExperimentRunner runner(c, dir);
        runner.Run();
        EXPECT_EQ(runner.GetFinishedFlows(), c.GetFlows().size());
    }
    for (const char* file : {"flows.csv", "fct.txt", "pfc.txt", "summary.json", "config.json"})
    {
        EXPECT_TRUE(std::filesystem::exists(dir + "/" + file)) << file;
    }
    EXPECT_EQ(Lines(ReadFile(dir + "/fct.txt")).size(), c.GetFlows().size());
    // config.json is a JSON experiment that gives the same run.
    const ExperimentConfig again = ExperimentConfig::LoadFile(dir + "/config.json");
    EXPECT_EQ(again.GetFlows().size(), c.GetFlows().size());
    EXPECT_TRUE(again.GetOutputs().hpcc);
}

TEST_F(HpccCompatTest, BenchmarkConfigsCarryThePeersSettings)
{
    // The side-by-side benchmark's inputs are in bench/ (bench/README.md).
    for (const auto& [file, flows] :
         {std::pair<const char*, std::size_t>{"10ms", 6706}, {"1ms", 405}})
    {
        const ExperimentConfig c =
            ExperimentConfig::LoadFile(SRC + "/configs/hpcc-bench-320-" + file + ".json");
        EXPECT_EQ(c.GetFlows().size(), flows) << file;
        EXPECT_EQ(c.GetTopology().hosts.size(), 320u) << file;
        EXPECT_EQ(c.GetStopTime(), MilliSeconds(20)) << file;
        const nlohmann::ordered_json& j = c.EffectiveJson();
        EXPECT_EQ(j["qp"]["Mtu"], 1000) << file;
        EXPECT_EQ(j["ecn"]["Kmin"], "400000B") << file;
        EXPECT_EQ(j["ecn"]["Kmax"], "1600000B") << file;
        EXPECT_EQ(j["ecn"]["Pmax"], 0.2) << file;
        // The peer's run.py: 4x the thresholds on the 400G fabric ports (KMIN_MAP/KMAX_MAP).
        EXPECT_EQ(j["ecn"]["by_link_rate"]["400Gbps"]["Kmin"], "1600000B") << file;
        EXPECT_EQ(j["ecn"]["by_link_rate"]["400Gbps"]["Kmax"], "6400000B") << file;
        EXPECT_EQ(j["ecn"]["by_link_rate"]["400Gbps"]["Pmax"], 0.2) << file;
        EXPECT_EQ(j["ecn"]["by_link_rate"].size(), 1u) << file;
        EXPECT_EQ(j["buffer"]["BufferSize"], "32000000B") << file;
        EXPECT_EQ(j["cc"]["RateAI"], "20Mbps") << file;
        EXPECT_EQ(j["cc"]["RateHAI"], "200Mbps") << file;
        EXPECT_EQ(j["cc"]["RateIncreaseTimer"], "300us") << file;
        EXPECT_EQ(j["cc"]["FastRecoveryTimes"], 1) << file;
        EXPECT_EQ(j["cc"]["MinRate"], "1Gbps") << file;
    }
}

TEST_F(HpccCompatTest, BenchmarkHpccConfigsAreTheTranslationOfThePeersHpccSettings)
{
    // hpcc-bench-320-*-hpcc.json: the HPCC that the peer's run.py writes for 100 Gb/s hosts,
    // as a config.txt of ours would translate it on that topology (T included).
    const std::string bench = SRC + "/bench/";
    const nlohmann::ordered_json translated = HpccConfigTranslator::Translate(
        "TOPOLOGY_FILE " + bench + "hpcc-fat-tree-320.txt\nFLOW_FILE " + bench +
            "hpcc-websearch-320h-load0.3-1ms.txt\nPACKET_PAYLOAD_SIZE 1000\nCC_MODE 3\n"
            "U_TARGET 0.95\nMI_THRESH 0\nRATE_AI 40Mb/s\nRATE_HAI 40Mb/s\nMIN_RATE 1000Mb/s\n"
            "HAS_WIN 1\nVAR_WIN 1\nFAST_REACT 1\nGLOBAL_T 1\nMULTI_RATE 0\nSAMPLE_FEEDBACK 0\n"
            "ACK_HIGH_PRIO 0\n",
        "cfg.txt");
    for (const char* file : {"1ms", "10ms"})
    {
        const ExperimentConfig c =
            ExperimentConfig::LoadFile(SRC + "/configs/hpcc-bench-320-" + file + "-hpcc.json");
        const nlohmann::ordered_json& cc = c.EffectiveJson()["cc"];
        for (const auto& [key, value] : translated["cc"].items())
        {
            EXPECT_EQ(cc[key], value) << file << ": " << key;
        }
    }
    EXPECT_EQ(Time(translated["cc"]["BaseRtt"].get<std::string>()), NanoSeconds(12160));
}

TEST_F(HpccCompatTest, HpccOutputColumnsMatchOurFiles)
{
    // A 7-to-1 incast into a 1 MB buffer (PFC pauses) plus short flows, read from an HPCC flow
    // file with its time origin at 2 s, on the HPCC-format 8-host leaf-spine.
    const std::string dir = OutputDir("run");
    const ExperimentConfig c = ExperimentConfig::LoadString(
        R"({"progress": false, "stop_time": "20ms",
            "topology": {"type": "file", "path": ")" +
            TOPOLOGY + R"(", "format": "hpcc"},
            "flows_file": {"path": ")" +
            FLOWS + R"(", "format": "hpcc",
                           "time_origin": "2s"},
            "buffer": {"BufferSize": "1MB"},
            "outputs": {"hpcc": true}})",
        "hpcc-outputs.json");
    {
        ExperimentRunner runner(c, dir);
        runner.Run();
    }
    const std::vector<std::string> flows = Lines(ReadFile(dir + "/flows.csv"));
    const std::vector<std::string> fct = Lines(ReadFile(dir + "/fct.txt"));
    ASSERT_EQ(fct.size(), c.GetFlows().size());
    ASSERT_EQ(flows.size(), c.GetFlows().size() + 1);
    std::map<uint32_t, uint32_t> nextPort; // per source host
    std::map<uint32_t, uint32_t> sportOfFlow;
    for (const ExperimentFlow& f : c.GetFlows())
    {
        sportOfFlow[f.id] = 10000 + nextPort[f.src]++;
    }
    double lastFinish = 0;
    std::vector<bool> seen(c.GetFlows().size(), false);
    for (const std::string& line : fct)
    {
        const std::vector<std::string> w = Words(line);
        ASSERT_EQ(w.size(), 8u) << line;
        ASSERT_EQ(w[0].size(), 8u) << line;
        const uint32_t sip = std::stoul(w[0], nullptr, 16);
        const uint32_t dip = std::stoul(w[1], nullptr, 16);
        EXPECT_EQ(sip >> 24, 0x0bu);
        EXPECT_EQ(sip & 0xff, 1u);
        // Hosts of this topology are HPCC ids 0..7 = host indices 0..7.
        const uint32_t src = (sip >> 8) & 0xffff;
        const uint32_t dst = (dip >> 8) & 0xffff;
        // Find the flow: src, dst and sport identify it.
        int id = -1;
        for (const ExperimentFlow& f : c.GetFlows())
        {
            if (f.src == src && f.dst == dst && sportOfFlow[f.id] == std::stoul(w[2]))
            {
                id = static_cast<int>(f.id);
            }
        }
        ASSERT_GE(id, 0) << line;
        ASSERT_FALSE(seen[id]) << line;
        seen[id] = true;
        const ExperimentFlow& f = c.GetFlows()[id];
        EXPECT_EQ(w[3], "100"); // the flow file's dport
        EXPECT_EQ(std::stoull(w[4]), f.bytes);
        const std::vector<std::string> row = Fields(flows[id + 1]);
        // start_time on the file's clock: time_origin + start, ns.
        EXPECT_EQ(std::stoll(w[5]), 2000000000LL + f.start.GetNanoSeconds());
        EXPECT_NEAR(std::stod(w[6]), std::stod(row[6]) * 1000, 1.0) << line; // fct_us
        EXPECT_NEAR(std::stod(w[7]), std::stod(row[7]) * 1000, 1.0) << line; // ideal_fct_us
        const double finish = std::stod(row[5]);
        EXPECT_GE(finish, lastFinish) << "fct.txt is in order of completion";
        lastFinish = finish;
    }
    // pfc.txt: one line per PFC frame (class) received, as many XOFF as pfc.csv counts.
    std::map<std::pair<std::string, std::string>, uint64_t> xoffCsv;
    const std::vector<std::string> pfcCsv = Lines(ReadFile(dir + "/pfc.csv"));
    ASSERT_EQ(pfcCsv[0], "node,port,class,xoff_sent,xon_sent,xoff_received,paused_us");
    uint64_t xoffTotal = 0;
    for (std::size_t i = 1; i < pfcCsv.size(); ++i)
    {
        const std::vector<std::string> row = Fields(pfcCsv[i]);
        if (std::stoull(row[5]) > 0)
        {
            xoffCsv[{row[0], row[1]}] += std::stoull(row[5]);
            xoffTotal += std::stoull(row[5]);
        }
    }
    ASSERT_GT(xoffTotal, 0u) << "the scenario must pause";
    std::map<std::pair<std::string, std::string>, uint64_t> xoffTxt;
    int64_t lastTime = 0;
    for (const std::string& line : Lines(ReadFile(dir + "/pfc.txt")))
    {
        const std::vector<std::string> w = Words(line);
        ASSERT_EQ(w.size(), 5u) << line;
        const int64_t time = std::stoll(w[0]);
        EXPECT_GE(time, std::max<int64_t>(lastTime, 2000000000LL)) << line;
        lastTime = time;
        const uint32_t node = std::stoul(w[1]);
        ASSERT_LT(node, 12u);
        EXPECT_EQ(w[2], node >= 8 ? "1" : "0") << line; // ids 8..11 are the switches
        const uint32_t ifIndex = std::stoul(w[3]);
        ASSERT_GE(ifIndex, 1u);
        ASSERT_TRUE(w[4] == "0" || w[4] == "1") << line;
        if (w[4] == "1")
        {
            xoffTxt[{(node >= 8 ? "s" : "h") + w[1], std::to_string(ifIndex - 1)}]++;
        }
    }
    EXPECT_EQ(xoffTxt, xoffCsv);
    const std::string readme = ReadFile(dir + "/README");
    EXPECT_TRUE(Contains(readme, "fct.txt: ")) << readme;
    EXPECT_TRUE(Contains(readme, "columns (no header row): sip dip sport dport size start_time "
                                 "fct standalone_fct"));
    EXPECT_TRUE(Contains(readme, "columns (no header row): time node_id node_type if_index type"));
}

} // namespace
} // namespace ns3
