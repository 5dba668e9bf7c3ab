// dcqcn-regional: Azure NSDI'23 Appendix B / Fig. 12, DCQCN RTT fairness in a
// region. Runs a JSON experiment (schema: contrib/dc-experiment/doc/dc-experiment.md)
// with ExperimentRunner and adds goodput.csv: the payload goodput of every
// sending QP between --warmup and the end of the run.
//
//   dcqcn-regional [CONFIG.json] [--out=DIR] [--warmup=20ms]
//
// Default CONFIG: scratch/configs/regional-fig12.json. Queue watermarks come
// from queues.csv (monitors.queue_interval): analysis/dcqcn_regional.py OUTDIR.
// Exit status: 0 on success, 2 for a configuration error, 1 if outputs fail.
#include "ns3/command-line.h"
#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/nstime.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/simulator.h"
#include "ns3/topology-builder.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

#ifdef ROCE_LAB_DEFAULT_CONFIG
static const char* DEFAULT_CONFIG = ROCE_LAB_DEFAULT_CONFIG;
#else
static const char* DEFAULT_CONFIG = "scratch/configs/regional-fig12.json";
#endif

namespace
{

/** Payload bytes sent by every QP of every host, in (host, QP) order. */
std::vector<uint64_t>
SentBytes(const TopologyBuilder& topo)
{
    std::vector<uint64_t> bytes;
    for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
    {
        Ptr<RdmaNic> nic = topo.GetNic(h);
        for (uint32_t i = 0; i < nic->GetNQueuePairs(); ++i)
        {
            bytes.push_back(
                nic->GetQueuePair(RdmaNic::FIRST_QPN + i)->GetCounters().payloadBytesSent);
        }
    }
    return bytes;
}

} // namespace

int
main(int argc, char** argv)
{
    Time::SetResolution(Time::PS);
    std::string configPath = DEFAULT_CONFIG;
    std::string outDir;
    Time warmup = MilliSeconds(20);
    CommandLine cmd(__FILE__);
    cmd.AddNonOption("config", "experiment file", configPath);
    cmd.AddValue("out", "output directory (default: results/<config name>)", outDir);
    cmd.AddValue("warmup", "goodput is measured from this time to the end of the run", warmup);
    cmd.Parse(argc, argv);
    if (outDir.empty())
    {
        outDir = "results/" + std::filesystem::path(configPath).stem().string();
    }
    try
    {
        const ExperimentConfig config = ExperimentConfig::LoadFile(configPath);
        if (warmup >= config.GetStopTime())
        {
            std::cerr << "dcqcn-regional: configuration error: --warmup must be below the "
                         "config's stop_time"
                      << std::endl;
            return 2;
        }
        std::vector<uint64_t> atWarmup;
        {
            ExperimentRunner runner(config, outDir);
            Simulator::Schedule(warmup, [&]() { atWarmup = SentBytes(runner.GetTopology()); });
            runner.Run();
            const TopologyBuilder& topo = runner.GetTopology();
            const std::vector<uint64_t> atEnd = SentBytes(topo);
            const double secs = (runner.GetEndTime() - warmup).GetSeconds();
            std::ofstream csv(outDir + "/goodput.csv");
            if (!csv || atWarmup.size() != atEnd.size())
            {
                std::cerr << "dcqcn-regional: cannot write goodput.csv (or the run ended "
                             "before --warmup)"
                          << std::endl;
                return 1;
            }
            csv << "host,qpn,from_us,to_us,goodput_gbps\n";
            size_t k = 0;
            for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
            {
                for (uint32_t i = 0; i < topo.GetNic(h)->GetNQueuePairs(); ++i, ++k)
                {
                    const double gbps = (atEnd[k] - atWarmup[k]) * 8.0 / secs / 1e9;
                    if (atEnd[k] == 0)
                    {
                        continue; // a responder: sends no payload
                    }
                    char line[128];
                    std::snprintf(line, sizeof(line), "%u,%u,%.6f,%.6f,%.6f\n", h,
                                  RdmaNic::FIRST_QPN + i, warmup.GetPicoSeconds() / 1e6,
                                  runner.GetEndTime().GetPicoSeconds() / 1e6, gbps);
                    csv << line;
                    std::printf("host %u QP %u: %.3f Gb/s goodput\n", h, RdmaNic::FIRST_QPN + i,
                                gbps);
                }
            }
        }
        Simulator::Destroy();
        std::printf("output: %s\n", outDir.c_str());
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
