/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HOST_PRESET_HELPER_H
#define HOST_PRESET_HELPER_H

#include "ns3/host-model.h"
#include "ns3/json-schema-reader.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup host
 * Builds the preset intra-host graphs. Every resource keeps its TypeId defaults; change
 * them afterwards through HostModel::GetResource(name).
 *
 * Plain server: rnic0 -[pcie-rnic0, Gen4 x16]- rp0 - rc0 - mem0.
 *
 * DGX-like (Hostping Fig. 2): two sockets joined by "upi"; socket s has root complex rc<s>,
 * memory mem<s> and root ports rp<2s>, rp<2s+1>. Under root port k: the link pcie-rp<k> to
 * switch swu<k>, which has two leaf switches swa<k> (links pcie-swa<k>) and swb<k>
 * (pcie-swb<k>). swa<k> holds rnic<k> (pcie-rnic<k>) and gpu<2k> (pcie-gpu<2k>); swb<k>
 * holds gpu<2k+1> (pcie-gpu<2k+1>). So rnic0 reaches gpu0 over one switch (distance 1),
 * gpu1 over three (2), gpu2/gpu3 through rc0 (3), gpu4..gpu7 over UPI (4).
 *
 * A DFabric rack (CXL switch, pooled NICs, memory pool) is built by DfabricRackHelper.
 */
class HostPresetHelper
{
  public:
    Ptr<HostModel> CreatePlainServer() const;
    Ptr<HostModel> CreateDgxLike() const;

    /**
     * The presets by name: "plain" (CreatePlainServer), "dgx-like" (CreateDgxLike) and
     * "azure-gen3" (a plain server whose NIC sits on PCIe Gen3 x16, as the servers of
     * Azure's NSDI'23 section 8.3).
     */
    static std::vector<std::string> Names();
    /**
     * Build the preset \p name, the value at \p pointer of \p reader's file.
     * \throw ConfigError at \p pointer, naming the known presets, for an unknown name
     */
    Ptr<HostModel> Create(const std::string& name, const JsonSchemaReader& reader,
                          const std::string& pointer) const;
    /**
     * Set attribute \p attribute of the resource \p resource of \p host to \p value (ns-3
     * attribute syntax), the value at \p pointer of \p reader's file.
     * \throw ConfigError at \p pointer: no such resource, or the value is not accepted
     */
    static void SetResourceAttribute(Ptr<HostModel> host, const std::string& resource,
                                     const std::string& attribute, const std::string& value,
                                     const JsonSchemaReader& reader, const std::string& pointer);
};

} // namespace ns3

#endif /* HOST_PRESET_HELPER_H */
