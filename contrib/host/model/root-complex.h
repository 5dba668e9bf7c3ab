/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROOT_COMPLEX_H
#define ROOT_COMPLEX_H

#include "rated-host-resource.h"

namespace ns3
{

/**
 * \ingroup host
 * A CPU root complex (one per socket): the mesh joining root ports, memory channels and the
 * inter-socket link.
 */
class RootComplex : public RatedHostResource
{
  public:
    static TypeId GetTypeId();
    RootComplex();
};

} // namespace ns3

#endif /* ROOT_COMPLEX_H */
