/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "root-port.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RootPort);

TypeId
RootPort::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RootPort")
            .SetParent<HostResource>()
            .SetGroupName("Host")
            .AddConstructor<RootPort>()
            .AddAttribute(
                "Capacity",
                "Forwarding capacity of the CPU root port per direction. Default 512 "
                "Gb/s: not a bottleneck, the x16 link below it is a PcieLink.",
                DataRateValue(DataRate("512Gbps")),
                MakeDataRateAccessor(&RatedHostResource::SetRate, &RatedHostResource::GetRate),
                MakeDataRateChecker())
            .AddAttribute(
                "Latency",
                "Round-trip time added by the root port (IIO) to a read crossing it, peer-to-peer "
                "forwarding included. Default 365 ns, calibrated: two root ports and the root "
                "complex (780 ns) turn Hostping's 1.0 us GDR read into 2.2 us (Fig. 4).",
                TimeValue(NanoSeconds(365)),
                MakeTimeAccessor(&HostResource::SetLatency, &HostResource::GetLatency),
                MakeTimeChecker());
    return tid;
}

RootPort::RootPort()
    : RatedHostResource(DataRate("512Gbps"), DUPLEX)
{
}

} // namespace ns3
