/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gpu-device.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(GpuDevice);

TypeId
GpuDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GpuDevice")
            .SetParent<HostResource>()
            .SetGroupName("Host")
            .AddConstructor<GpuDevice>()
            .AddAttribute(
                "MemoryBandwidth",
                "GPU memory bandwidth, both directions together. Default 12.44 Tb/s: "
                "A100 40 GB HBM2, 1555 GB/s (NVIDIA A100 datasheet).",
                DataRateValue(DataRate("12440Gbps")),
                MakeDataRateAccessor(&RatedHostResource::SetRate, &RatedHostResource::GetRate),
                MakeDataRateChecker())
            .AddAttribute("Latency",
                          "Round-trip time the GPU's BAR/memory adds to a GDR read. Default 340 "
                          "ns, calibrated so that an RNIC reading the GPU under the same PCIe "
                          "switch sees Hostping's 1.0 us (Fig. 4).",
                          TimeValue(NanoSeconds(340)),
                          MakeTimeAccessor(&HostResource::SetLatency, &HostResource::GetLatency),
                          MakeTimeChecker());
    return tid;
}

GpuDevice::GpuDevice()
    : RatedHostResource(DataRate("12440Gbps"), AGGREGATE)
{
}

} // namespace ns3
