/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "root-complex.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RootComplex);

TypeId
RootComplex::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RootComplex")
            .SetParent<HostResource>()
            .SetGroupName("Host")
            .AddConstructor<RootComplex>()
            .AddAttribute(
                "Capacity",
                "Capacity of the on-die mesh between root ports, memory controllers and "
                "the socket link, both directions together. Default 2 Tb/s: an "
                "assumption, not a bottleneck in any Hostping measurement.",
                DataRateValue(DataRate("2000Gbps")),
                MakeDataRateAccessor(&RatedHostResource::SetRate, &RatedHostResource::GetRate),
                MakeDataRateChecker())
            .AddAttribute(
                "Latency",
                "Round-trip time added by the mesh between a root port and the memory controller, "
                "the socket link or another root port. Default 50 ns, calibrated with SocketLink "
                "so that crossing UPI adds Hostping's 200 ns (Fig. 4).",
                TimeValue(NanoSeconds(50)),
                MakeTimeAccessor(&HostResource::SetLatency, &HostResource::GetLatency),
                MakeTimeChecker());
    return tid;
}

RootComplex::RootComplex()
    : RatedHostResource(DataRate("2000Gbps"), AGGREGATE)
{
}

} // namespace ns3
