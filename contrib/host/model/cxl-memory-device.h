/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CXL_MEMORY_DEVICE_H
#define CXL_MEMORY_DEVICE_H

#include "host-resource.h"

namespace ns3
{

/**
 * \ingroup host
 * A CXL type-3 memory device (memory expander) of a memory pool: DRAM channels behind a
 * CXL controller. Its capacity, Channels x ChannelRate, is shared by reads and writes
 * (AGGREGATE, like MemoryChannel); its latency is the DRAM access plus the CXL controller
 * and port, about 80 ns more than local memory for a directly attached device.
 */
class CxlMemoryDevice : public HostResource
{
  public:
    static TypeId GetTypeId();
    CxlMemoryDevice();

  private:
    DataRate DoGetCapacity() const override;
    Sharing DoGetSharing() const override;
    void SetChannelRate(DataRate rate);
    DataRate GetChannelRate() const;
    void SetChannels(uint32_t n);
    uint32_t GetChannels() const;

    DataRate m_channelRate;
    uint32_t m_channels;
};

} // namespace ns3

#endif /* CXL_MEMORY_DEVICE_H */
