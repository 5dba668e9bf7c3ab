/*
 * SRNIC's cache-free QP scheduler (Wang et al., NSDI'23, section 4.3).
 */
#ifndef SRNIC_QP_SCHEDULER_H
#define SRNIC_QP_SCHEDULER_H

#include "fetch-qp-scheduler.h"

namespace ns3
{

/**
 * \ingroup rdma
 * No WQE cache: each turn of a ready QP (active and holding credit) fetches up to
 * WqesPerFetch WQEs over PCIe (one PcieRoundTrip; a second one when the NIC's
 * cache model misses the QPC or MTT entry, which must be read first) and sends at
 * most min(BurstBytes, credit) bytes, credit being the room in the congestion
 * window. WQEs the turn did not use are dropped and fetched again next turn. One
 * QP is therefore bounded by WqesPerFetch messages per round trip (8 / 1.1 us =
 * 7.27 Mrps), while fetches of different QPs overlap. With a host model
 * (SetHostModel) the fetch reads min(WqesPerFetch, the QP's unsent WQEs) x WqeBytes
 * (at least one WQE) by DMA, with any QPC/MTT fill, from host memory.
 */
class SrnicQpScheduler : public FetchQpScheduler
{
  public:
    static TypeId GetTypeId();

  protected:
    Time FetchDelay(RdmaQueuePair* qp) override;
    void BeginTurn(RdmaQueuePair* qp) override;
    bool OnPacketSent(RdmaQueuePair* qp, uint32_t payload, bool endsWqe) override;
    bool PrefetchesNextTurn() const override;
    uint64_t FetchReadBytes(RdmaQueuePair* qp) override;

  public:
    /** With a host model the turn's batch read holds every WQE the turn opens. */
    bool WqeAlreadyRead(RdmaQueuePair* qp) const override;

  private:
    uint32_t m_wqesPerFetch;
    uint32_t m_burstBytes;
    uint32_t m_wqeBytes;
    uint32_t m_wqesLeft{0};
    uint64_t m_bytesLeft{0};
};

} // namespace ns3

#endif /* SRNIC_QP_SCHEDULER_H */
