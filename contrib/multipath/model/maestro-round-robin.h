/*
 * Maestro round-robin chunk placement.
 */
#ifndef MAESTRO_ROUND_ROBIN_H
#define MAESTRO_ROUND_ROBIN_H

#include "maestro-load-balancer.h"

namespace ns3
{

/**
 * \ingroup multipath
 * Strict round robin over the usable paths: chunk k goes to the k-th usable path
 * in turn, waiting for that path if it is full. Every path carries the same share
 * whatever its bandwidth (the baseline the proportional policy improves on).
 */
class MaestroRoundRobin : public MaestroLoadBalancer
{
  public:
    static TypeId GetTypeId();

  private:
    int64_t DoSelectPath(const MaestroPathMonitor& monitor, uint64_t chunkBytes,
                         uint64_t messageBytes, uint32_t liveLimit) override;

    uint32_t m_next{0};
};

} // namespace ns3

#endif /* MAESTRO_ROUND_ROBIN_H */
