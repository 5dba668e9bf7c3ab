/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GPU_DEVICE_H
#define GPU_DEVICE_H

#include "host-resource.h"

namespace ns3
{

/**
 * \ingroup host
 * A GPU, as a DMA endpoint reached by GPUDirect RDMA.
 */
class GpuDevice : public HostResource
{
  public:
    static TypeId GetTypeId();
    GpuDevice();

  private:
    DataRate DoGetCapacity() const override;
    Sharing DoGetSharing() const override;
    void SetRate(DataRate rate);
    DataRate GetRate() const;

    DataRate m_rate;
};

} // namespace ns3

#endif /* GPU_DEVICE_H */
