/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rated-host-resource.h"

namespace ns3
{

RatedHostResource::RatedHostResource(DataRate rate, Sharing sharing)
    : m_rate(rate)
    , m_sharing(sharing)
{
}

void
RatedHostResource::SetRate(DataRate rate)
{
    m_rate = rate;
    NotifyChanged();
}

DataRate
RatedHostResource::GetRate() const
{
    return m_rate;
}

DataRate
RatedHostResource::DoGetCapacity() const
{
    return m_rate;
}

HostResource::Sharing
RatedHostResource::DoGetSharing() const
{
    return m_sharing;
}

} // namespace ns3
