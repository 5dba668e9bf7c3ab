// Maestro DDL reproduction (SOSR'21 §6.4): ring-allreduce / allgather of a model
// over 4 workers on 2 leaves and 4 spines, single QP (ECMP) vs Maestro.
// Usage: maestro-ddl [config.json] [--out=DIR]; writes DIR/ddl.csv.
#include "point-progress.h"
#include "scenario-json.h"

#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/json-attribute-converter.h"
#include "ns3/maestro-collective.h"
#include "ns3/maestro-helper.h"
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
    std::string config = ROCE_LAB_CONFIG_DIR "/maestro-ddl.json";
    std::string out = "maestro-ddl-out";
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

    // Maestro's virtual NICs: addresses per NIC (the primary and its IP aliases)
    const nlohmann::json vnics = j.value("virtual_nics", nlohmann::json(1));
    if (!vnics.is_number_unsigned() || vnics.get<uint64_t>() < 1 || vnics.get<uint64_t>() > 64)
    {
        return Fail(config, "/virtual_nics", "must be an integer in [1, 64] (addresses per NIC)");
    }
    std::filesystem::create_directories(out);
    std::ofstream csv(out + "/ddl.csv");
    csv << "transport,iteration,comm_time_ms\n";
    const std::vector<uint32_t> ring = {0, 2, 1, 3}; // every hop crosses the core
    double total[2] = {0, 0};
    PointProgress progress("maestro-ddl", 2);
    for (int maestro = 0; maestro < 2; ++maestro)
    {
        DcbHelper dcb;
        RdmaHelper rdma;
        RdmaLeafSpineFabric fabric({0, 0, 1, 1}, 2, 4);
        fabric.SetHostRate(hostRate);
        fabric.SetCoreRate(coreRate);
        fabric.GetFabric().SetVirtualNics(static_cast<uint32_t>(vnics.get<uint64_t>()));
        fabric.Build(dcb, rdma);
        MaestroHelper mh;
        std::vector<Ptr<MaestroRingLink>> links;
        for (uint32_t w = 0; w < ring.size(); ++w)
        {
            Ptr<RdmaNic> a = fabric.GetNics()[ring[w]];
            Ptr<RdmaNic> b = fabric.GetNics()[ring[(w + 1) % ring.size()]];
            links.push_back(
                maestro ? MaestroRingLink::OverEndpoint(mh.Install(a, b))
                        : MaestroRingLink::OverQueuePair(a, RdmaHelper::Connect(a, b).first));
        }
        Ptr<MaestroCollective> c = CreateObject<MaestroCollective>();
        c->SetLinks(links);
        c->Start();
        Simulator::Run();
        progress.Done(maestro ? "Maestro" : "single QP");
        const auto& times = c->GetCommunicationTimes();
        for (uint32_t i = 0; i < times.size(); ++i)
        {
            csv << (maestro ? "maestro" : "single-qp") << "," << i << ","
                << times[i].GetSeconds() * 1e3 << "\n";
            total[maestro] += times[i].GetSeconds();
        }
        Simulator::Destroy();
    }
    std::cout << "communication time: single QP " << total[0] * 1e3 << " ms, Maestro "
              << total[1] * 1e3 << " ms, cut " << (1 - total[1] / total[0]) * 100 << " %"
              << std::endl;
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
