// Hostping NSDI'23 Fig. 1: an 8-host ring allreduce with 200 Gb/s RNICs, ideal and with one
// host's RNIC PCIe link degraded. Usage: host-allreduce [config.json] [--out=DIR]; writes
// DIR/allreduce.csv (case, hosts, comm_time_ms, per_host_gbps).
#include "host-scenario.h"
#include "point-progress.h"
#include "scenario-json.h"

#include "ns3/command-line.h"
#include "ns3/dcb-helper.h"
#include "ns3/dcb-routing-helper.h"
#include "ns3/maestro-collective.h"
#include "ns3/maestro-ring-link.h"
#include "ns3/rdma-helper.h"
#include "ns3/simulator.h"

#include <filesystem>
#include <fstream>
#include <iostream>

using namespace ns3;

namespace
{

/// \return the per-host send rate of one allreduce, Gb/s; 0 with \p error set on failure.
double
RunAllreduce(const nlohmann::json& j, const std::string& hostKey, const std::string& file,
             DataRate rate, double& commMs, std::string& error)
{
    const uint32_t n = j.value("hosts", 8u);
    const std::string target = j.value("dma_target", std::string("mem0"));
    DcbHelper dcb;
    dcb.SetDeviceAttribute("DataRate", DataRateValue(rate));
    RdmaHelper rdma;
    NodeContainer hosts(n);
    NodeContainer sw(1);
    std::vector<Ptr<RdmaNic>> nics;
    std::vector<DcbRoutingHelper::HostAddress> addresses;
    for (uint32_t i = 0; i < n; ++i)
    {
        dcb.Install(hosts.Get(i), sw.Get(0));
    }
    dcb.InstallSwitch(sw.Get(0));
    for (uint32_t i = 0; i < n; ++i)
    {
        const Ipv4Address a(Ipv4Address("10.0.0.1").Get() + i);
        nics.push_back(rdma.Install(hosts.Get(i), a));
        addresses.push_back({a, hosts.Get(i)});
        const bool degraded = j.contains("degraded_host") && j.at("degraded_host") == i;
        Ptr<HostModel> host = HostScenario::Build(j, degraded ? hostKey : "", file, error);
        if (!host)
        {
            return 0;
        }
        hosts.Get(i)->AggregateObject(host);
        error = nics[i]->SetHostModel(host, "rnic0", target);
        if (!error.empty())
        {
            error = file + ": /dma_target: " + error;
            return 0;
        }
    }
    DcbRoutingHelper::PopulateRoutes(addresses);
    std::vector<Ptr<MaestroRingLink>> links;
    for (uint32_t i = 0; i < n; ++i)
    {
        auto qp = RdmaHelper::Connect(nics[i], nics[(i + 1) % n]).first;
        links.push_back(MaestroRingLink::OverQueuePair(nics[i], qp));
    }
    auto c = CreateObject<MaestroCollective>();
    c->SetLinks(links);
    c->Start();
    Simulator::Run();
    const Time t = c->GetCommunicationTimes().front();
    commMs = t.GetSeconds() * 1e3;
    const double bits = 8.0 * c->GetSegmentBytes() * c->GetNSteps();
    Simulator::Destroy();
    return bits / t.GetSeconds() / 1e9;
}

} // namespace

int
main(int argc, char** argv)
{
    std::string config = ROCE_LAB_CONFIG_DIR "/host-allreduce.json";
    std::string out = "host-allreduce-out";
    CommandLine cmd(__FILE__);
    cmd.AddNonOption("config", "JSON file", config);
    cmd.AddValue("out", "output directory", out);
    cmd.Parse(argc, argv);
    nlohmann::json j;
    std::string error;
    DataRate rate;
    try
    {
        if (!ScenarioJson::Load(config, j, error) ||
            !ScenarioJson::ApplyAttributes(j, config, error) ||
            !ScenarioJson::ReadDataRate(j, "link_rate", "200Gbps", config, rate, error))
        {
            std::cerr << error << std::endl;
            return 2;
        }
        std::filesystem::create_directories(out);
        std::ofstream csv(out + "/allreduce.csv");
        csv << "case,hosts,comm_time_ms,per_host_gbps\n";
        double gbps[2];
        PointProgress progress("host-allreduce", 2);
        for (int degraded = 0; degraded < 2; ++degraded)
        {
            double ms = 0;
            gbps[degraded] = RunAllreduce(j, degraded ? "degrade" : "", config, rate, ms, error);
            progress.Done(degraded ? "one degraded RNIC link" : "ideal");
            if (!error.empty())
            {
                std::cerr << error << std::endl;
                return 2;
            }
            csv << (degraded ? "degraded" : "ideal") << "," << j.value("hosts", 8u) << "," << ms
                << "," << gbps[degraded] << "\n";
        }
        std::cout << "per-host throughput: ideal " << gbps[0] << " Gb/s, one degraded RNIC link "
                  << gbps[1] << " Gb/s (" << (1 - gbps[1] / gbps[0]) * 100 << " % lower)"
                  << std::endl;
    }
    catch (const nlohmann::json::exception& e)
    {
        std::cerr << config << ": configuration error: " << e.what() << std::endl;
        return 2;
    }
    return 0;
}
