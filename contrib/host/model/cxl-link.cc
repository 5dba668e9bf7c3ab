/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cxl-link.h"

#include "ns3/double.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CxlLink);

TypeId
CxlLink::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CxlLink")
            .SetParent<HostResource>()
            .SetGroupName("Host")
            .AddConstructor<CxlLink>()
            .AddAttribute("LaneRate",
                          "Signalling rate of one lane. Default 64 Gb/s: the PCIe 6.0 PHY that "
                          "CXL 3.0 runs on (PAM4, no 128b/130b encoding).",
                          DataRateValue(DataRate("64Gbps")),
                          MakeDataRateAccessor(&CxlLink::SetLaneRate, &CxlLink::GetLaneRate),
                          MakeDataRateChecker())
            .AddAttribute(
                "Lanes", "Link width in lanes (1, 2, 4, 8, 16). Default 16 (a full CXL port).",
                UintegerValue(16), MakeUintegerAccessor(&CxlLink::SetLanes, &CxlLink::GetLanes),
                MakeUintegerChecker<uint32_t>(1, 16))
            .AddAttribute(
                "FlitEfficiency",
                "Share of the flit that carries slots (0..1]. Default 0.9375: a CXL "
                "3.0 256-byte flit holds 240 bytes of slots besides 2 B header, 8 B "
                "CRC and 6 B FEC (CXL 3.0 specification, 256B flit mode). Use "
                "64/68 = 0.941 for the 68-byte flit of CXL 1.1/2.0.",
                DoubleValue(0.9375),
                MakeDoubleAccessor(&CxlLink::SetFlitEfficiency, &CxlLink::GetFlitEfficiency),
                MakeDoubleChecker<double>(1e-3, 1.0))
            .AddAttribute("Latency",
                          "Round-trip time the link itself adds (SerDes and flight). Default "
                          "0 ns: the ~70 ns of a CXL hop is charged to the CxlSwitch and the "
                          "controller latency to the CxlMemoryDevice (Pond, ASPLOS'23).",
                          TimeValue(NanoSeconds(0)),
                          MakeTimeAccessor(&HostResource::SetLatency, &HostResource::GetLatency),
                          MakeTimeChecker());
    return tid;
}

CxlLink::CxlLink()
    : m_laneRate(DataRate("64Gbps"))
    , m_lanes(16)
    , m_flitEfficiency(0.9375)
{
}

bool
CxlLink::SetLanes(uint32_t lanes)
{
    if (lanes != 1 && lanes != 2 && lanes != 4 && lanes != 8 && lanes != 16)
    {
        return false;
    }
    m_lanes = lanes;
    NotifyChanged();
    return true;
}

uint32_t
CxlLink::GetLanes() const
{
    return m_lanes;
}

void
CxlLink::SetLaneRate(DataRate rate)
{
    m_laneRate = rate;
    NotifyChanged();
}

DataRate
CxlLink::GetLaneRate() const
{
    return m_laneRate;
}

void
CxlLink::SetFlitEfficiency(double efficiency)
{
    m_flitEfficiency = efficiency;
    NotifyChanged();
}

double
CxlLink::GetFlitEfficiency() const
{
    return m_flitEfficiency;
}

DataRate
CxlLink::DoGetCapacity() const
{
    return DataRate(static_cast<uint64_t>(m_laneRate.GetBitRate() * m_lanes * m_flitEfficiency));
}

HostResource::Sharing
CxlLink::DoGetSharing() const
{
    return DUPLEX;
}

} // namespace ns3
