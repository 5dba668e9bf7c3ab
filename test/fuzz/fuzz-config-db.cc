// libFuzzer target: a SONiC config_db file (SonicConfigLoader::ReadString).
#include "fuzz-reader.h"

#include "ns3/sonic-config-loader.h"

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    using namespace ns3;
    SonicConfigLoader loader;
    fuzz::Expect("config_db.json",
                 [&] { loader.ReadString(fuzz::Text(data, size), "config_db.json"); });
    return 0;
}
