/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PCIE_SWITCH_H
#define PCIE_SWITCH_H

#include "rated-host-resource.h"

namespace ns3
{

/**
 * \ingroup host
 * A PCIe switch (a device of the intra-host graph). Its fabric is rarely the bottleneck; its
 * latency is what the GDR distances of Hostping Fig. 4 add up.
 */
class PcieSwitch : public RatedHostResource
{
  public:
    static TypeId GetTypeId();
    PcieSwitch();
};

} // namespace ns3

#endif /* PCIE_SWITCH_H */
