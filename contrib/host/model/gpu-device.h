/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GPU_DEVICE_H
#define GPU_DEVICE_H

#include "rated-host-resource.h"

namespace ns3
{

/**
 * \ingroup host
 * A GPU, as a DMA endpoint reached by GPUDirect RDMA.
 */
class GpuDevice : public RatedHostResource
{
  public:
    static TypeId GetTypeId();
    GpuDevice();
};

} // namespace ns3

#endif /* GPU_DEVICE_H */
