/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cxl-memory-device.h"

#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CxlMemoryDevice);

TypeId
CxlMemoryDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CxlMemoryDevice")
            .SetParent<HostResource>()
            .SetGroupName("Host")
            .AddConstructor<CxlMemoryDevice>()
            .AddAttribute("ChannelRate",
                          "Peak rate of one DRAM channel of the device. Default 307.2 Gb/s: "
                          "DDR5-4800, 38.4 GB/s per channel (JEDEC JESD79-5).",
                          DataRateValue(DataRate("307.2Gbps")),
                          MakeDataRateAccessor(&CxlMemoryDevice::SetChannelRate,
                                               &CxlMemoryDevice::GetChannelRate),
                          MakeDataRateChecker())
            .AddAttribute(
                "Channels",
                "DRAM channels behind the CXL controller. Default 2 (a CXL 2.0 x8/x16 "
                "memory expander with two DDR5 channels; assumption).",
                UintegerValue(2),
                MakeUintegerAccessor(&CxlMemoryDevice::SetChannels, &CxlMemoryDevice::GetChannels),
                MakeUintegerChecker<uint32_t>(1, 16))
            .AddAttribute("Latency",
                          "Round-trip time the device adds to a read: DRAM access (90 ns, as "
                          "MemoryChannel) plus the CXL controller and port (80 ns; Pond, "
                          "ASPLOS'23: 70-90 ns over local DRAM). Default 170 ns.",
                          TimeValue(NanoSeconds(170)),
                          MakeTimeAccessor(&HostResource::SetLatency, &HostResource::GetLatency),
                          MakeTimeChecker());
    return tid;
}

CxlMemoryDevice::CxlMemoryDevice()
    : m_channelRate(DataRate("307.2Gbps"))
    , m_channels(2)
{
}

void
CxlMemoryDevice::SetChannelRate(DataRate rate)
{
    m_channelRate = rate;
    NotifyChanged();
}

DataRate
CxlMemoryDevice::GetChannelRate() const
{
    return m_channelRate;
}

void
CxlMemoryDevice::SetChannels(uint32_t n)
{
    m_channels = n;
    NotifyChanged();
}

uint32_t
CxlMemoryDevice::GetChannels() const
{
    return m_channels;
}

DataRate
CxlMemoryDevice::DoGetCapacity() const
{
    return DataRate(m_channelRate.GetBitRate() * m_channels);
}

HostResource::Sharing
CxlMemoryDevice::DoGetSharing() const
{
    return AGGREGATE;
}

} // namespace ns3
