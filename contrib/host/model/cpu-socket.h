/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CPU_SOCKET_H
#define CPU_SOCKET_H

#include "host-resource.h"

namespace ns3
{

/**
 * \ingroup host
 * A CPU socket as a load/store initiator of a HostModel (the other initiator is RnicPort).
 * Its cores reach memory with synchronous cache-line loads and stores: at most MaxOutstanding
 * lines of CacheLineSize bytes are in flight (the line fill buffers / MSHRs), so by Little's
 * law a stream of loads over a path of round-trip latency L runs at most at
 * MaxOutstanding x CacheLineSize / L. CXL.mem stores are synchronous too (not posted like a
 * PCIe write): the same budget caps them. The socket itself is not a bandwidth limit.
 */
class CpuSocket : public HostResource
{
  public:
    static TypeId GetTypeId();
    CpuSocket();

    /// \return the load/store budget in bytes: MaxOutstanding x CacheLineSize.
    uint64_t GetBudget() const;
    /// \return the rate the budget allows over a path of round-trip latency pathLatency.
    DataRate GetBudgetRate(Time pathLatency) const;

  private:
    DataRate DoGetCapacity() const override;
    Sharing DoGetSharing() const override;
    bool SetMaxOutstanding(uint32_t n);
    uint32_t GetMaxOutstanding() const;
    bool SetCacheLineSize(uint32_t bytes);
    uint32_t GetCacheLineSize() const;

    uint32_t m_maxOutstanding;
    uint32_t m_cacheLineSize;
};

} // namespace ns3

#endif /* CPU_SOCKET_H */
