// libFuzzer target: an experiment JSON file (ExperimentConfig::LoadString).
#include "fuzz-reader.h"

#include "ns3/experiment-config.h"

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    using namespace ns3;
    fuzz::Expect("fuzz.json",
                 [&]() { ExperimentConfig::LoadString(fuzz::Text(data, size), "fuzz.json"); });
    return 0;
}
