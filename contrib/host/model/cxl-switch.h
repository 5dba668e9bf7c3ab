/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CXL_SWITCH_H
#define CXL_SWITCH_H

#include "rated-host-resource.h"

namespace ns3
{

/**
 * \ingroup host
 * A CXL (3.0 fabric) switch: a device of the rack graph joining compute nodes, memory
 * devices and pooled NICs. Each hop over a switch adds about 70 ns (DFabric section 2.1,
 * after Pond); a path over a multi-level fabric crosses several switches and adds their
 * latencies.
 */
class CxlSwitch : public RatedHostResource
{
  public:
    static TypeId GetTypeId();
    CxlSwitch();
};

} // namespace ns3

#endif /* CXL_SWITCH_H */
