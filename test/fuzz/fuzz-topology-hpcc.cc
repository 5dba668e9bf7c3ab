// libFuzzer target: an HPCC-simulator topology file (HpccTopologyReader).
#include "fuzz-reader.h"

#include "ns3/hpcc-topology-reader.h"

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    using namespace ns3;
    fuzz::Expect("topology.txt",
                 [&]() { HpccTopologyReader::Read(fuzz::Text(data, size), "topology.txt"); });
    return 0;
}
