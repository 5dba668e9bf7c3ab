// roce-run: run one JSON experiment (or HPCC-simulator config.txt) and write its output directory.
//
//   roce-run [CONFIG.json] [--out=DIR] [--bench]     (also accepts "--out DIR")
//   roce-run --check [CONFIG.json] [--out=DIR]       load, build, validate, print; no run
//
// With no CONFIG the shipped configs/leaf-spine-incast.json is used.
// The output directory defaults to results/<config name>. Attribute defaults can
// be changed as with any ns-3 program (--ns3::RdmaDcqcn::G=0.01); the command line
// wins over the JSON file where both set one (a warning names each), and the output's
// config.json records the command line's value. Exit status: 0 on success, 2 for a
// configuration error (message on stderr), 1 if the outputs cannot be written, 3 when a
// flow's bytes were not placed exactly once (one line on stderr; the outputs are written,
// summary.json's "exactly_once" lists the flows). Flows left stalled (unfinished, nothing
// pending in their transport) are a warning on stderr and summary.json's "stalled".
// --bench also prints simulated packets per wall-second, events and peak memory.
// --check loads the experiment, builds its fabric, validates every part and prints what a
// run would do (nodes, flows, faults, outputs) without running or writing anything; its
// exit status is that of the run's set-up (0: the run would start).
// CONFIG may also be an HPCC-simulator configuration file (its mix/config.txt format),
// recognized by content and translated to JSON by HpccConfigTranslator.
#include "log-notice.h"

#include "ns3/command-line.h"
#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/json-attribute-converter.h"
#include "ns3/nstime.h"
#include "ns3/run-progress.h"
#include "ns3/run-statistics.h"
#include "ns3/simulator.h"

#ifdef ROCE_LAB_MPI
#    include "ns3/mpi-experiment-partition.h"
#endif

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

#ifdef ROCE_LAB_DEFAULT_CONFIG
const char* DEFAULT_CONFIG = ROCE_LAB_DEFAULT_CONFIG;
#else
const char* DEFAULT_CONFIG = "configs/leaf-spine-incast.json";
#endif

/** ns3::CommandLine takes "--out=DIR"; also accept the common "--out DIR". */
std::vector<std::string>
JoinOptionValues(int argc, char** argv)
{
    std::vector<std::string> args;
    for (int i = 0; i < argc; ++i)
    {
        const std::string a = argv[i];
        if (a == "--out" && i + 1 < argc)
        {
            args.push_back(a + "=" + argv[++i]);
        }
        else
        {
            args.push_back(a);
        }
    }
    return args;
}

} // namespace

int
main(int argc, char** argv)
{
    NoticeLoggingCompiledOut(argv[0]);
    Time::SetResolution(Time::PS);

    std::string configPath;
    std::string outDir;
    CommandLine cmd(__FILE__);
    cmd.Usage("Run a RoCEv2 experiment described by a JSON file, or an HPCC-simulator "
              "config.txt (schema: contrib/dc-experiment/doc/dc-experiment.md).");
    cmd.AddNonOption("config", "experiment file (default: " + std::string(DEFAULT_CONFIG) + ")",
                     configPath);
    bool bench = false;
    cmd.AddValue("out", "output directory (default: results/<config name>)", outDir);
    cmd.AddValue("bench", "print speed and memory figures after the run", bench);
    bool check = false;
    cmd.AddValue("check",
                 "load, build and validate the experiment, print what a run would do (nodes, "
                 "flows, faults, outputs) and stop: nothing is run or written",
                 check);
#ifdef ROCE_LAB_MPI
    // Distributed runs: mpirun -np N roce-run CONFIG (contrib/dc-experiment/doc/mpi.md).
    std::string partition = "pod";
    std::string mpiSync = "window";
    cmd.AddValue("partition", "under mpirun: split the network by pod or rack", partition);
    cmd.AddValue("mpi-sync", "under mpirun: window (granted time window) or null-message", mpiSync);
#endif
    double progressPeriod = RunProgress::DEFAULT_LOG_PERIOD_SECONDS;
    cmd.AddValue("progress-period",
                 "wall-clock seconds between progress lines when stderr is not a terminal",
                 progressPeriod);
    std::vector<std::string> args = JoinOptionValues(argc, argv);
    std::vector<char*> argvJoined;
    for (auto& a : args)
    {
        std::string error;
        if (!JsonAttributeConverter::CheckCommandLineDefault(a, error))
        {
            std::cerr << "roce-run: configuration error: " << error << std::endl;
            return 2;
        }
        argvJoined.push_back(a.data());
    }
    cmd.Parse(static_cast<int>(argvJoined.size()), argvJoined.data());

#ifdef ROCE_LAB_MPI
    FabricPartitioner::Mode partitionMode = FabricPartitioner::Mode::Pod;
    if (!FabricPartitioner::ParseMode(partition, partitionMode))
    {
        std::cerr << "roce-run: --partition: expected pod or rack, got '" << partition << "'"
                  << std::endl;
        return 2;
    }
    std::unique_ptr<MpiExperimentPartition> mpi;
    try
    {
        mpi = std::make_unique<MpiExperimentPartition>(&argc, &argv, partitionMode, mpiSync);
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "roce-run: " << e.what() << std::endl;
        return 2;
    }
    const bool report = mpi->GetRank() == 0; // one rank prints and writes
#else
    const bool report = true;
#endif
    if (configPath.empty())
    {
        configPath = DEFAULT_CONFIG;
    }
    if (!(progressPeriod > 0))
    {
        std::cerr << "roce-run: --progress-period: expected a positive number of seconds"
                  << std::endl;
        return 2;
    }
    std::string commandLine = "roce-run";
    for (int i = 1; i < argc; ++i)
    {
        commandLine += std::string(" ") + argv[i];
    }
    if (outDir.empty())
    {
        outDir = "results/" + std::filesystem::path(configPath).stem().string();
    }

    try
    {
        const ExperimentConfig config =
            ExperimentConfig::LoadFile(configPath, CommandLineAttributes::FromArguments(args));
        for (const std::string& warning : config.GetWarnings())
        {
            if (report)
            {
                std::cerr << "roce-run: warning: " << warning << std::endl;
            }
        }
        if (check)
        {
            {
                std::ostringstream otherRank; // one rank prints
                ExperimentRunner runner(config, outDir);
                runner.Check(report ? static_cast<std::ostream&>(std::cout) : otherRank);
            }
            Simulator::Destroy();
            return 0;
        }
        const auto wallStart = std::chrono::steady_clock::now();
        uint32_t flows = 0;
        uint32_t finished = 0;
        uint32_t stalled = 0;
        uint64_t violations = 0;
        uint64_t events = 0;
        Time end;
        {
            ExperimentRunner runner(config, outDir);
#ifdef ROCE_LAB_MPI
            runner.SetPartition(mpi.get());
#endif
            std::unique_ptr<RunProgress> progress;
            if (config.GetProgress() && report)
            {
                progress =
                    std::make_unique<RunProgress>(runner, config.GetStopTime(), progressPeriod);
                progress->SetFirstFlowStart(RunProgress::GetFirstFlowStart(config));
                runner.SetExternalProgress(true);
                progress->Start();
            }
            runner.SetCommandLine(commandLine);
            runner.Run();
            progress.reset();
            flows = static_cast<uint32_t>(runner.GetFlowResults().size());
            finished = runner.GetFinishedFlows();
            stalled = runner.GetStalledFlows();
            violations = runner.GetExactlyOnceViolations();
            events = runner.GetEventCount();
            end = runner.GetEndTime();
            if (bench && report)
            {
                RunStatistics::Collect(runner).Print(std::cout);
            }
        }
        Simulator::Destroy();
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
        if (report)
        {
            std::printf("%u of %u flows finished; simulated %.3f us, %llu events, %.2f s wall\n",
                        finished, flows, end.GetPicoSeconds() / 1e6,
                        static_cast<unsigned long long>(events), wall);
            if (finished < flows)
            {
                std::printf("warning: %u flows did not finish (see flows.csv and summary.json)\n",
                            flows - finished);
            }
            if (!config.GetNotStartedFlows().empty())
            {
                const std::size_t late = config.GetNotStartedFlows().size();
                std::fprintf(stderr,
                             "roce-run: warning: %zu flow%s of the trace start%s at or after the "
                             "stop time and %s not started (summary.json: not_started)\n",
                             late, late == 1 ? "" : "s", late == 1 ? "s" : "",
                             late == 1 ? "was" : "were");
            }
            std::printf("output: %s\n", outDir.c_str());
            std::fflush(stdout);
            if (stalled > 0)
            {
                std::cerr << "roce-run: warning: " << stalled << " of " << flows
                          << " flows stalled: unfinished with nothing pending in their "
                             "transport (no timer, nothing to send; summary.json "
                             "\"stalled_flows\")"
                          << std::endl;
            }
        }
        if (violations > 0)
        {
            if (report)
            {
                std::cerr << "roce-run: error: " << violations << " of " << flows
                          << " flows were not placed exactly once (summary.json "
                             "\"exactly_once\" in "
                          << outDir << ")" << std::endl;
            }
            return 3;
        }
    }
    catch (const ExperimentConfigError& e)
    {
        std::cerr << "roce-run: configuration error: " << e.what() << std::endl;
        return 2;
    }
    catch (const std::exception& e)
    {
        std::cerr << "roce-run: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}
