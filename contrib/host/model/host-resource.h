/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HOST_RESOURCE_H
#define HOST_RESOURCE_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <string>

namespace ns3
{

/**
 * \ingroup host
 * One resource of the intra-host graph: a device (RNIC, PCIe switch, root port, root
 * complex, memory, GPU) or a link (PCIe, UPI/xGMI).
 *
 * Every resource has a DMA payload capacity and a latency: the round-trip time it adds
 * to a DMA read crossing it. Capacity is either per direction (duplex: links, RNIC, PCIe
 * switches, root ports) or shared by both directions (aggregate: DRAM, GPU memory, root
 * complex mesh). A failed resource has zero capacity. Subclasses compute the capacity in
 * DoGetCapacity and call NotifyChanged whenever it may have changed, so that the
 * HostModel owning them re-shares the bandwidth of the running DMA streams.
 */
class HostResource : public Object
{
  public:
    /// How the capacity is shared between the two directions of data.
    enum Sharing
    {
        DUPLEX,   //!< capacity per direction
        AGGREGATE //!< capacity shared by both directions
    };

    static TypeId GetTypeId();
    HostResource();
    ~HostResource() override;

    /// \return the DMA payload capacity per direction (DUPLEX) or in all (AGGREGATE); zero
    /// when failed.
    DataRate GetCapacity() const;
    /// \return the round-trip latency this resource adds to a DMA read crossing it.
    Time GetLatency() const;
    void SetLatency(Time latency);
    Sharing GetSharing() const;

    /// Fail (true) or repair (false) the resource.
    void SetFailed(bool failed);
    bool IsFailed() const;

    void SetResourceName(const std::string& name);
    const std::string& GetResourceName() const;

    /// Called (by the owning HostModel) whenever capacity or latency may have changed.
    void SetChangeCallback(Callback<void> cb);

  protected:
    void DoDispose() override;
    /// Subclasses call this after any change that affects capacity or latency.
    void NotifyChanged();

  private:
    virtual DataRate DoGetCapacity() const = 0;
    virtual Sharing DoGetSharing() const = 0;

    Time m_latency;
    bool m_failed;
    std::string m_name;
    Callback<void> m_changed;
    TracedCallback<DataRate> m_capacityTrace; //!< capacity after every change
};

} // namespace ns3

#endif /* HOST_RESOURCE_H */
