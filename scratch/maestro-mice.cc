// Maestro mice reproduction (SOSR'21 §6.2): a 2-byte token around 4 workers whose
// hops cross spines of different delay; single QP (ECMP) vs Maestro min-latency.
// Usage: maestro-mice [config.json] [--out=DIR]; writes DIR/mice.csv.
#include "point-progress.h"
#include "scenario-json.h"

#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/json-attribute-converter.h"
#include "ns3/maestro-helper.h"
#include "ns3/maestro-token-ring.h"
#include "ns3/rdma-leaf-spine-fabric.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

using namespace ns3;

namespace
{

int
Fail(const std::string& file, const std::string& pointer, const std::string& what)
{
    std::cerr << file << ": " << pointer << ": " << what << std::endl;
    return 2;
}

} // namespace

int
RunScenario(int argc, char** argv)
{
    std::string config = ROCE_LAB_CONFIG_DIR "/maestro-mice.json";
    std::string out = "maestro-mice-out";
    CommandLine cmd(__FILE__);
    cmd.AddNonOption("config", "JSON file", config);
    cmd.AddValue("out", "output directory", out);
    cmd.Parse(argc, argv);

    nlohmann::json j;
    std::string error;
    DataRate hostRate;
    DataRate coreRate;
    if (!ScenarioJson::Load(config, j, error) || !ScenarioJson::ApplyAttributes(j, config, error) ||
        !ScenarioJson::ReadDataRate(j, "host_rate", "40Gbps", config, hostRate, error) ||
        !ScenarioJson::ReadDataRate(j, "core_rate", "10Gbps", config, coreRate, error))
    {
        std::cerr << error << std::endl;
        return 2;
    }

    std::vector<Time> delays;
    for (const auto& d :
         j.value("spine_delays", nlohmann::json::array({"1us", "5us", "5us", "5us"})))
    {
        Time t;
        if (!d.is_string() || !JsonAttributeConverter::ParseTime(d.get<std::string>(), t))
        {
            return Fail(config, "/spine_delays", "not a list of times (e.g. \"5us\")");
        }
        delays.push_back(t);
    }
    if (delays.size() != 4)
    {
        return Fail(config, "/spine_delays", "need 4 delays, one per spine");
    }
    std::filesystem::create_directories(out);
    std::ofstream csv(out + "/mice.csv");
    csv << "transport,round,round_time_us\n";
    const std::vector<uint32_t> ring = {0, 2, 1, 3};
    double mean[2] = {0, 0};
    PointProgress progress("maestro-mice", 2);
    for (int maestro = 0; maestro < 2; ++maestro)
    {
        DcbHelper dcb;
        RdmaHelper rdma;
        RdmaLeafSpineFabric fabric({0, 0, 1, 1}, 2, 4);
        fabric.SetHostRate(hostRate);
        fabric.SetCoreRate(coreRate);
        fabric.SetSpineDelays(delays);
        fabric.Build(dcb, rdma);
        MaestroHelper mh;
        mh.SetLoadBalancer("ns3::MaestroMinLatency");
        std::vector<Ptr<MaestroRingLink>> links;
        for (uint32_t w = 0; w < ring.size(); ++w)
        {
            Ptr<RdmaNic> a = fabric.GetNics()[ring[w]];
            Ptr<RdmaNic> b = fabric.GetNics()[ring[(w + 1) % ring.size()]];
            Ptr<MaestroEndpoint> ep = maestro ? mh.Install(a, b) : nullptr;
            if (ep)
            {
                ep->Probe(); // a latency sample of every path before the token starts
            }
            // the token is passed on when it arrives (receiver told by the immediate)
            links.push_back(
                ep ? MaestroRingLink::OverEndpoint(ep, true)
                   : MaestroRingLink::OverQueuePairNotified(a, RdmaHelper::Connect(a, b), b));
        }
        Ptr<MaestroTokenRing> token = CreateObject<MaestroTokenRing>();
        token->SetLinks(links);
        Simulator::Schedule(MicroSeconds(100), &MaestroTokenRing::Start, token);
        Simulator::Run();
        progress.Done(maestro ? "Maestro" : "single QP");
        const auto& t = token->GetRoundTimes();
        for (uint32_t i = 0; i < t.size(); ++i)
        {
            csv << (maestro ? "maestro" : "ecmp") << "," << i << "," << t[i].GetSeconds() * 1e6
                << "\n";
            mean[maestro] += t[i].GetSeconds() * 1e6 / t.size();
        }
        Simulator::Destroy();
    }
    std::cout << "token round: ECMP " << mean[0] << " us, Maestro " << mean[1] << " us ("
              << mean[0] / mean[1] << "x faster)" << std::endl;
    return 0;
}

int
main(int argc, char** argv)
{
    try
    {
        return RunScenario(argc, argv);
    }
    catch (const nlohmann::json::exception& e)
    {
        // A field of the wrong JSON type (e.g. a number where a string is expected).
        std::cerr << "configuration error: " << e.what() << std::endl;
        return 2;
    }
}
