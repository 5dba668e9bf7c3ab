// libFuzzer target: a NIC-profile file (NicProfile::Load: the profile, its preset expanded,
// merged into a small experiment and loaded). The input is written to profile.json in the
// working directory (the corpus copy), beside a fixed base experiment, base.json.
#include "fuzz-reader.h"

#include "ns3/nic-profile.h"

#include <fstream>

namespace
{

const char* const BASE = R"({
  "description": "base experiment for the NIC-profile target",
  "seed": 1,
  "topology": {"type": "dumbbell", "hosts_per_side": 2},
  "flows": [{"src": "h0", "dst": "h2", "bytes": 10000, "start": "0us"}]
})";

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    using namespace ns3;
    static const bool based = static_cast<bool>(std::ofstream("base.json") << BASE);
    if (!based)
    {
        std::abort(); // the working directory is not writable: nothing would be tested
    }
    {
        std::ofstream profile("profile.json", std::ios::binary | std::ios::trunc);
        profile.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    fuzz::Expect("profile.json",
                 [&]() { NicProfile::Load("base.json", "profile.json", NicProfile::Overrides()); });
    return 0;
}
