/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RATED_HOST_RESOURCE_H
#define RATED_HOST_RESOURCE_H

#include "host-resource.h"

namespace ns3
{

/**
 * \ingroup host
 * A resource whose capacity is one configured rate, per direction or shared by both: the
 * behaviour of the root complex, root port, PCIe switch, socket link (UPI/xGMI), CXL switch
 * and GPU, written once. Each of them is a subclass that only names its TypeId, its rate
 * attribute ("Capacity", "SwitchingCapacity", "MemoryBandwidth") and latency attribute, and
 * their sourced defaults; they register with HostResource as their TypeId parent, so the
 * TypeIds and attributes users write stay as they were. Changing the rate re-shares the
 * running DMA streams (NotifyChanged).
 */
class RatedHostResource : public HostResource
{
  public:
    /** Set the capacity (the subclass's rate attribute). */
    void SetRate(DataRate rate);
    /** \return the configured capacity, failed or not. */
    DataRate GetRate() const;

  protected:
    /**
     * \param rate the default capacity (the rate attribute's default)
     * \param sharing whether \p rate is per direction or both together
     */
    RatedHostResource(DataRate rate, Sharing sharing);

  private:
    DataRate DoGetCapacity() const override;
    Sharing DoGetSharing() const override;

    DataRate m_rate;
    Sharing m_sharing;
};

} // namespace ns3

#endif /* RATED_HOST_RESOURCE_H */
