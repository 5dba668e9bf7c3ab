// libFuzzer target: a SONiC config_db file (SonicConfigLoader::LoadString).
#include "fuzz-reader.h"

#include "ns3/sonic-config-loader.h"

#include <cstdlib>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    using namespace ns3;
    SonicConfigLoader loader;
    SonicBufferConfig config;
    if (!loader.LoadString(fuzz::Text(data, size), "config_db.json", config) &&
        loader.GetError().find("config_db.json") == std::string::npos)
    {
        std::abort(); // a refusal that does not name the file
    }
    return 0;
}
