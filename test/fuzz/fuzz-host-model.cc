// libFuzzer target: a host graph file (HostModelReader::ReadText).
#include "fuzz-reader.h"

#include "ns3/host-model-reader.h"
#include "ns3/host-model.h"
#include "ns3/simulator.h"

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    using namespace ns3;
    fuzz::Expect("host.json",
                 [&]()
                 {
                     Ptr<HostModel> host =
                         HostModelReader::ReadText(fuzz::Text(data, size), "host.json");
                     host->Dispose();
                 });
    Simulator::Destroy();
    return 0;
}
