// fat-tree-fct: SRNIC Fig. 12 — Cache_Follower at load 0.7 on SRNIC's fat-trees,
// one run per (scale, NIC profile).
//
//   fat-tree-fct [--scales=16,64] [--profiles=cx6,irn,srnic] [--duration=1ms]
//                [--config=BASE.json] [--profileDir=DIR] [--out=DIR] [--seed=N]
//                [--stopTime=T] [--progress] [--bench]
//
// A scale of "base" keeps the base file's topology (e.g. --config=
// configs/srnic-bench-256.json: the SRNIC authors' topology and flows).
// Each run writes OUT/<servers>/<profile>/ (flows.csv, summary.json, ...);
// analysis/compare_profiles.py OUT draws the comparison. The base experiment
// (default configs/fat-tree-fct.json) gives the workload; the profiles
// (configs/nic-profiles/<name>.json) give loss recovery, congestion
// control and PFC. --stopTime ends each run there (flows still running count as
// unfinished: the large scales, see doc/reproduce.md); progress lines (simulated time,
// flows finished, ETA) go to stderr on runs over 2 s unless the base file sets
// "progress": false (--progress forces them on); --bench prints each run's speed and
// memory (RunStatistics). Each run's README records the command line and NIC profile.
// Exit status: 0 on success, 2 for a configuration error,
// 1 if outputs cannot be written, 3 when a run's flow was not placed exactly once (one
// line on stderr per such run; the other runs still go).
#include "log-notice.h"

#include "ns3/command-line.h"
#include "ns3/experiment-config-error.h"
#include "ns3/experiment-runner.h"
#include "ns3/nic-profile.h"
#include "ns3/nstime.h"
#include "ns3/run-progress.h"
#include "ns3/run-statistics.h"
#include "ns3/simulator.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

#ifdef ROCE_LAB_CONFIG_DIR
const std::string CONFIG_DIR = ROCE_LAB_CONFIG_DIR;
#else
const std::string CONFIG_DIR = "configs";
#endif

std::vector<std::string>
SplitList(const std::string& text)
{
    std::vector<std::string> items;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
    {
        if (!item.empty())
        {
            items.push_back(item);
        }
    }
    return items;
}

} // namespace

int
main(int argc, char** argv)
{
    NoticeLoggingCompiledOut(argv[0]);
    Time::SetResolution(Time::PS);

    std::string scales = "16";
    std::string profiles = "cx6,irn,srnic";
    std::string duration;
    std::string base = CONFIG_DIR + "/fat-tree-fct.json";
    std::string profileDir = CONFIG_DIR + "/nic-profiles";
    std::string outDir = "results/fat-tree-fct";
    uint32_t seed = 0;
    bool bench = false;
    std::string stopTime;
    bool progress = false;
    CommandLine cmd(__FILE__);
    cmd.Usage("SRNIC Fig. 12: Cache_Follower at load 0.7 on SRNIC's fat-trees with the CX-6, "
              "IRN and SRNIC NIC profiles (contrib/dc-experiment/doc/dc-experiment.md).");
    cmd.AddValue("scales",
                 "comma-separated server counts: 16, 64, 256, 1024, 4096; \"base\" keeps the "
                 "base file's topology",
                 scales);
    cmd.AddValue("profiles", "comma-separated profile names (files in profileDir)", profiles);
    cmd.AddValue("duration", "arrival duration (default: the base file's, 1ms)", duration);
    cmd.AddValue("config", "base experiment file", base);
    cmd.AddValue("profileDir", "directory of <profile>.json files", profileDir);
    cmd.AddValue("out", "output directory; runs go to OUT/<servers>/<profile>", outDir);
    cmd.AddValue("seed", "experiment seed (default: the base file's)", seed);
    cmd.AddValue("stopTime", "end every run at this time (default: the base file's, 30ms)",
                 stopTime);
    cmd.AddValue("progress",
                 "print progress lines (simulated time, flows finished, ETA) on stderr even if "
                 "the base file sets \"progress\": false (default: on for runs over 2 s)",
                 progress);
    cmd.AddValue("bench", "print each run's speed and memory figures", bench);
    cmd.Parse(argc, argv);
    std::string commandLine = "fat-tree-fct";
    for (int i = 1; i < argc; ++i)
    {
        commandLine += std::string(" ") + argv[i];
    }

    int status = 0; // 3 once a run broke exactly-once placement
    try
    {
        for (const std::string& scale : SplitList(scales))
        {
            uint32_t servers = 0; // "base": keep the base file's topology
            if (scale != "base")
            {
                try
                {
                    servers = static_cast<uint32_t>(std::stoul(scale));
                }
                catch (const std::exception&)
                {
                    throw ExperimentConfigError("--scales", "",
                                                "not a server count: \"" + scale + "\"");
                }
            }
            for (const std::string& profile : SplitList(profiles))
            {
                NicProfile::Overrides o;
                o.srnicServers = servers;
                o.duration = duration;
                o.seed = seed;
                o.stopTime = stopTime;
                o.progress = progress;
                o.commandLine = CommandLineAttributes::FromArguments({argv, argv + argc});
                const ExperimentConfig config =
                    NicProfile::Load(base, profileDir + "/" + profile + ".json", o);
                const std::string dir = outDir + "/" + scale + "/" + profile;
                const auto wallStart = std::chrono::steady_clock::now();
                uint32_t flows = 0;
                uint32_t finished = 0;
                uint64_t violations = 0;
                Time end;
                {
                    ExperimentRunner runner(config, dir);
                    runner.SetCommandLine(commandLine);
                    runner.SetReadmeDetail("nic profile",
                                           profile + " (" + profileDir + "/" + profile + ".json)");
                    std::unique_ptr<RunProgress> progressLine;
                    if (config.GetProgress())
                    {
                        progressLine = std::make_unique<RunProgress>(runner, config.GetStopTime());
                        runner.SetExternalProgress(true);
                        progressLine->Start();
                    }
                    runner.Run();
                    progressLine.reset();
                    flows = static_cast<uint32_t>(runner.GetFlowResults().size());
                    finished = runner.GetFinishedFlows();
                    violations = runner.GetExactlyOnceViolations();
                    end = runner.GetEndTime();
                    if (bench)
                    {
                        RunStatistics::Collect(runner).Print(std::cout);
                    }
                }
                Simulator::Destroy();
                const double wall =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart)
                        .count();
                std::printf("%s servers, %s: %u of %u flows finished; simulated %.3f us; %.1f s "
                            "wall; output %s\n",
                            scale.c_str(), profile.c_str(), finished, flows,
                            end.GetPicoSeconds() / 1e6, wall, dir.c_str());
                std::fflush(stdout);
                if (violations > 0)
                {
                    std::cerr << "fat-tree-fct: error: " << violations << " of " << flows
                              << " flows were not placed exactly once (summary.json "
                                 "\"exactly_once\" in "
                              << dir << ")" << std::endl;
                    status = 3;
                }
            }
        }
    }
    catch (const ExperimentConfigError& e)
    {
        std::cerr << "fat-tree-fct: configuration error: " << e.what() << std::endl;
        return 2;
    }
    catch (const std::exception& e)
    {
        std::cerr << "fat-tree-fct: " << e.what() << std::endl;
        return 1;
    }
    return status;
}
