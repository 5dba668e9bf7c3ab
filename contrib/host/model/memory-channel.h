/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MEMORY_CHANNEL_H
#define MEMORY_CHANNEL_H

#include "host-resource.h"

namespace ns3
{

/**
 * \ingroup host
 * The memory channels of one socket (one NUMA node) as a DMA endpoint. Accesses are
 * interleaved over the working channels, so the capacity is (Channels - FailedChannels) x
 * ChannelRate, reads and writes together. Failing channels models Hostping Fig. 2 failure 4.
 */
class MemoryChannel : public HostResource
{
  public:
    static TypeId GetTypeId();
    MemoryChannel();

    /// Set how many channels are down (0 .. Channels); they stop carrying traffic.
    void SetFailedChannels(uint32_t n);
    uint32_t GetFailedChannels() const;

  private:
    DataRate DoGetCapacity() const override;
    Sharing DoGetSharing() const override;
    void SetChannelRate(DataRate rate);
    DataRate GetChannelRate() const;
    void SetChannels(uint32_t n);
    uint32_t GetChannels() const;

    DataRate m_channelRate;
    uint32_t m_channels;
    uint32_t m_failedChannels;
};

} // namespace ns3

#endif /* MEMORY_CHANNEL_H */
