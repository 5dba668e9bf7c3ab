// libFuzzer target: a flow-size CDF (FlowSizeCdf::LoadString); the first byte picks the
// format: percent, probability or auto (both file formats and the detection).
#include "fuzz-reader.h"

#include "ns3/flow-size-cdf.h"

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    using namespace ns3;
    if (size == 0)
    {
        return 0;
    }
    const FlowSizeCdf::Format formats[] = {FlowSizeCdf::AUTO, FlowSizeCdf::PERCENT,
                                           FlowSizeCdf::PROBABILITY};
    const FlowSizeCdf::Format format = formats[data[0] % 3];
    fuzz::Expect("cdf.txt",
                 [&]()
                 {
                     FlowSizeCdf cdf =
                         FlowSizeCdf::LoadString(fuzz::Text(data + 1, size - 1), "cdf.txt", format);
                     cdf.GetPoints();
                 });
    return 0;
}
