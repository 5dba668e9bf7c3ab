// libFuzzer target: a host-model file (HostConfigLoader::LoadString).
#include "fuzz-reader.h"

#include "ns3/host-config-loader.h"
#include "ns3/host-model.h"
#include "ns3/simulator.h"

#include <cstdlib>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    using namespace ns3;
    HostConfigLoader loader;
    Ptr<HostModel> host;
    if (!loader.LoadString(fuzz::Text(data, size), "host.json", host) &&
        loader.GetError().find("host.json") == std::string::npos)
    {
        std::abort(); // a refusal that does not name the file
    }
    if (host)
    {
        host->Dispose();
    }
    Simulator::Destroy();
    return 0;
}
