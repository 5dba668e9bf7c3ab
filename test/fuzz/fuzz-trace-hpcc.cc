// libFuzzer target: an HPCC-simulator flow file (FlowTrace::ReadHpcc), on a network of
// HPCC node ids 0..19 where ids 16..19 are switches.
#include "fuzz-reader.h"

#include "ns3/flow-trace.h"
#include "ns3/nstime.h"

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    using namespace ns3;
    std::vector<int64_t> hostOfNode(20, -1);
    for (int64_t h = 0; h < 16; ++h)
    {
        hostOfNode[h] = h;
    }
    std::vector<std::string> warnings;
    fuzz::Expect("flow.txt",
                 [&]() {
                     FlowTrace::ReadHpcc(fuzz::Text(data, size), "flow.txt", hostOfNode, Seconds(2),
                                         warnings);
                 });
    return 0;
}
