/*
 * Commercial RNIC scheduler: round robin whose turns stall on context-cache misses.
 */
#ifndef CACHED_QP_SCHEDULER_H
#define CACHED_QP_SCHEDULER_H

#include "fetch-qp-scheduler.h"

namespace ns3
{

/**
 * \ingroup rdma
 * The ConnectX shape of SRNIC section 3: QPs take one-packet turns in round-robin
 * order; a turn needs the QP's context, its current WQE and its buffer's
 * translation on chip (the NIC's RnicCacheModel, LRU). Any miss costs one PCIe
 * round trip (the three reads go out together) before the QP may send, with at
 * most MaxOutstandingFetches misses in flight. With active QPs beyond the cache,
 * round robin misses on every turn and throughput falls to
 * MaxOutstandingFetches × packet / PcieRoundTrip. Without a cache model every
 * access hits and this is a plain round robin.
 *
 * With a host model (SetHostModel) a WQE-cache miss's fill reads the QP's WQE over the host
 * path with the other fills; a work request that opens on a turn whose WQE entry hit (its
 * WQE prefetched into the cache) is read by the NIC's transmit pipeline (WqeAlreadyRead).
 */
class CachedQpScheduler : public FetchQpScheduler
{
  public:
    static TypeId GetTypeId();

  protected:
    Time FetchDelay(RdmaQueuePair* qp) override;
    void BeginTurn(RdmaQueuePair* qp) override;
    bool OnPacketSent(RdmaQueuePair* qp, uint32_t payload, bool endsWqe) override;
    bool PrefetchesNextTurn() const override;
    void DoDispose() override;

  public:
    /** \return true if \p qp's last fetch read its WQE (a WQE-cache miss over the host). */
    bool WqeAlreadyRead(RdmaQueuePair* qp) const override;

  private:
    std::vector<uint8_t> m_wqeFilled; //!< by QP index: the last fetch missed the WQE cache
};

} // namespace ns3

#endif /* CACHED_QP_SCHEDULER_H */
