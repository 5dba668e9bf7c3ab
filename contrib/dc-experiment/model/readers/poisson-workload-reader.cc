#include "poisson-workload-reader.h"

#include "flow-list-reader.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/experiment-config.h"
#include "ns3/fabric-bisection.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/json-attribute-converter.h"
#include "ns3/uinteger.h"

#include <fstream>
#include <optional>
#include <sstream>

namespace ns3
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

Ptr<PoissonFlowGenerator>
PoissonWorkloadReader::Read(const JsonSchemaReader& reader, const Json* workload,
                            const std::string& pointer, const ExperimentTopology& topology,
                            Time stopTime, OrderedJson& effective)
{
    if (!workload)
    {
        effective = nullptr;
        return nullptr;
    }
    reader.CheckKeys(*workload, pointer,
                     {"type", "cdf", "cdf_format", "load", "duration", "start", "priority", "verb",
                      "host_link_rate", "load_reference"});
    reader.GetString(*workload, pointer, "type", std::nullopt, {"poisson"});
    const std::string cdfPath =
        reader.ResolvePath(reader.GetString(*workload, pointer, "cdf", std::nullopt, {}));
    const std::string cdfFormatName =
        reader.GetString(*workload, pointer, "cdf_format", "auto", {"auto", "percent", "cdf"});
    FlowSizeCdf::Format cdfFormat;
    FlowSizeCdf::ParseFormat(cdfFormatName, cdfFormat);
    const std::string lp = JsonSchemaReader::Child(pointer, "load");
    const Json* loadValue = JsonSchemaReader::Find(*workload, "load");
    if (!loadValue)
    {
        reader.Fail(lp, "missing required field \"load\" (fraction of the host link rate, "
                        "in (0, 10])");
    }
    if (!loadValue->is_number() || loadValue->get<double>() <= 0 || loadValue->get<double>() > 10)
    {
        reader.Fail(lp, "expected a number in (0, 10] (fraction of the host link rate), got " +
                            loadValue->dump());
    }
    const double load = loadValue->get<double>();
    const Time duration =
        reader.GetTime(*workload, pointer, "duration", std::nullopt, PicoSeconds(1));
    const Time start = reader.GetTime(*workload, pointer, "start", "0ns", Time(0));
    if (start + duration > stopTime)
    {
        reader.Fail(JsonSchemaReader::Child(pointer, "duration"),
                    "arrivals end at start + duration = " +
                        JsonAttributeConverter::FormatTime(start + duration) +
                        ", after stop_time " + JsonAttributeConverter::FormatTime(stopTime));
    }
    const auto priority =
        static_cast<uint8_t>(reader.GetUint(*workload, pointer, "priority", 3, 0, 7));
    const std::string verbName =
        reader.GetString(*workload, pointer, "verb", "write", FlowListReader::GetVerbNames());
    RdmaVerb verb;
    ParseRdmaVerb(verbName, verb);
    const ExperimentTopology& topo = topology;
    if (topo.hosts.size() < 2)
    {
        reader.Fail(pointer, "a workload needs at least two hosts");
    }
    // Default: the rate of the first host's link.
    DataRate hostRate;
    for (const ExperimentLink& l : topo.links)
    {
        if (l.a == 0 || l.b == 0)
        {
            hostRate = l.rate;
            break;
        }
    }
    hostRate = reader.GetRate(*workload, pointer, "host_link_rate",
                              JsonAttributeConverter::FormatDataRate(hostRate));
    std::ifstream probe(cdfPath, std::ios::binary);
    if (!probe)
    {
        reader.Fail(JsonSchemaReader::Child(pointer, "cdf"),
                    "cannot open the flow-size distribution \"" + cdfPath + "\"");
    }
    const FlowSizeCdf cdf = FlowSizeCdf::LoadFile(cdfPath, cdfFormat);
    // Sizes above the flow limit would be cut to it while the arrival rate still
    // follows the file's mean: load and size mix would differ from the file.
    for (std::size_t i = 0; i < cdf.GetPoints().size(); ++i)
    {
        if (cdf.GetPoints()[i].bytes > ExperimentConfig::MAX_FLOW_BYTES)
        {
            std::ostringstream size;
            size.precision(17);
            size << cdf.GetPoints()[i].bytes;
            throw ExperimentConfigError(
                cdfPath, cdf.GetLine(i), 1,
                "flow size " + size.str() + " bytes exceeds the largest flow, " +
                    std::to_string(ExperimentConfig::MAX_FLOW_BYTES) +
                    " bytes (1 GiB); the distribution of " + reader.GetFile() +
                    " /workload/cdf must stay within it (scale the sizes or cut the tail and "
                    "renormalize)");
        }
    }
    const std::string loadReference = reader.GetString(*workload, pointer, "load_reference",
                                                       "host_link", {"host_link", "bisection"});
    const DataRate bisection =
        loadReference == "bisection" ? FabricBisection::Compute(topo) : DataRate(0);

    // The flows are drawn after the whole file is parsed (ExperimentConfig), from the
    // generator's own streams at the experiment's seed (its Seed attribute).
    Ptr<PoissonFlowGenerator> generator = CreateObject<PoissonFlowGenerator>();
    generator->SetAttribute("Load", DoubleValue(load));
    generator->SetAttribute("HostRate", DataRateValue(hostRate));
    generator->SetAttribute("BisectionRate", DataRateValue(bisection));
    generator->SetAttribute("Start", TimeValue(start));
    generator->SetAttribute("Duration", TimeValue(duration));
    generator->SetAttribute("Priority", UintegerValue(priority));
    generator->SetAttribute("Verb", EnumValue(static_cast<int>(verb)));
    generator->SetSizeDistribution(cdf);
    generator->SetOrigin(pointer);
    OrderedJson eff;
    eff["type"] = "poisson";
    eff["cdf"] = cdfPath;
    eff["cdf_format"] = cdfFormatName;
    eff["load"] = load;
    eff["duration"] = JsonAttributeConverter::FormatTime(duration);
    eff["start"] = JsonAttributeConverter::FormatTime(start);
    eff["priority"] = priority;
    eff["verb"] = verbName;
    eff["host_link_rate"] = JsonAttributeConverter::FormatDataRate(hostRate);
    eff["load_reference"] = loadReference;
    effective = eff;
    return generator;
}

} // namespace ns3
