// DFabric (arXiv 2409.05404) Fig. 2: ring allreduce between two racks whose hosts share a
// CXL-attached NIC pool, for NIC pool sizes and memory-pool bandwidths. Usage: host-dfabric
// [config.json] [--out=DIR]; writes DIR/dfabric.csv (memory_channels, nics, comm_time_us).
#include "scenario-json.h"

#include "ns3/command-line.h"
#include "ns3/dcb-helper.h"
#include "ns3/dcb-routing-helper.h"
#include "ns3/host-preset-helper.h"
#include "ns3/rdma-helper.h"
#include "ns3/simulator.h"

#include <filesystem>
#include <fstream>
#include <iostream>

using namespace ns3;

namespace
{

/// The inter-rack steps of the ring (reduce-scatter, allgather), MODEL/2 bytes each way per
/// step, split evenly over one subflow per pool NIC; intra-rack steps pass references (free).
class TwoRackAllreduce
{
  public:
    Time Run(uint32_t nics, uint32_t channels, uint64_t model, DataRate rate)
    {
        DcbHelper dcb;
        dcb.SetDeviceAttribute("DataRate", DataRateValue(rate));
        RdmaHelper rdma;
        NodeContainer hosts(2 * nics);
        NodeContainer sw(1);
        std::vector<Ptr<RdmaNic>> nic;
        std::vector<DcbRoutingHelper::HostAddress> addresses;
        for (uint32_t i = 0; i < 2 * nics; ++i)
        {
            dcb.Install(hosts.Get(i), sw.Get(0));
        }
        dcb.InstallSwitch(sw.Get(0));
        Ptr<HostModel> rack[2] = {HostPresetHelper().CreateDfabricRack(nics, channels),
                                  HostPresetHelper().CreateDfabricRack(nics, channels)};
        for (uint32_t i = 0; i < 2 * nics; ++i)
        {
            const Ipv4Address a(Ipv4Address("10.0.0.1").Get() + i);
            nic.push_back(rdma.Install(hosts.Get(i), a));
            addresses.push_back({a, hosts.Get(i)});
            nic[i]->SetHostModel(rack[i / nics], "nic" + std::to_string(i % nics), "mempool");
            nic[i]->TraceConnectWithoutContext("Completion",
                                               MakeCallback(&TwoRackAllreduce::OnCompletion, this));
        }
        DcbRoutingHelper::PopulateRoutes(addresses);
        m_qps.clear();
        for (uint32_t k = 0; k < nics; ++k)
        {
            auto [a, b] = RdmaHelper::Connect(nic[k], nic[nics + k]);
            m_qps.push_back(a);
            m_qps.push_back(b);
        }
        m_share = model / 2 / nics;
        m_steps = 0;
        Step();
        Simulator::Run();
        Simulator::Destroy();
        return m_finish;
    }

  private:
    void Step()
    {
        m_pending = m_qps.size();
        for (auto& qp : m_qps)
        {
            RdmaWorkRequest wr;
            wr.verb = RdmaVerb::Write;
            wr.length = m_share;
            qp->PostSend(wr);
        }
    }

    void OnCompletion(const RdmaCompletion& c)
    {
        if (c.receive || --m_pending > 0)
        {
            return;
        }
        if (++m_steps < 2)
        {
            Step();
        }
        else
        {
            m_finish = Simulator::Now();
        }
    }

    std::vector<Ptr<RdmaQueuePair>> m_qps;
    uint64_t m_share{0};
    uint32_t m_pending{0};
    uint32_t m_steps{0};
    Time m_finish;
};

} // namespace

int
main(int argc, char** argv)
{
    std::string config = ROCE_LAB_CONFIG_DIR "/host-dfabric.json";
    std::string out = "host-dfabric-out";
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
            !ScenarioJson::ReadDataRate(j, "link_rate", "100Gbps", config, rate, error))
        {
            std::cerr << error << std::endl;
            return 2;
        }
        const auto nics = j.value("nics", std::vector<uint32_t>{1, 2, 4, 10});
        const auto channels = j.value("memory_channels", std::vector<uint32_t>{16, 2});
        for (uint32_t v : nics)
        {
            if (v < 1 || v > 64)
            {
                std::cerr << config << ": /nics: " << v << " is outside 1..64" << std::endl;
                return 2;
            }
        }
        for (uint32_t v : channels)
        {
            if (v < 1 || v > 16)
            {
                std::cerr << config << ": /memory_channels: " << v << " is outside 1..16"
                          << std::endl;
                return 2;
            }
        }
        std::filesystem::create_directories(out);
        std::ofstream csv(out + "/dfabric.csv");
        csv << "memory_channels,nics,comm_time_us\n";
        for (uint32_t ch : channels)
        {
            for (uint32_t n : nics)
            {
                const Time t =
                    TwoRackAllreduce().Run(n, ch, j.value("model_bytes", 8000000ull), rate);
                csv << ch << "," << n << "," << t.GetSeconds() * 1e6 << "\n";
            }
        }
    }
    catch (const nlohmann::json::exception& e)
    {
        std::cerr << config << ": configuration error: " << e.what() << std::endl;
        return 2;
    }
    std::cout << "wrote " << out << "/dfabric.csv" << std::endl;
    return 0;
}
