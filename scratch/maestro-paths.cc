// Maestro path dynamics (SOSR'21 Fig. 12d/e): one sender, 4 core paths switched
// one by one every "step" ("enable": spines 1..3 come up; "fail": 0..2 go down).
// Usage: maestro-paths [config.json] [--out=DIR]; writes DIR/paths.csv. Without a
// config: scratch/configs/maestro-paths-enable.json.
#include "scenario-json.h"

#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/json-attribute-converter.h"
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
    std::string config = ROCE_LAB_CONFIG_DIR "/maestro-paths-enable.json";
    std::string out = "maestro-paths-out";
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

    const std::string mode = j.value("mode", "enable");
    if (mode != "enable" && mode != "fail")
    {
        return Fail(config, "/mode", "must be \"enable\" or \"fail\"");
    }
    Time step;
    if (!j.contains("step") || !j["step"].is_string() ||
        !JsonAttributeConverter::ParseTime(j["step"].get<std::string>(), step))
    {
        return Fail(config, "/step", "missing time (e.g. \"2ms\"; the paper's 30 s scaled)");
    }
    const uint64_t size = j.value("message_bytes", 500000);
    std::filesystem::create_directories(out);
    std::ofstream csv(out + "/paths.csv");
    csv << "time_ms,spine,gbps\n";
    DcbHelper dcb;
    RdmaHelper rdma;
    RdmaLeafSpineFabric fabric({0, 1}, 2, 4);
    fabric.SetHostRate(hostRate);
    fabric.SetCoreRate(coreRate);
    fabric.Build(dcb, rdma);
    Ptr<MaestroEndpoint> ep = MaestroHelper().Install(fabric.GetNics()[0], fabric.GetNics()[1]);
    for (uint32_t s = 0; s < 3; ++s)
    {
        const uint32_t spine = mode == "enable" ? s + 1 : s;
        if (mode == "enable")
        {
            fabric.SetSpineUp(spine, false);
        }
        Simulator::Schedule(step * (s + 1), &RdmaLeafSpineFabric::SetSpineUp, &fabric, spine,
                            mode == "enable");
    }
    const Time end = step * 4;
    uint64_t posted = 0;
    uint64_t done = 0;
    std::function<void()> post = [&]()
    {
        RdmaWorkRequest wr;
        wr.length = size;
        wr.wrId = posted++;
        ep->PostSend(wr);
    };
    ep->TraceConnectWithoutContext(
        "MessageCompleted",
        MakeBoundCallback(
            +[](std::function<void()>* p, uint64_t* d, Time end, const MaestroMessageCompletion&)
            {
                ++*d;
                if (Simulator::Now() < end)
                {
                    (*p)();
                }
            },
            &post, &done, end));
    for (int i = 0; i < 6; ++i)
    {
        post();
    }
    const Time bin = step / 10;
    std::vector<uint64_t> last(4, 0);
    for (Time t = bin; t <= end; t += bin)
    {
        Simulator::Schedule(
            t,
            [&, t]()
            {
                for (uint32_t vp = 0; vp < 4; ++vp)
                {
                    const uint64_t b = ep->GetPathMonitor()->Get(vp).bytesCompleted;
                    csv << t.GetSeconds() * 1e3 << ","
                        << fabric.SpineOfLink(ep->GetQpManager()->GetPath(vp).links[0]) << ","
                        << (b - last[vp]) * 8 / bin.GetSeconds() / 1e9 << "\n";
                    last[vp] = b;
                }
            });
    }
    Simulator::Run();
    std::cout << mode << ": " << done << "/" << posted << " messages completed, "
              << ep->GetNReposts() << " chunks reposted, " << ep->GetNRestores()
              << " paths restored" << std::endl;
    Simulator::Destroy();
    return done == posted ? 0 : 1;
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
