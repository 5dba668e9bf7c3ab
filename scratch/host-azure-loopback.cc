// Azure NSDI'23 §8.3: servers running loopback RDMA between their VMs while receiving external
// traffic send PFC pauses to their ToR (2:1 on the NIC's PCIe lanes); without loopback they
// send none. Usage: host-azure-loopback [config.json] [--out=DIR]; writes DIR/azure.csv.
#include "host-scenario.h"
#include "scenario-json.h"

#include "ns3/command-line.h"
#include "ns3/dcb-channel.h"
#include "ns3/dcb-helper.h"
#include "ns3/dcb-routing-helper.h"
#include "ns3/host-dma-flow.h"
#include "ns3/rdma-helper.h"
#include "ns3/simulator.h"

#include <filesystem>
#include <fstream>
#include <iostream>

using namespace ns3;

namespace
{

/// Receivers 0..n-1 (with loopback when asked), senders n..2n-1: sender n+i writes to i.
bool
Run(const nlohmann::json& j, const std::string& file, bool loopback, std::ofstream& csv,
    std::string& error)
{
    const uint32_t n = j.value("receivers", 4u);
    DataRate rate;
    if (!ScenarioJson::ReadDataRate(j, "link_rate", "100Gbps", file, rate, error))
    {
        return false;
    }
    const Time duration = MicroSeconds(j.value("duration_us", 1500u));
    DcbHelper dcb;
    dcb.SetDeviceAttribute("DataRate", DataRateValue(rate));
    RdmaHelper rdma;
    NodeContainer hosts(2 * n);
    NodeContainer tor(1);
    std::vector<Ptr<RdmaNic>> nics;
    std::vector<Ptr<HostDmaFlow>> flows;
    std::vector<DcbRoutingHelper::HostAddress> addresses;
    for (uint32_t i = 0; i < 2 * n; ++i)
    {
        dcb.Install(hosts.Get(i), tor.Get(0));
    }
    dcb.InstallSwitch(tor.Get(0));
    for (uint32_t i = 0; i < 2 * n; ++i)
    {
        const Ipv4Address a(Ipv4Address("10.0.0.1").Get() + i);
        nics.push_back(rdma.Install(hosts.Get(i), a));
        addresses.push_back({a, hosts.Get(i)});
        Ptr<HostModel> host = HostScenario::Build(j, "host", file, error);
        if (!host)
        {
            return false;
        }
        hosts.Get(i)->AggregateObject(host);
        error = nics[i]->SetHostModel(host, "rnic0", "mem0");
        auto flow = CreateObject<HostDmaFlow>();
        error += error.empty() ? flow->Setup(host, "rnic0", "mem0") : "";
        if (!error.empty())
        {
            error = file + ": /host: " + error;
            return false;
        }
        if (loopback && i < n)
        {
            flow->Start();
        }
        flows.push_back(flow);
    }
    DcbRoutingHelper::PopulateRoutes(addresses);
    for (uint32_t i = 0; i < n; ++i)
    {
        RdmaWorkRequest wr;
        wr.verb = RdmaVerb::Write;
        wr.length = 1000000000; // longer than the run
        RdmaHelper::Connect(nics[n + i], nics[i]).first->PostSend(wr);
    }
    Simulator::Stop(duration);
    Simulator::Run();
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<DcbNetDevice> dev = nics[i]->GetDevice();
        const auto& rx = nics[i]->GetRxPipeline()->GetCounters();
        csv << (loopback ? 1 : 0) << "," << i << "," << dev->GetCounters(3).pfcXoffSent << ","
            << dev->GetDcbChannel()->GetPeer(dev)->GetCounters(3).pausedTime.GetSeconds() /
                   duration.GetSeconds()
            << "," << rx.dmaWriteBytes * 8.0 / duration.GetSeconds() / 1e9 << ","
            << flows[i]->GetBytesMoved() * 8.0 / duration.GetSeconds() / 1e9 << ","
            << rx.maxOccupancy << "\n";
    }
    Simulator::Destroy();
    return true;
}

} // namespace

int
main(int argc, char** argv)
{
    std::string config = ROCE_LAB_CONFIG_DIR "/host-azure-loopback.json";
    std::string out = "host-azure-loopback-out";
    CommandLine cmd(__FILE__);
    cmd.AddNonOption("config", "JSON file", config);
    cmd.AddValue("out", "output directory", out);
    cmd.Parse(argc, argv);
    nlohmann::json j;
    std::string error;
    try
    {
        if (!ScenarioJson::Load(config, j, error) ||
            !ScenarioJson::ApplyAttributes(j, config, error))
        {
            std::cerr << error << std::endl;
            return 2;
        }
        std::filesystem::create_directories(out);
        std::ofstream csv(out + "/azure.csv");
        csv << "loopback,server,xoff_sent,tor_paused_share,external_gbps,loopback_gbps,"
               "max_rx_buffer_bytes\n";
        for (bool loopback : {true, false})
        {
            if (!Run(j, config, loopback, csv, error))
            {
                std::cerr << error << std::endl;
                return 2;
            }
        }
    }
    catch (const nlohmann::json::exception& e)
    {
        std::cerr << config << ": configuration error: " << e.what() << std::endl;
        return 2;
    }
    std::cout << "wrote " << out << "/azure.csv" << std::endl;
    return 0;
}
