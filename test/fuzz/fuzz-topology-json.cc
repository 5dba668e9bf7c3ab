// libFuzzer target: a roce-lab topology file (JSON, ExperimentTopology::Parse).
#include "fuzz-reader.h"

#include "ns3/experiment-topology.h"
#include "ns3/json-schema-reader.h"

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    using namespace ns3;
    fuzz::Expect("topology.json",
                 [&]()
                 {
                     JsonSchemaReader reader("topology.json");
                     const nlohmann::json topo = reader.ParseText(fuzz::Text(data, size));
                     nlohmann::ordered_json effective;
                     ExperimentTopology::Parse(reader, topo, "", effective);
                 });
    return 0;
}
