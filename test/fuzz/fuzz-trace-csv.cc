// libFuzzer target: a flow trace in roce-lab's CSV format (FlowTrace::ReadCsv).
#include "fuzz-reader.h"

#include "ns3/flow-trace.h"

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    using namespace ns3;
    fuzz::Expect("trace.csv",
                 [&]() { FlowTrace::ReadCsv(fuzz::Text(data, size), "trace.csv", 16); });
    return 0;
}
