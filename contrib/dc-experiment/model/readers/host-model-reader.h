/*
 * Reads an intra-host graph file (contrib/host) into a HostModel, with the
 * experiment files' reader and error type.
 */
#ifndef HOST_MODEL_READER_H
#define HOST_MODEL_READER_H

#include "ns3/host-model.h"
#include "ns3/json-schema-reader.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * A host graph file (contrib/host/doc/host.md, "Host graph files"):
 * \code
 * { "devices": [ {"name": "rnic0", "type": "RnicPort", "attributes": {"LineRate": "100Gbps"}},
 *                {"name": "rp0", "type": "RootPort"}, ... ],
 *   "links":   [ {"name": "pcie-rnic0", "type": "PcieLink", "ends": ["rnic0", "rp0"],
 *                 "attributes": {"Generation": 3, "Lanes": 16}},
 *                {"ends": ["rp0", "rc0"]} ] }
 * \endcode
 * Device types: RnicPort, PcieSwitch, RootPort, RootComplex, MemoryChannel, GpuDevice,
 * CxlSwitch, CxlMemoryDevice. Link types: PcieLink, SocketLink, CxlLink; a link without
 * "type" is an ideal connection. Optional free text: "description" and "_comment" at the
 * top and in each entry. Read with JsonSchemaReader like an experiment file: unknown and
 * duplicate keys are errors, attribute values are JSON typed as JsonAttributeConverter
 * takes them (integers, numbers, booleans, duration and data-rate strings), checked by
 * the attribute's checker and then by the resource's own setter.
 */
class HostModelReader
{
  public:
    /** \throw ExperimentConfigError naming \p path (and the JSON pointer) */
    static Ptr<HostModel> ReadFile(const std::string& path);
    /** \throw ExperimentConfigError naming \p file (and the JSON pointer) */
    static Ptr<HostModel> ReadText(const std::string& text, const std::string& file);

    /**
     * Set the attribute \p name of \p resource to the JSON \p value (typed as above).
     * \throw ExperimentConfigError at \p pointer when the resource has no such attribute
     *        or refuses the value
     */
    static void SetAttribute(const JsonSchemaReader& reader, Ptr<HostResource> resource,
                             const std::string& name, const nlohmann::json& value,
                             const std::string& pointer);
};

} // namespace ns3

#endif /* HOST_MODEL_READER_H */
