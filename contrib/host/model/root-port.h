/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROOT_PORT_H
#define ROOT_PORT_H

#include "rated-host-resource.h"

namespace ns3
{

/**
 * \ingroup host
 * A CPU root port: where the PCIe hierarchy under one socket attaches to its root complex. Hostping
 * Fig. 2 failure 3 is a failed root port.
 */
class RootPort : public RatedHostResource
{
  public:
    static TypeId GetTypeId();
    RootPort();
};

} // namespace ns3

#endif /* ROOT_PORT_H */
