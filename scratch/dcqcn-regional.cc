// dcqcn-regional: Azure NSDI'23 Appendix B / Fig. 12, DCQCN RTT fairness in a
// region, and the DCQCN sweeps. Runs a JSON experiment (schema:
// contrib/dc-experiment/doc/dc-experiment.md) with ExperimentRunner and adds the
// steady-state metrics of DcqcnRunMonitor from --warmup to the end: goodput.csv
// (payload goodput of every sending QP, as delivered at its receiver) and a "dcqcn" object in
// summary.json (goodputs, Jain index, queue watermark per --window poll and its peak, the
// time-average queue), which the sweep table gathers.
//
//   dcqcn-regional [CONFIG.json] [--out=DIR | --out DIR] [--warmup=T] [--window=1ms]
//
// --warmup defaults to a third of the config's stop_time, rounded down to the 10 us
// queue sample period (20 ms for the shipped 60 ms Fig. 12 run, 2.66 ms for the 8 ms
// regional-small.json).
// Default CONFIG: configs/regional-fig12.json; plot with
// analysis/dcqcn_regional.py OUTDIR. Exit status: 0 on success, 2 for a
// configuration error, 1 if outputs fail, 3 when a flow was not placed exactly once
// (one line on stderr).
#include "log-notice.h"

#include "ns3/command-line.h"
#include "ns3/dcqcn-run-monitor.h"
#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/json-attribute-converter.h"
#include "ns3/nstime.h"
#include "ns3/run-progress.h"
#include "ns3/simulator.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

using namespace ns3;

#ifdef ROCE_LAB_DEFAULT_CONFIG
static const char* DEFAULT_CONFIG = ROCE_LAB_DEFAULT_CONFIG;
#else
static const char* DEFAULT_CONFIG = "configs/regional-fig12.json";
#endif

int
main(int argc, char** argv)
{
    NoticeLoggingCompiledOut(argv[0]);
    Time::SetResolution(Time::PS);
    std::string configPath = DEFAULT_CONFIG;
    std::string outDir;
    std::string warmupText;
    Time window = MilliSeconds(1);
    CommandLine cmd(__FILE__);
    cmd.AddNonOption("config", "experiment file", configPath);
    cmd.AddValue("out", "output directory (default: results/<config name>)", outDir);
    cmd.AddValue("warmup",
                 "metrics are measured from this time to the end of the run (a duration such "
                 "as 20ms; default: a third of the config's stop_time, rounded down to 10us)",
                 warmupText);
    cmd.AddValue("window",
                 "queue watermark poll period. The paper polls switch watermark counters; "
                 "SONiC polls them every 10 s, longer than these runs, so its figure compares "
                 "with the peak, or with polls of at least one DCQCN cycle (~20 ms in Fig. 12)",
                 window);
    // ns3::CommandLine takes "--out=DIR"; the sweep driver passes "--out DIR".
    std::vector<std::string> args;
    for (int i = 0; i < argc; ++i)
    {
        const std::string a = argv[i];
        args.push_back(a == "--out" && i + 1 < argc ? a + "=" + argv[++i] : a);
    }
    std::vector<char*> joined;
    for (auto& a : args)
    {
        joined.push_back(a.data());
    }
    cmd.Parse(static_cast<int>(joined.size()), joined.data());
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
            std::cerr << "dcqcn-regional: warning: " << warning << std::endl;
        }
        // Default: a third of the run, on the queue sampling grid (10 us).
        const Time sample = MicroSeconds(10);
        Time warmup =
            sample * ((config.GetStopTime() / 3).GetPicoSeconds() / sample.GetPicoSeconds());
        if (!warmupText.empty() && !JsonAttributeConverter::ParseTime(warmupText, warmup))
        {
            std::cerr << "dcqcn-regional: --warmup: '" << warmupText
                      << "' is not a duration such as 20ms (units s, ms, us, ns, ps)" << std::endl;
            return 2;
        }
        if (warmup >= config.GetStopTime() || !window.IsStrictlyPositive())
        {
            std::cerr << "dcqcn-regional: configuration error: --warmup ("
                      << JsonAttributeConverter::FormatTime(warmup)
                      << ") must be below the stop_time of " << configPath << " ("
                      << JsonAttributeConverter::FormatTime(config.GetStopTime())
                      << ") and --window above 0" << std::endl;
            return 2;
        }
        uint64_t violations = 0;
        std::size_t flows = 0;
        {
            ExperimentRunner runner(config, outDir);
            std::string commandLine = "dcqcn-regional";
            for (int i = 1; i < argc; ++i)
            {
                commandLine += std::string(" ") + argv[i];
            }
            runner.SetCommandLine(commandLine);
            // Through the runner's monitor slot: goodput.csv and summary.json's "dcqcn".
            DcqcnRunMonitor monitor(runner.GetTopology(), warmup, sample, window);
            runner.AddMonitor(&monitor);
            std::unique_ptr<RunProgress> progress;
            if (config.GetProgress())
            {
                progress = std::make_unique<RunProgress>(runner, config.GetStopTime());
                runner.SetExternalProgress(true);
                progress->Start();
            }
            runner.Run();
            progress.reset();
            violations = runner.GetExactlyOnceViolations();
            flows = runner.GetFlowResults().size();
            for (const auto& g : monitor.GetGoodputs())
            {
                std::printf("host %u QP %u: %.3f Gb/s goodput\n", g.host, g.qpn, g.gbps);
            }
            std::printf("Jain %.4f, queue watermark per %g ms poll: mean %.3f MB, peak %.3f MB; "
                        "time-average queue %.3f MB\n",
                        monitor.GetJainIndex(), window.GetSeconds() * 1e3,
                        monitor.GetMeanWatermark() / 1e6, monitor.GetPeakWatermark() / 1e6,
                        monitor.GetMeanQueue() / 1e6);
        }
        Simulator::Destroy();
        std::printf("output: %s\n", outDir.c_str());
        if (violations > 0)
        {
            std::fflush(stdout);
            std::cerr << "dcqcn-regional: error: " << violations << " of " << flows
                      << " flows were not placed exactly once (summary.json \"exactly_once\" in "
                      << outDir << ")" << std::endl;
            return 3;
        }
    }
    catch (const ExperimentConfigError& e)
    {
        std::cerr << "dcqcn-regional: configuration error: " << e.what() << std::endl;
        return 2;
    }
    catch (const std::exception& e)
    {
        std::cerr << "dcqcn-regional: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}
