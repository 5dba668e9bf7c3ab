// A run's optional and structural outputs: pcap captures chosen in the experiment file
// (named by node and port, nanosecond timestamps, read by tshark), ports.csv, the PFC event
// timeline pfc_events.csv, and a used output directory cleared of the previous run's files.
#include "output-file-reader.h"

#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/output-directory.h"
#include "ns3/simulator.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>
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

/** A 4 -> 1 incast into a small buffer: PFC pauses the senders' links. */
const char* INCAST = R"({"progress": false, "stop_time": "5ms",
    "topology": {"type": "incast", "senders": 4},
    "buffer": {"BufferSize": "600KB"},
    "flow_sets": [{"type": "incast", "dst": "h0", "bytes": 200000}])";

class RunOutputsTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    static void RunInto(const std::string& text, const std::string& dir)
    {
        const ExperimentConfig config = ExperimentConfig::LoadString(text, "outputs.json");
        {
            ExperimentRunner runner(config, dir); // holds a reference to config
            runner.Run();
        }
        Simulator::Destroy();
    }

    /** \return stdout of \p command, one string per line. */
    static std::vector<std::string> Command(const std::string& command)
    {
        std::vector<std::string> lines;
        FILE* pipe = popen((command + " 2>/dev/null").c_str(), "r");
        if (!pipe)
        {
            return lines;
        }
        char buf[4096];
        while (fgets(buf, sizeof(buf), pipe))
        {
            std::string line(buf);
            while (!line.empty() && line.back() == '\n')
            {
                line.pop_back();
            }
            lines.push_back(line);
        }
        pclose(pipe);
        return lines;
    }

    static std::string Error(const std::string& text)
    {
        try
        {
            ExperimentConfig::LoadString(text, "bad.json");
        }
        catch (const ExperimentConfigError& e)
        {
            return e.GetPointer() + ": " + e.GetReason();
        }
        ADD_FAILURE() << "no error for " << text;
        return "";
    }
};

TEST_F(RunOutputsTest, PcapFilesAreNamedByNodeAndPortWithNanosecondTimestamps)
{
    const std::string dir = OutputDir("pcap");
    RunInto(std::string(INCAST) +
                R"(, "pcap": {"hosts": ["h1..h2"], "switches": ["s0"], "ports": [0, 1]}})",
            dir);
    std::set<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(dir + "/pcap"))
    {
        files.insert(e.path().filename().string());
    }
    // h1 and h2 have one port (0); the switch's ports 0 and 1 reach h0 and h1.
    EXPECT_EQ(files, (std::set<std::string>{"h1-0.pcap", "h2-0.pcap", "s0-0.pcap", "s0-1.pcap"}));
    const std::string bytes = ReadFile(dir + "/pcap/h1-0.pcap");
    ASSERT_GE(bytes.size(), 24u);
    EXPECT_EQ(bytes.substr(0, 4), std::string("\x4d\x3c\xb2\xa1", 4))
        << "nanosecond pcap magic 0xa1b23c4d (little-endian)";

    // The sender's frames are a few tens of ns apart at 100 Gb/s: with microsecond
    // timestamps many would share one; in nanoseconds nearly all are distinct.
    const auto times =
        Command("tshark -n -r " + dir + "/pcap/h1-0.pcap -T fields -e frame.time_epoch -c 200");
    ASSERT_GE(times.size(), 100u);
    const std::set<std::string> distinct(times.begin(), times.end());
    EXPECT_GT(distinct.size(), times.size() * 9 / 10);
    bool subMicrosecond = false;
    for (const std::string& t : times)
    {
        const auto dot = t.find('.');
        ASSERT_NE(dot, std::string::npos) << t;
        subMicrosecond = subMicrosecond || t.substr(dot + 7, 3) != "000";
    }
    EXPECT_TRUE(subMicrosecond) << "tshark shows nanosecond digits";
    // RoCEv2 data decodes from the capture, and PFC frames appear at the switch.
    EXPECT_FALSE(Command("tshark -n -r " + dir + "/pcap/h1-0.pcap -Y infiniband.bth").empty());
    EXPECT_FALSE(Command("tshark -n -r " + dir + "/pcap/s0-1.pcap -Y macc.opcode==0x0101").empty());
    const auto config = nlohmann::json::parse(ReadFile(dir + "/config.json"));
    EXPECT_EQ(config["pcap"]["hosts"], nlohmann::json({"h1", "h2"}));
    EXPECT_EQ(config["pcap"]["ports"], nlohmann::json({0, 1}));
    EXPECT_NE(ReadFile(dir + "/README").find("pcap/<node>-<port>.pcap: "), std::string::npos);
}

TEST_F(RunOutputsTest, PortsCsvMapsEachPortToItsNeighbour)
{
    const std::string dir = OutputDir("ports");
    RunInto(std::string(INCAST) + "}", dir);
    const auto lines = Lines(ReadFile(dir + "/ports.csv"));
    ASSERT_EQ(lines.size(), 1u + 2 * 5);
    EXPECT_EQ(lines[0], "node,port,peer_node,peer_port,rate_bps,delay_ns");
    EXPECT_EQ(lines[1], "h0,0,s0,0,100000000000,1000.000");
    EXPECT_EQ(lines[6], "s0,0,h0,0,100000000000,1000.000");
    EXPECT_EQ(lines[10], "s0,4,h4,0,100000000000,1000.000");
}

TEST_F(RunOutputsTest, PfcEventsListEachFrameSentInTimeOrder)
{
    const std::string dir = OutputDir("pfc-events");
    RunInto(std::string(INCAST) + R"(, "outputs": {"pfc_events": true}})", dir);
    const auto lines = Lines(ReadFile(dir + "/pfc_events.csv"));
    ASSERT_GT(lines.size(), 2u);
    EXPECT_EQ(lines[0], "time_ns,node,port,class,event,quanta");
    const auto summary = nlohmann::json::parse(ReadFile(dir + "/summary.json"));
    uint64_t xoff = 0;
    uint64_t xon = 0;
    double last = 0;
    for (std::size_t i = 1; i < lines.size(); ++i)
    {
        const auto f = Fields(lines[i]);
        ASSERT_EQ(f.size(), 6u) << lines[i];
        const double t = std::stod(f[0]);
        EXPECT_GE(t, last) << lines[i];
        last = t;
        EXPECT_EQ(f[0].size() - f[0].find('.'), 4u) << "three decimals: " << lines[i];
        (f[4] == "XOFF" ? xoff : xon)++;
        EXPECT_EQ(f[4] == "XOFF", f[5] != "0") << lines[i];
    }
    EXPECT_EQ(xoff, summary["pfc"]["xoff_sent"].get<uint64_t>());
    EXPECT_GT(xon, 0u);
    EXPECT_EQ(nlohmann::json::parse(ReadFile(dir + "/config.json"))["outputs"]["pfc_events"], true);
}

TEST_F(RunOutputsTest, RerunClearsThePreviousRunsFilesOnly)
{
    const std::string dir = OutputDir("rerun");
    RunInto(std::string(INCAST) + R"(, "outputs": {"pfc_events": true},
                                       "pcap": {"hosts": ["h1"]}})",
            dir);
    ASSERT_TRUE(std::filesystem::exists(dir + "/pfc_events.csv"));
    std::ofstream(dir + "/notes.txt") << "mine\n";
    RunInto(std::string(INCAST) + "}", dir);
    EXPECT_FALSE(std::filesystem::exists(dir + "/pfc_events.csv")) << "stale output kept";
    EXPECT_FALSE(std::filesystem::exists(dir + "/pcap/h1-0.pcap")) << "stale capture kept";
    EXPECT_TRUE(std::filesystem::exists(dir + "/notes.txt")) << "a file no run wrote removed";
    EXPECT_TRUE(std::filesystem::exists(dir + "/flows.csv"));
    EXPECT_EQ(ReadFile(dir + "/README").find("pfc_events.csv"), std::string::npos);
}

TEST_F(RunOutputsTest, ClearingRemovesOnlyListedFilesInsideTheDirectory)
{
    namespace fs = std::filesystem;
    const fs::path dir = OutputDir("clear");
    fs::create_directories(dir / "pcap");
    const fs::path outside = dir.parent_path() / "outside.txt";
    for (const fs::path& f :
         {dir / "a.csv", dir / "input.json", dir / "log.txt", dir / "pcap" / "h0-0.pcap",
          dir / "pcap" / "h9-0.pcap", dir / "pcap" / "notes.md", outside})
    {
        std::ofstream(f) << "x\n";
    }
    std::ofstream(dir / "README")
        << OutputDirectory::README_FIRST_WORDS << " (file formats: ...).\nconfiguration: x\n"
        << "\nFiles:\na.csv: a file\n    columns: a\n../outside.txt: not ours\n"
        << "input.json: the edited configuration\npcap/<node>-<port>.pcap: captures\n"
        << "    files: h0-0.pcap ../outside.txt h1-0.pcap\n";
    const OutputDirectory::Plan plan =
        OutputDirectory::Inspect(dir.string(), (dir / "input.json").string());
    EXPECT_TRUE(plan.exists);
    EXPECT_TRUE(plan.previousRun);
    EXPECT_EQ(plan.remove.size(), 3u);
    EXPECT_TRUE(fs::exists(dir / "a.csv")) << "Inspect changes nothing";
    EXPECT_EQ(OutputDirectory::Prepare(dir.string(), (dir / "input.json").string()), 3u);
    EXPECT_FALSE(fs::exists(dir / "a.csv"));
    EXPECT_FALSE(fs::exists(dir / "pcap" / "h0-0.pcap"));
    EXPECT_TRUE(fs::exists(dir / "pcap" / "h9-0.pcap")) << "a capture the README does not list";
    EXPECT_TRUE(fs::exists(dir / "pcap" / "notes.md"));
    EXPECT_TRUE(fs::exists(dir / "input.json")) << "the configuration being run";
    EXPECT_TRUE(fs::exists(dir / "log.txt")) << "not listed";
    EXPECT_TRUE(fs::exists(outside)) << "outside the directory";
    // The README left until the run writes its own: the directory stays a run's.
    EXPECT_EQ(ReadFile((dir / "README").string()).rfind(OutputDirectory::README_FIRST_WORDS, 0),
              0u);
    EXPECT_EQ(OutputDirectory::Prepare(dir.string(), ""), 1u) << "the README only";
    fs::remove(outside);
}

TEST_F(RunOutputsTest, ClearingNeverFollowsALinkedFolder)
{
    // A pcap/ folder that is a link to the user's captures lost every
    // .pcap there when the directory was reused.
    namespace fs = std::filesystem;
    const fs::path dir = OutputDir("linked");
    const fs::path captures = dir.parent_path() / "users-captures";
    fs::remove_all(captures);
    fs::create_directories(captures);
    fs::create_directories(dir);
    for (const char* name : {"h0-0.pcap", "trace.pcap"})
    {
        std::ofstream(captures / name) << "mine\n";
    }
    std::ofstream(captures / "flows.csv") << "mine\n";
    fs::create_directory_symlink(captures, dir / "pcap");
    fs::create_symlink(captures / "flows.csv", dir / "flows.csv");
    std::ofstream(dir / "README") << OutputDirectory::README_FIRST_WORDS << ".\n\nFiles:\n"
                                  << "flows.csv: flows\npcap/<node>-<port>.pcap: captures\n"
                                  << "    files: h0-0.pcap\npcap/h0-0.pcap: named directly\n";
    EXPECT_EQ(OutputDirectory::Prepare(dir.string(), ""), 2u) << "the flows.csv link, README";
    EXPECT_TRUE(fs::exists(captures / "h0-0.pcap")) << "removed through the pcap link";
    EXPECT_TRUE(fs::exists(captures / "trace.pcap"));
    EXPECT_TRUE(fs::exists(captures / "flows.csv")) << "removed what a link points to";
    EXPECT_FALSE(fs::is_symlink(dir / "flows.csv")) << "the link itself goes";
    EXPECT_TRUE(fs::is_symlink(dir / "pcap"));
    // A run that captures does not write through the link either.
    try
    {
        RunInto(std::string(INCAST) + R"(, "pcap": {"hosts": ["h1"]}})", dir.string());
        FAIL() << "captures written through a link";
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_NE(std::string(e.what()).find("pcap: a symbolic link"), std::string::npos)
            << e.what();
    }
    Simulator::Destroy();
    EXPECT_FALSE(fs::exists(captures / "h1-0.pcap"));
    fs::remove_all(captures);
}

TEST_F(RunOutputsTest, AFolderThatIsNoRunsIsRefused)
{
    // --out into the user's own folder once replaced its README,
    // config.json and flows.csv.
    namespace fs = std::filesystem;
    const fs::path dir = OutputDir("users");
    fs::create_directories(dir);
    std::ofstream(dir / "README") << "my own notes\nFiles:\nlog.txt: x\n";
    std::ofstream(dir / "config.json") << "{}\n";
    std::ofstream(dir / "exp.json") << "{}\n";
    try
    {
        OutputDirectory::Prepare(dir.string(), (dir / "exp.json").string());
        FAIL() << "a folder with the user's files was used";
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  dir.string() + ": output directory: not a previous run's (no roce-lab "
                                 "README) and not empty (README, config.json): its files are "
                                 "not replaced; give another --out, or empty it");
    }
    EXPECT_THROW(RunInto(std::string(INCAST) + "}", dir.string()), std::runtime_error);
    Simulator::Destroy();
    EXPECT_EQ(ReadFile((dir / "README").string()), "my own notes\nFiles:\nlog.txt: x\n");
    EXPECT_EQ(ReadFile((dir / "config.json").string()), "{}\n");
    EXPECT_FALSE(fs::exists(dir / "flows.csv"));
    // The configuration being run alone, or nothing: the folder is used.
    fs::remove(dir / "README");
    fs::remove(dir / "config.json");
    EXPECT_EQ(OutputDirectory::Prepare(dir.string(), (dir / "exp.json").string()), 0u);
    EXPECT_TRUE(fs::exists(dir / "exp.json"));
    // Not a directory.
    EXPECT_THROW(OutputDirectory::Prepare((dir / "exp.json").string(), ""), std::runtime_error);
}

TEST_F(RunOutputsTest, BadPcapSectionsNameTheField)
{
    const std::string base = std::string(INCAST) + R"(, "pcap": )";
    EXPECT_EQ(Error(base + R"({"hosts": ["h9"]}})").substr(0, 16), "/pcap/hosts/0: n");
    EXPECT_NE(Error(base + R"({"hosts": ["h3..h1"]}})").find("/pcap/hosts/0: range"),
              std::string::npos);
    EXPECT_NE(Error(base + R"({"switches": ["spine"]}})").find("nor a switch role"),
              std::string::npos);
    EXPECT_NE(Error(base + R"({"ports": [-1]}})").find("/pcap/ports/0: expected a port"),
              std::string::npos);
    EXPECT_NE(Error(base + R"({"host": "all"}})").find("/pcap/host"), std::string::npos);
}

} // namespace
} // namespace ns3
