/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SOCKET_LINK_H
#define SOCKET_LINK_H

#include "host-resource.h"

namespace ns3
{

/**
 * \ingroup host
 * An inter-socket link (Intel UPI or AMD xGMI), a link of the intra-host graph.
 */
class SocketLink : public HostResource
{
  public:
    static TypeId GetTypeId();
    SocketLink();

  private:
    DataRate DoGetCapacity() const override;
    Sharing DoGetSharing() const override;
    void SetRate(DataRate rate);
    DataRate GetRate() const;

    DataRate m_rate;
};

} // namespace ns3

#endif /* SOCKET_LINK_H */
