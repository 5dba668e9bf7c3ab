// DFabric (Zhang et al., arXiv 2409.05404) Fig. 2: ring allreduce across two racks, NIC pool
// sizes 1..10, with full and reduced local memory bandwidth, with and without a memory pool.
// Host-DMA level (fluid flows through HostModel); see contrib/host/doc/host.md.
// Usage: dfabric-pool [CONFIG.json] [--out=DIR (writes DIR/dfabric-pool.csv; default stdout)]
// Exit status 2 on bad input, with the file and JSON pointer of the offending field.
#include "ns3/core-module.h"
#include "ns3/cxl-link.h"
#include "ns3/dfabric-rack-helper.h"
#include "ns3/dfabric-ring-allreduce.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

using namespace ns3;
using nlohmann::json;

namespace
{
[[noreturn]] void
Fail(const std::string& message)
{
    std::cerr << "dfabric-pool: " << message << "\n";
    std::exit(2);
}

/// The allreduce's completion callback: stores its duration.
void
StoreDuration(Time* took, Time duration)
{
    *took = duration;
}

/// Duration of one allreduce of bytes over two racks built by helper.
Time
RunAllreduce(const DfabricRackHelper& helper, uint64_t bytes)
{
    Ptr<DfabricRingAllreduce> ring = CreateObject<DfabricRingAllreduce>();
    ring->AddRack(helper.Create());
    ring->AddRack(helper.Create());
    Time took;
    ring->Start(bytes, MakeBoundCallback(&StoreDuration, &took));
    Simulator::Run();
    Simulator::Destroy();
    return took;
}
} // namespace

int
main(int argc, char* argv[])
{
    std::string config = ROCE_LAB_CONFIG_DIR "/dfabric-pool.json";
    std::string out;
    CommandLine cmd(__FILE__);
    cmd.AddNonOption("config", "JSON experiment file", config);
    cmd.AddValue("out", "output directory (default: CSV on stdout)", out);
    cmd.Parse(argc, argv);

    std::ifstream in(config);
    if (!in)
    {
        Fail(config + ": cannot open");
    }
    json doc = json::parse(in, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
    {
        Fail(config + ": not a JSON object");
    }
    const json bytes = doc.value("allreduce_bytes", json());
    if (!bytes.is_number_unsigned() || bytes.get<uint64_t>() == 0)
    {
        Fail(config + ": /allreduce_bytes: required positive integer");
    }
    const json sizes = doc.value("nic_pool_sizes", json());
    if (!sizes.is_array() || sizes.empty())
    {
        Fail(config + ": /nic_pool_sizes: required non-empty array");
    }
    const json scenarios = doc.value("scenarios", json());
    if (!scenarios.is_array() || scenarios.empty())
    {
        Fail(config + ": /scenarios: required non-empty array");
    }
    DfabricRackHelper base;
    std::string error;
    if (doc.contains("rack") && !base.Configure(doc["rack"], config + ": /rack", &error))
    {
        Fail(error);
    }

    std::ofstream file;
    if (!out.empty())
    {
        std::filesystem::create_directories(out);
        file.open(out + "/dfabric-pool.csv");
    }
    std::ostream& csv = out.empty() ? std::cout : file;
    csv << "scenario,nic_pool_size,allreduce_us,optimal_us,normalized\n";
    for (size_t s = 0; s < scenarios.size(); ++s)
    {
        const std::string at = "/scenarios/" + std::to_string(s);
        const json& sc = scenarios[s];
        if (!sc.is_object() || !sc.contains("name") || !sc["name"].is_string())
        {
            Fail(config + ": " + at + "/name: required string");
        }
        DfabricRackHelper helper = base;
        if (sc.contains("rack") &&
            !helper.Configure(sc["rack"], config + ": " + at + "/rack", &error))
        {
            Fail(error);
        }
        // Optimal: every hop at the interconnect rate (a node's CXL link).
        DfabricRack probe = helper.Create();
        DataRate link = probe.host->GetResource("cxl-cn0")->GetCapacity();
        const uint32_t ranks = 2 * probe.cnMemory.size();
        const double optimalUs =
            2.0 * (ranks - 1) * (bytes.get<double>() / ranks) * 8 / link.GetBitRate() * 1e6;
        probe.pool->Dispose();
        probe.host->Dispose();
        for (size_t i = 0; i < sizes.size(); ++i)
        {
            if (!sizes[i].is_number_unsigned() || sizes[i].get<uint64_t>() < 1 ||
                sizes[i].get<uint64_t>() > 64)
            {
                Fail(config + ": /nic_pool_sizes/" + std::to_string(i) +
                     ": must be an integer in [1, 64]");
            }
            helper.SetNicPoolSize(sizes[i].get<uint32_t>());
            double us = RunAllreduce(helper, bytes.get<uint64_t>()).GetSeconds() * 1e6;
            csv << sc["name"].get<std::string>() << "," << sizes[i].get<uint32_t>() << "," << us
                << "," << optimalUs << "," << us / optimalUs << "\n";
        }
    }
    return 0;
}
