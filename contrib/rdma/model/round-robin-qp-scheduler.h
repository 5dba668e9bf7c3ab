/*
 * Round robin over the queue pairs that have work (the NIC's default scheduler).
 */
#ifndef ROUND_ROBIN_QP_SCHEDULER_H
#define ROUND_ROBIN_QP_SCHEDULER_H

#include "qp-scheduler.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * One packet per turn, round robin over the active QPs, skipping those whose
 * class is paused by PFC or whose rate limiter holds them. No NIC resource is
 * modelled: work requests and contexts are always at hand (an ideal NIC, the
 * assumption of most RoCE simulators).
 *
 * A QP whose per-burst pacer is inside a burst keeps its turn until the burst
 * ends. With HeadOfLineBlocking (off by default) the scheduler models the
 * "congestion leaking" firmware flaw of Azure NSDI'23 section 8.3: it waits for
 * the rate limiter of the QP whose turn it is instead of skipping it, so every
 * QP of the NIC sends one packet (or burst) per round and all are throttled to
 * the rate of the slowest.
 */
class RoundRobinQpScheduler : public QpScheduler
{
  public:
    static TypeId GetTypeId();

    void NotifyTxWork(RdmaQueuePair* qp) override;
    Ptr<Packet> Dequeue(uint8_t pausedMask, RdmaQueuePair*& qp, Time& wakeAt) override;
    bool IsIdle() const override;

  protected:
    void DoDispose() override;

  private:
    std::vector<RdmaQueuePair*> m_active; //!< QPs that may have transmit work
    std::size_t m_rrNext{0};
    bool m_headOfLineBlocking{false}; //!< Azure section 8.3 flaw: wait for the head QP
};

} // namespace ns3

#endif /* ROUND_ROBIN_QP_SCHEDULER_H */
