/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "memory-channel.h"

#include "ns3/abort.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MemoryChannel);

TypeId
MemoryChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MemoryChannel")
            .SetParent<HostResource>()
            .SetGroupName("Host")
            .AddConstructor<MemoryChannel>()
            .AddAttribute("ChannelRate",
                          "Peak rate of one channel. Default 204.8 Gb/s: DDR4-3200, 64-bit "
                          "channel, 25.6 GB/s (JEDEC JESD79-4).",
                          DataRateValue(DataRate("204.8Gbps")),
                          MakeDataRateAccessor(&MemoryChannel::SetChannelRate,
                                               &MemoryChannel::GetChannelRate),
                          MakeDataRateChecker())
            .AddAttribute(
                "Channels",
                "Populated channels per socket. Default 8 (Intel Xeon Scalable 3rd "
                "gen: eight DDR4-3200 channels per socket).",
                UintegerValue(8),
                MakeUintegerAccessor(&MemoryChannel::SetChannels, &MemoryChannel::GetChannels),
                MakeUintegerChecker<uint32_t>(1, 16))
            .AddAttribute("FailedChannels", "Channels that are down (0 .. Channels). Default 0.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MemoryChannel::SetFailedChannels,
                                               &MemoryChannel::GetFailedChannels),
                          MakeUintegerChecker<uint32_t>(0, 16))
            .AddAttribute("Latency",
                          "Round-trip time the memory controller and DRAM add to a read. "
                          "Default 90 ns, an idle DRAM access on a Xeon server (Intel MLC "
                          "idle latency order).",
                          TimeValue(NanoSeconds(90)),
                          MakeTimeAccessor(&HostResource::SetLatency, &HostResource::GetLatency),
                          MakeTimeChecker());
    return tid;
}

MemoryChannel::MemoryChannel()
    : m_channelRate(DataRate("204.8Gbps"))
    , m_channels(8)
    , m_failedChannels(0)
{
}

void
MemoryChannel::SetFailedChannels(uint32_t n)
{
    m_failedChannels = n;
    NotifyChanged();
}

uint32_t
MemoryChannel::GetFailedChannels() const
{
    return m_failedChannels;
}

void
MemoryChannel::SetChannelRate(DataRate rate)
{
    m_channelRate = rate;
    NotifyChanged();
}

DataRate
MemoryChannel::GetChannelRate() const
{
    return m_channelRate;
}

void
MemoryChannel::SetChannels(uint32_t n)
{
    m_channels = n;
    NotifyChanged();
}

uint32_t
MemoryChannel::GetChannels() const
{
    return m_channels;
}

DataRate
MemoryChannel::DoGetCapacity() const
{
    uint32_t working = m_channels - std::min(m_channels, m_failedChannels);
    return DataRate(m_channelRate.GetBitRate() * working);
}

HostResource::Sharing
MemoryChannel::DoGetSharing() const
{
    return AGGREGATE;
}

} // namespace ns3
