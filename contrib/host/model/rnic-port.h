/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RNIC_PORT_H
#define RNIC_PORT_H

#include "host-resource.h"

namespace ns3
{

/**
 * \ingroup host
 * The PCIe side of an RNIC: the initiator of every DMA. Its capacity is the line rate in
 * each direction (DMA reads feed transmission, DMA writes drain reception). Reads are
 * further limited by the outstanding-read budget, MaxOutstandingReads x MaxReadRequestSize
 * bytes in flight: by Little's law a read over a path of round-trip latency L runs at most
 * at budget / L. The default budget (68 x 512 B = 34,816 B) is fitted to Hostping Fig. 4.
 */
class RnicPort : public HostResource
{
  public:
    static TypeId GetTypeId();
    RnicPort();

    DataRate GetLineRate() const;
    /// \return the outstanding-read budget in bytes.
    uint64_t GetReadBudget() const;
    /// \return the read rate the budget allows over a path of round-trip latency
    /// pathLatency, not capped by the line rate.
    DataRate GetBudgetRate(Time pathLatency) const;

  private:
    DataRate DoGetCapacity() const override;
    Sharing DoGetSharing() const override;
    void SetLineRate(DataRate rate);
    bool SetMaxOutstandingReads(uint32_t n);
    uint32_t GetMaxOutstandingReads() const;
    bool SetMaxReadRequestSize(uint32_t bytes);
    uint32_t GetMaxReadRequestSize() const;

    DataRate m_lineRate;
    uint32_t m_maxOutstandingReads;
    uint32_t m_maxReadRequestSize;
};

} // namespace ns3

#endif /* RNIC_PORT_H */
