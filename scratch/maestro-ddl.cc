// Maestro DDL reproduction (SOSR'21 §6.4): ring-allreduce / allgather of a model
// over 4 workers on 2 leaves and 4 spines, single QP (ECMP) vs Maestro.
// Usage: maestro-ddl [config.json] [--out=DIR]; writes DIR/ddl.csv.
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/json-attribute-converter.h"
#include "ns3/maestro-collective.h"
#include "ns3/maestro-helper.h"
#include "ns3/maestro-leaf-spine-helper.h"
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
main(int argc, char** argv)
{
    std::string config = ROCE_LAB_CONFIG_DIR "/maestro-ddl.json";
    std::string out = "maestro-ddl-out";
    CommandLine cmd(__FILE__);
    cmd.AddNonOption("config", "JSON file", config);
    cmd.AddValue("out", "output directory", out);
    cmd.Parse(argc, argv);

    nlohmann::json j;
    std::ifstream in(config);
    if (!in)
    {
        return Fail(config, "", "cannot open");
    }
    try
    {
        j = nlohmann::json::parse(in);
    }
    catch (const nlohmann::json::parse_error& e)
    {
        return Fail(config, "byte " + std::to_string(e.byte), e.what());
    }
    // "attributes": {"ns3::MaestroCollective::ModelScale": "0.005", ...}
    const nlohmann::json attributes = j.value("attributes", nlohmann::json::object());
    for (const auto& [name, value] : attributes.items())
    {
        const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
        if (!Config::SetDefaultFailSafe(name, StringValue(text)))
        {
            return Fail(config, "/attributes/" + name, "unknown attribute or bad value " + text);
        }
    }
    DataRate hostRate;
    DataRate coreRate;
    if (!JsonAttributeConverter::ParseDataRate(j.value("host_rate", "40Gbps"), hostRate))
    {
        return Fail(config, "/host_rate", "not a data rate (e.g. \"40Gbps\")");
    }
    if (!JsonAttributeConverter::ParseDataRate(j.value("core_rate", "10Gbps"), coreRate))
    {
        return Fail(config, "/core_rate", "not a data rate (e.g. \"10Gbps\")");
    }

    std::filesystem::create_directories(out);
    std::ofstream csv(out + "/ddl.csv");
    csv << "transport,iteration,comm_time_ms\n";
    const std::vector<uint32_t> ring = {0, 2, 1, 3}; // every hop crosses the core
    double total[2] = {0, 0};
    for (int maestro = 0; maestro < 2; ++maestro)
    {
        DcbHelper dcb;
        RdmaHelper rdma;
        MaestroLeafSpineHelper fabric({0, 0, 1, 1}, 4);
        fabric.SetHostRate(hostRate);
        fabric.SetCoreRate(coreRate);
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
