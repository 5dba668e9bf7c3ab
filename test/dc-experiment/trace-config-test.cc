// Tests of the experiment file's "topology": {"type": "file"}, "flows_file" and
// "workload" sections: HPCC topology and flow formats, our CSV trace, paths
// relative to the JSON file, errors naming file:line or the JSON pointer, and
// a short Poisson run that finishes and is byte-identical when repeated.
#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/hpcc-topology-reader.h"
#include "ns3/simulator.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>

namespace ns3
{
namespace
{

const std::string SRC = ROCE_LAB_SOURCE_DIR;
const std::string OUT_BASE = std::string(ROCE_LAB_BINARY_DIR) + "/test-output/trace-config/";

class TraceConfigTest : public ::testing::Test
{
  protected:
    /** Each test writes under its own directory: ctest -j runs them at the same time. */
    void SetUp() override
    {
        OUT = OUT_BASE + ::testing::UnitTest::GetInstance()->current_test_info()->name() + "/";
        std::filesystem::create_directories(OUT);
    }

    void TearDown() override { Simulator::Destroy(); }

    void Write(const std::string& name, const std::string& text)
    {
        std::ofstream(OUT + name, std::ios::binary) << text;
    }

    static std::string Slurp(const std::string& path)
    {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream s;
        s << in.rdbuf();
        return s.str();
    }

    /** Load \p json written to OUT/exp.json; return the error message or "". */
    std::string Error(const std::string& json)
    {
        Write("exp.json", json);
        try
        {
            ExperimentConfig::LoadFile(OUT + "exp.json");
        }
        catch (const ExperimentConfigError& e)
        {
            return e.what();
        }
        return "";
    }

    static bool Contains(const std::string& s, const std::string& part)
    {
        return s.find(part) != std::string::npos;
    }

    std::string OUT; //!< this test's output directory
};

TEST_F(TraceConfigTest, HpccTopologyFile)
{
    const std::string text = Slurp(SRC + "/topologies/hpcc-leaf-spine-8.txt");
    const ExperimentTopology t = HpccTopologyReader::Read(text, "t.txt");
    const std::vector<int64_t>& hostOf = t.hpccHostOfNode;
    EXPECT_EQ(t.hosts.size(), 8u);
    EXPECT_EQ(t.switches.size(), 4u);
    EXPECT_EQ(t.links.size(), 12u);
    EXPECT_EQ(t.hosts[3], "h3");
    EXPECT_EQ(t.switches[0], "s8");
    EXPECT_EQ(hostOf[9], -1);
    EXPECT_EQ(t.links[11].delay, MicroSeconds(1)); // "0.001ms"
    EXPECT_EQ(t.links[11].rate, DataRate("400Gbps"));

    auto error = [](const std::string& text) -> std::string
    {
        try
        {
            HpccTopologyReader::Read(text, "t.txt");
        }
        catch (const ExperimentConfigError& e)
        {
            return e.what();
        }
        return "";
    };
    EXPECT_TRUE(Contains(error("3 1\n"), "t.txt:1:1: expected \"<nodes> <switches> <links>\""));
    EXPECT_TRUE(
        Contains(error("3 1 2\n2\n0 2 100Gbps 1us 0\n1 2 100Gbs 1us 0\n"), "t.txt:4:5: rate:"));
    EXPECT_TRUE(
        Contains(error("3 1 2\n2\n0 2 100Gbps 1us 0\n1 2 100Gbps 1xs 0\n"), "t.txt:4:13: delay:"));
    EXPECT_TRUE(Contains(error("3 1 2\n2\n0 2 100Gbps 1us 0\n1 2 100Gbps 1us 0.01\n"),
                         "t.txt:4:17: error_rate: only 0"));
    EXPECT_TRUE(Contains(error("3 1 2\n2\n0 2 100Gbps 1us 0\n0 1 100Gbps 1us 0\n"),
                         "t.txt:4:1: hosts 0 and 1 are linked directly"));
    EXPECT_TRUE(Contains(error("3 1 2\n2\n0 2 100Gbps 1us 0\n"), "t.txt:4:1: the file ends"));
    EXPECT_TRUE(Contains(error("4 1 2\n3\n0 3 100Gbps 1us 0\n1 3 100Gbps 1us 0\n"),
                         "node 2 is not connected"));
    EXPECT_TRUE(Contains(error("3 1 2\n2\n0 2 100Gbps 1us 0\n0 2 100Gbps 1us 0\n"),
                         "t.txt:4:1: host 0 already has a link (line 3)"));
}

TEST_F(TraceConfigTest, TopologyFileFormatsAndErrors)
{
    // roce-lab format: a JSON topology object; the path is relative to exp.json.
    std::filesystem::copy_file(SRC + "/topologies/leaf-spine-8.json", OUT + "ls8.json",
                               std::filesystem::copy_options::overwrite_existing);
    Write("exp.json", R"({"topology": {"type": "file", "path": "ls8.json"},
                          "flows": [{"src": "h0", "dst": "h7", "bytes": 1000}]})");
    const ExperimentConfig c = ExperimentConfig::LoadFile(OUT + "exp.json");
    EXPECT_EQ(c.GetTopology().hosts.size(), 8u);
    EXPECT_EQ(c.EffectiveJson()["topology"]["path"], OUT + "ls8.json");

    EXPECT_TRUE(Contains(Error(R"({"topology": {"type": "file", "path": "nope.txt",
        "format": "hpcc"}, "flows": []})"),
                         "exp.json: /topology/path: cannot open the topology file"));
    EXPECT_TRUE(Contains(Error(R"({"topology": {"type": "file", "path": "ls8.json",
        "format": "ns2"}, "flows": []})"),
                         "/topology/format"));
    Write("bad-topo.json", R"({"type": "leaf_spine", "leaves": 0, "spines": 1,
        "hosts_per_leaf": 2})");
    EXPECT_TRUE(Contains(Error(R"({"topology": {"type": "file", "path": "bad-topo.json"},
        "flows": []})"),
                         "bad-topo.json: /leaves:"));
}

TEST_F(TraceConfigTest, FlowsFileCsvAndHpcc)
{
    Write("flows.csv", "id,src,dst,bytes,start,priority,verb\n0,1,2,1000,1us,3,write\n"
                       "1,2,0,5000,2.5us,3,read\n");
    Write("exp.json", R"({"topology": {"type": "file", "path": ")" + SRC +
                          R"(/topologies/hpcc-leaf-spine-8.txt", "format": "hpcc"},
            "flows": [{"src": 0, "dst": 1, "bytes": 10}],
            "flows_file": {"path": "flows.csv"}})");
    const ExperimentConfig c = ExperimentConfig::LoadFile(OUT + "exp.json");
    ASSERT_EQ(c.GetFlows().size(), 3u);
    EXPECT_EQ(c.GetFlows()[2].id, 2u);
    EXPECT_EQ(c.GetFlows()[2].start, NanoSeconds(2500));
    EXPECT_EQ(c.GetFlows()[2].verb, RdmaVerb::Read);

    // HPCC flows on the HPCC topology: node ids 4 and 7 are hosts h4 and h7.
    Write("flows.txt", "1\n4 7 3 100 20000 2.000001\n");
    Write("exp.json", R"({"topology": {"type": "file", "path": ")" + SRC +
                          R"(/topologies/hpcc-leaf-spine-8.txt", "format": "hpcc"},
            "flows_file": {"path": "flows.txt", "format": "hpcc", "time_origin": "2s"}})");
    const ExperimentConfig h = ExperimentConfig::LoadFile(OUT + "exp.json");
    ASSERT_EQ(h.GetFlows().size(), 1u);
    EXPECT_EQ(h.GetTopology().hosts[h.GetFlows()[0].dst], "h7");
    EXPECT_EQ(h.GetFlows()[0].start, MicroSeconds(1));

    // A node id that is a switch, and a start beyond stop_time, name file and line.
    Write("flows.txt", "1\n4 9 3 100 20000 2.000001\n");
    EXPECT_TRUE(Contains(Error(Slurp(OUT + "exp.json")), "flows.txt:2:3: field dst"));
    Write("flows.txt", "1\n4 7 3 100 20000 3.5\n");
    EXPECT_TRUE(Contains(Error(Slurp(OUT + "exp.json")), "flows.txt:2: (root): the flow starts"));
}

// As the HPCC simulator reads its files: the announced links and flows, and nothing after
// them (its example files end with more lines and notes on the format), with one warning
// per file; every bad flow line is reported in one pass.
TEST_F(TraceConfigTest, HpccFilesReadTheAnnouncedCountsAndIgnoreTheRest)
{
    Write("t.txt", "3 1 2\n0\n0 1 100Gbps 1us 0\n0 2 100Gbps 1us 0\n0 3 100Gbps 1us 0\n\n"
                   "First line: total node #, switch node #, link #\n");
    const ExperimentTopology t = HpccTopologyReader::Read(Slurp(OUT + "t.txt"), "t.txt");
    EXPECT_EQ(t.links.size(), 2u);
    ASSERT_EQ(t.warnings.size(), 1u);
    EXPECT_TRUE(Contains(t.warnings[0], "t.txt:5: 2 non-blank lines after the 2 links announced "
                                        "on line 1 (the last on line 4) ignored"));
    EXPECT_TRUE(HpccTopologyReader::Read("3 1 2\n0\n0 1 1Gbps 1us 0\n0 2 1Gbps 1us 0\n", "u.txt")
                    .warnings.empty());
    // The switch ids may span lines (that simulator reads words); too many is an error.
    const ExperimentTopology wrapped =
        HpccTopologyReader::Read("5 3 4\n0 1\n2\n0 3 1Gbps 1us 0\n1 4 1Gbps 1us 0\n"
                                 "0 2 1Gbps 1us 0\n1 2 1Gbps 1us 0\n",
                                 "w.txt");
    EXPECT_EQ(wrapped.switches.size(), 3u);
    EXPECT_EQ(wrapped.hosts, (std::vector<std::string>{"h3", "h4"}));
    try
    {
        HpccTopologyReader::Read("5 3 4\n0 1\n2 3\n", "w.txt");
        ADD_FAILURE() << "four switch ids accepted where three are announced";
    }
    catch (const ExperimentConfigError& e)
    {
        EXPECT_TRUE(Contains(e.what(), "w.txt:3:3: expected the 3 switch ids announced on line 1, "
                                       "got 4"))
            << e.what();
    }

    Write("flows.txt", "2\n1 2 3 100 1000 2\n2 1 3 100 1000 2\n1 2 3 100 1000 2\n\n"
                       "First line: # of flows\nsrc0 dst0 3 dst_port0 size0 start_time0\n");
    const std::string json = R"({"topology": {"type": "file", "path": "t.txt", "format": "hpcc"},
        "flows_file": {"path": "flows.txt", "format": "hpcc", "time_origin": "2s"}})";
    Write("exp.json", json);
    const ExperimentConfig c = ExperimentConfig::LoadFile(OUT + "exp.json");
    EXPECT_EQ(c.GetFlows().size(), 2u);
    std::vector<std::string> warnings;
    for (const std::string& w : c.GetWarnings())
    {
        if (Contains(w, "ignored"))
        {
            warnings.push_back(w);
        }
    }
    ASSERT_EQ(warnings.size(), 2u); // one per file
    EXPECT_TRUE(Contains(warnings[0], "t.txt:5: 2 non-blank lines after the 2 links"));
    EXPECT_TRUE(Contains(warnings[1], "flows.txt:4: 3 non-blank lines after the 2 flows "
                                      "announced on line 1 (the last on line 3) ignored"));

    // Every bad flow line at once, each with its line and field.
    Write("flows.txt", "3\n1 0 3 100 1000 2\n2 1 3 100 x 2\n1 2 9 100 1000 2\n");
    const std::string error = Error(json);
    EXPECT_TRUE(Contains(error, "flows.txt:2:3: field dst"));
    EXPECT_TRUE(Contains(error, "flows.txt:3:11: field bytes"));
    EXPECT_TRUE(Contains(error, "flows.txt:4:5: field priority"));
    EXPECT_TRUE(Contains(error, "3 problems"));
}

// HPCC node ids are mapped to hosts whatever the numbering: the HPCC simulator's example
// numbers its switch 0 before the hosts; switches may also sit in the middle of the ids or
// between the hosts. Every flow runs between the hosts its ids name; a switch id is refused.
TEST_F(TraceConfigTest, HpccNodeIdsNameTheirHostsWhereverTheSwitchesAreNumbered)
{
    struct Numbering
    {
        const char* name;
        const char* topology;
        std::vector<uint32_t> hostIds;
        uint32_t switchId;
    };
    const std::vector<Numbering> numberings = {
        {"switches-first",
         "5 1 4\n0\n0 1 100Gbps 1us 0\n0 2 100Gbps 1us 0\n0 3 100Gbps 1us 0\n"
         "0 4 100Gbps 1us 0\n",
         {1, 2, 3, 4},
         0},
        {"switches-in-the-middle",
         "6 2 5\n2 3\n0 2 100Gbps 1us 0\n1 2 100Gbps 1us 0\n2 3 100Gbps 1us 0\n"
         "3 4 100Gbps 1us 0\n3 5 100Gbps 1us 0\n",
         {0, 1, 4, 5},
         3},
        {"interleaved",
         "7 3 6\n1 3 5\n0 1 100Gbps 1us 0\n2 1 100Gbps 1us 0\n1 3 100Gbps 1us 0\n"
         "3 5 100Gbps 1us 0\n4 5 100Gbps 1us 0\n6 5 100Gbps 1us 0\n",
         {0, 2, 4, 6},
         5},
    };
    for (const Numbering& n : numberings)
    {
        SCOPED_TRACE(n.name);
        const std::string topo = std::string(n.name) + ".txt";
        Write(topo, n.topology);
        // A flow between every ordered pair of hosts, by HPCC node id.
        std::vector<std::pair<uint32_t, uint32_t>> pairs;
        for (uint32_t a : n.hostIds)
        {
            for (uint32_t b : n.hostIds)
            {
                if (a != b)
                {
                    pairs.emplace_back(a, b);
                }
            }
        }
        std::string flows = std::to_string(pairs.size()) + "\n";
        for (const auto& [a, b] : pairs)
        {
            flows += std::to_string(a) + " " + std::to_string(b) + " 3 100 1000 0.000001\n";
        }
        Write("flows.txt", flows);
        const std::string json = R"({"topology": {"type": "file", "path": ")" + topo +
                                 R"(", "format": "hpcc"},
            "flows_file": {"path": "flows.txt", "format": "hpcc"}})";
        Write("exp.json", json);
        const ExperimentConfig c = ExperimentConfig::LoadFile(OUT + "exp.json");
        ASSERT_EQ(c.GetFlows().size(), pairs.size());
        for (std::size_t i = 0; i < pairs.size(); ++i)
        {
            const ExperimentFlow& f = c.GetFlows()[i];
            EXPECT_EQ(c.GetTopology().hosts.at(f.src), "h" + std::to_string(pairs[i].first));
            EXPECT_EQ(c.GetTopology().hosts.at(f.dst), "h" + std::to_string(pairs[i].second));
        }
        // A switch's id is not a host, as src or as dst.
        Write("flows.txt", "1\n" + std::to_string(n.switchId) + " " + std::to_string(n.hostIds[0]) +
                               " 3 100 1000 0.000001\n");
        EXPECT_TRUE(Contains(Error(json), "flows.txt:2:1: field src: expected the node id of a "
                                          "host of the topology"));
        Write("flows.txt", "1\n" + std::to_string(n.hostIds[0]) + " " + std::to_string(n.switchId) +
                               " 3 100 1000 0.000001\n");
        EXPECT_TRUE(Contains(Error(json), "flows.txt:2:3: field dst"));
    }
}

TEST_F(TraceConfigTest, WorkloadErrorsNamePointers)
{
    const std::string topo = R"("topology": {"type": "incast", "senders": 3})";
    const std::string cdf = SRC + "/traces/fb-cachefollower-srnic.cdf";
    EXPECT_TRUE(Contains(Error("{" + topo + R"(, "workload": {"type": "poisson", "cdf": ")" + cdf +
                               R"(", "load": 1.5e9, "duration": "1us"}})"),
                         "/workload/load: expected a number in (0, 10]"));
    EXPECT_TRUE(Contains(Error("{" + topo + R"(, "workload": {"type": "poisson", "cdf": ")" + cdf +
                               R"(", "load": 0.5}})"),
                         "/workload/duration"));
    EXPECT_TRUE(Contains(Error("{" + topo + R"(, "workload": {"type": "poisson", "cdf": "x.cdf",
                               "load": 0.5, "duration": "1us"}})"),
                         "/workload/cdf: cannot open"));
    EXPECT_TRUE(Contains(Error("{" + topo + R"(, "stop_time": "1ms", "workload": {"type":
        "poisson", "cdf": ")" + cdf +
                               R"(", "load": 0.5, "duration": "2ms"}})"),
                         "/workload/duration: arrivals end at"));
    Write("bad.cdf", "0 0\n10 50\n5 100\n");
    EXPECT_TRUE(Contains(Error("{" + topo + R"(, "workload": {"type": "poisson", "cdf": "bad.cdf",
                               "load": 0.5, "duration": "1us"}})"),
                         "bad.cdf:3:1: size 5 is smaller"));
}

TEST_F(TraceConfigTest, HpccDistributionsLoadAsWorkloads)
{
    // The shipped HPCC traffic_gen distributions load through "workload" (relative to the
    // experiment file, format detected) and give flows no larger than their largest size.
    for (const auto& [file, max] :
         {std::pair<const char*, uint64_t>{"websearch-hpcc.cdf", 30000000},
          {"alistorage-hpcc.cdf", 2000000},
          {"googlerpc-hpcc.cdf", 15158197}})
    {
        const std::string relative =
            std::filesystem::relative(SRC + "/traces/" + file, OUT).generic_string();
        const ExperimentConfig c = ExperimentConfig::LoadString(
            R"({"topology": {"type": "incast", "senders": 7}, "stop_time": "10ms",
                "workload": {"type": "poisson", "cdf": ")" +
                relative + R"(", "load": 0.5, "duration": "2ms"}})",
            OUT + "hpcc-workload.json");
        ASSERT_GT(c.GetFlows().size(), 0u) << file;
        EXPECT_EQ(c.EffectiveJson()["workload"]["cdf_format"], "auto") << file;
        for (const ExperimentFlow& f : c.GetFlows())
        {
            ASSERT_GE(f.bytes, 1u) << file;
            ASSERT_LE(f.bytes, max) << file;
        }
    }
}

TEST_F(TraceConfigTest, PoissonRunFinishesAndIsDeterministic)
{
    std::string files[2];
    for (int run = 0; run < 2; ++run)
    {
        const std::string dir = OUT + "poisson-run" + std::to_string(run);
        {
            const ExperimentConfig c =
                ExperimentConfig::LoadFile(SRC + "/configs/poisson-small.json");
            ASSERT_GT(c.GetFlows().size(), 5u);
            ExperimentRunner runner(c, dir);
            runner.Run();
            EXPECT_EQ(runner.GetFinishedFlows(), c.GetFlows().size());
        }
        Simulator::Destroy();
        files[run] =
            Slurp(dir + "/flows.csv") + Slurp(dir + "/summary.json") + Slurp(dir + "/trace.csv");
        EXPECT_TRUE(Contains(Slurp(dir + "/summary.json"), "\"p99.9\""));
        EXPECT_TRUE(Contains(Slurp(dir + "/summary.json"), "\"by_size\""));
    }
    EXPECT_EQ(files[0], files[1]);
}

} // namespace
} // namespace ns3
