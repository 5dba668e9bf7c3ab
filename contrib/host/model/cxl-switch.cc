/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cxl-switch.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CxlSwitch);

TypeId
CxlSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CxlSwitch")
            .SetParent<HostResource>()
            .SetGroupName("Host")
            .AddConstructor<CxlSwitch>()
            .AddAttribute(
                "SwitchingCapacity",
                "Switching capacity per direction, shared by all streams crossing the "
                "switch. Default 15.36 Tb/s: 16 CXL 3.0 x16 ports of 960 Gb/s "
                "(assumption: a non-blocking rack switch).",
                DataRateValue(DataRate("15360Gbps")),
                MakeDataRateAccessor(&RatedHostResource::SetRate, &RatedHostResource::GetRate),
                MakeDataRateChecker())
            .AddAttribute("Latency",
                          "Round-trip time added to a read crossing the switch. Default 70 ns "
                          "per switch hop (DFabric section 2.1, citing Pond, ASPLOS'23).",
                          TimeValue(NanoSeconds(70)),
                          MakeTimeAccessor(&HostResource::SetLatency, &HostResource::GetLatency),
                          MakeTimeChecker());
    return tid;
}

CxlSwitch::CxlSwitch()
    : RatedHostResource(DataRate("15360Gbps"), DUPLEX)
{
}

} // namespace ns3
