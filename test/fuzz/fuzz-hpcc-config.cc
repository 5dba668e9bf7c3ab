// libFuzzer target: an HPCC-simulator configuration file (HpccConfigTranslator).
#include "fuzz-reader.h"

#include "ns3/hpcc-config-translator.h"

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    using namespace ns3;
    const std::string text = fuzz::Text(data, size);
    HpccConfigTranslator::IsHpccConfig(text);
    fuzz::Expect("config.txt", [&]() { HpccConfigTranslator::Translate(text, "config.txt"); });
    return 0;
}
