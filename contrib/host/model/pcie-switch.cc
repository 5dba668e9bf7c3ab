/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pcie-switch.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PcieSwitch);

TypeId
PcieSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PcieSwitch")
            .SetParent<HostResource>()
            .SetGroupName("Host")
            .AddConstructor<PcieSwitch>()
            .AddAttribute(
                "SwitchingCapacity",
                "Switching capacity per direction, shared by all streams crossing the "
                "switch. Default 1.5 Tb/s: 98 Gen4 lanes x 16 GT/s x 128/130 (a Broadcom "
                "PEX88096-class switch).",
                DataRateValue(DataRate("1500Gbps")),
                MakeDataRateAccessor(&RatedHostResource::SetRate, &RatedHostResource::GetRate),
                MakeDataRateChecker())
            .AddAttribute("Latency",
                          "Round-trip time added to a read crossing the switch (both ways through "
                          "a cut-through Gen4 switch). Default 100 ns, calibrated with the other "
                          "hops to Hostping Fig. 4 (doc/host.md).",
                          TimeValue(NanoSeconds(100)),
                          MakeTimeAccessor(&HostResource::SetLatency, &HostResource::GetLatency),
                          MakeTimeChecker());
    return tid;
}

PcieSwitch::PcieSwitch()
    : RatedHostResource(DataRate("1500Gbps"), DUPLEX)
{
}

} // namespace ns3
