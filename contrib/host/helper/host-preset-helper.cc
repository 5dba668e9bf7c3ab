/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "host-preset-helper.h"

#include "ns3/gpu-device.h"
#include "ns3/memory-channel.h"
#include "ns3/pcie-link.h"
#include "ns3/pcie-switch.h"
#include "ns3/rnic-port.h"
#include "ns3/root-complex.h"
#include "ns3/root-port.h"
#include "ns3/socket-link.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <string>

namespace ns3
{

Ptr<HostModel>
HostPresetHelper::CreatePlainServer() const
{
    auto host = CreateObject<HostModel>();
    host->AddDevice("rnic0", CreateObject<RnicPort>());
    host->AddDevice("rp0", CreateObject<RootPort>());
    host->AddDevice("rc0", CreateObject<RootComplex>());
    host->AddDevice("mem0", CreateObject<MemoryChannel>());
    host->AddLink("pcie-rnic0", CreateObject<PcieLink>(), "rnic0", "rp0");
    host->Connect("rp0", "rc0");
    host->Connect("rc0", "mem0");
    return host;
}

Ptr<HostModel>
HostPresetHelper::CreateDgxLike() const
{
    auto host = CreateObject<HostModel>();
    auto n = [](const std::string& prefix, uint32_t i) { return prefix + std::to_string(i); };
    for (uint32_t s = 0; s < 2; ++s)
    {
        host->AddDevice(n("rc", s), CreateObject<RootComplex>());
        host->AddDevice(n("mem", s), CreateObject<MemoryChannel>());
        host->Connect(n("rc", s), n("mem", s));
    }
    host->AddLink("upi", CreateObject<SocketLink>(), "rc0", "rc1");
    for (uint32_t k = 0; k < 4; ++k)
    {
        host->AddDevice(n("rp", k), CreateObject<RootPort>());
        host->Connect(n("rp", k), n("rc", k / 2));
        host->AddDevice(n("swu", k), CreateObject<PcieSwitch>());
        host->AddDevice(n("swa", k), CreateObject<PcieSwitch>());
        host->AddDevice(n("swb", k), CreateObject<PcieSwitch>());
        host->AddDevice(n("rnic", k), CreateObject<RnicPort>());
        host->AddDevice(n("gpu", 2 * k), CreateObject<GpuDevice>());
        host->AddDevice(n("gpu", 2 * k + 1), CreateObject<GpuDevice>());
        host->AddLink(n("pcie-rp", k), CreateObject<PcieLink>(), n("swu", k), n("rp", k));
        host->AddLink(n("pcie-swa", k), CreateObject<PcieLink>(), n("swa", k), n("swu", k));
        host->AddLink(n("pcie-swb", k), CreateObject<PcieLink>(), n("swb", k), n("swu", k));
        host->AddLink(n("pcie-rnic", k), CreateObject<PcieLink>(), n("rnic", k), n("swa", k));
        host->AddLink(n("pcie-gpu", 2 * k), CreateObject<PcieLink>(), n("gpu", 2 * k), n("swa", k));
        host->AddLink(n("pcie-gpu", 2 * k + 1), CreateObject<PcieLink>(), n("gpu", 2 * k + 1),
                      n("swb", k));
    }
    return host;
}

std::vector<std::string>
HostPresetHelper::Names()
{
    return {"plain", "dgx-like", "azure-gen3"};
}

Ptr<HostModel>
HostPresetHelper::Create(const std::string& name, const JsonSchemaReader& reader,
                         const std::string& pointer) const
{
    if (name == "plain")
    {
        return CreatePlainServer();
    }
    if (name == "dgx-like")
    {
        return CreateDgxLike();
    }
    if (name == "azure-gen3")
    {
        // Azure NSDI'23 section 8.3: the NIC's PCIe Gen3 x16 is the receivers' bottleneck
        // when loopback traffic shares it.
        Ptr<HostModel> host = CreatePlainServer();
        host->GetResource("pcie-rnic0")->SetAttribute("Generation", UintegerValue(3));
        host->GetResource("pcie-rnic0")->SetAttribute("Lanes", UintegerValue(16));
        return host;
    }
    reader.Fail(pointer,
                "unknown host preset '" + name + "' (allowed: plain, dgx-like, azure-gen3)");
}

void
HostPresetHelper::SetResourceAttribute(Ptr<HostModel> host, const std::string& resource,
                                       const std::string& attribute, const std::string& value,
                                       const JsonSchemaReader& reader, const std::string& pointer)
{
    Ptr<HostResource> r = host->GetResource(resource);
    if (!r)
    {
        reader.Fail(pointer, "no resource '" + resource + "' in the host model");
    }
    if (!r->SetAttributeFailSafe(attribute, StringValue(value)))
    {
        reader.Fail(pointer, "value '" + value + "' of attribute '" + attribute +
                                 "' is not accepted by " + r->GetInstanceTypeId().GetName());
    }
}

} // namespace ns3
