/*
 * Maestro flowlet-style path reassignment on congestion (CNP bursts).
 */
#ifndef MAESTRO_FLOWLET_H
#define MAESTRO_FLOWLET_H

#include "maestro-load-balancer.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup multipath
 * Keeps the sender's chunks on one path (a "flowlet": one path, in order, as a
 * single QP would) until that path's QP has received CnpBurst CNPs since the path
 * was chosen, or it failed; then moves the following chunks to the usable path
 * with the fewest CNPs in the same interval, trying the paths after the congested
 * one first. Since each chunk is a WRITE to its final offset, the switch needs no
 * flowlet gap to avoid reordering harm. CNP counts are the QP counters that the
 * path monitor reads (SOSR'21 §4.2, DCQCN counters).
 */
class MaestroFlowlet : public MaestroLoadBalancer
{
  public:
    static TypeId GetTypeId();
    MaestroFlowlet();

    /** Times the flowlet moved to another path. */
    uint64_t GetNReassignments() const;
    /** Current path (-1 before the first chunk). */
    int64_t GetCurrentPath() const;

  private:
    int64_t DoSelectPath(const MaestroPathMonitor& monitor, uint64_t chunkBytes,
                         uint64_t messageBytes, uint32_t liveLimit) override;

    uint32_t m_cnpBurst;
    int64_t m_current{-1};
    std::vector<uint64_t> m_marks; //!< per path: CNP counter when the epoch began
    uint64_t m_reassignments{0};
};

} // namespace ns3

#endif /* MAESTRO_FLOWLET_H */
