/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "socket-link.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SocketLink);

TypeId
SocketLink::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SocketLink")
            .SetParent<HostResource>()
            .SetGroupName("Host")
            .AddConstructor<SocketLink>()
            .AddAttribute(
                "Capacity",
                "Inter-socket payload capacity per direction. Default 537.6 Gb/s: three "
                "Intel UPI links at 11.2 GT/s, 22.4 GB/s each per direction (Intel Xeon "
                "Scalable 3rd gen datasheet).",
                DataRateValue(DataRate("537.6Gbps")),
                MakeDataRateAccessor(&RatedHostResource::SetRate, &RatedHostResource::GetRate),
                MakeDataRateChecker())
            .AddAttribute("Latency",
                          "Round-trip time added by crossing the link. Default 150 ns: with the "
                          "remote root complex (50 ns) UPI adds the 200 ns of Hostping Fig. 4; "
                          "pcie-bench measured +100-110 ns per remote-socket hop on Xeon E5.",
                          TimeValue(NanoSeconds(150)),
                          MakeTimeAccessor(&HostResource::SetLatency, &HostResource::GetLatency),
                          MakeTimeChecker());
    return tid;
}

SocketLink::SocketLink()
    : RatedHostResource(DataRate("537.6Gbps"), DUPLEX)
{
}

} // namespace ns3
