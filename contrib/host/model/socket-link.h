/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SOCKET_LINK_H
#define SOCKET_LINK_H

#include "rated-host-resource.h"

namespace ns3
{

/**
 * \ingroup host
 * An inter-socket link (Intel UPI or AMD xGMI), a link of the intra-host graph.
 */
class SocketLink : public RatedHostResource
{
  public:
    static TypeId GetTypeId();
    SocketLink();
};

} // namespace ns3

#endif /* SOCKET_LINK_H */
