/*
 * Maestro chunk placement in proportion to available bandwidth.
 */
#ifndef MAESTRO_PROPORTIONAL_H
#define MAESTRO_PROPORTIONAL_H

#include "maestro-load-balancer.h"

namespace ns3
{

/**
 * \ingroup multipath
 * Places each chunk on the usable path where it is expected to finish first,
 * (outstanding bytes + chunk) / estimated available bandwidth, waiting when that
 * path is full. In steady state each path holds work in proportion to its
 * bandwidth, so it carries traffic in that proportion (SOSR'21 §6.2, Fig. 12c), and
 * the message's chunks finish together. A usable path with nothing live is served
 * first so that its estimate keeps being measured (new or recovered paths are
 * detected; Maestro's lower bound of one live WR per path, §6.3).
 */
class MaestroProportional : public MaestroLoadBalancer
{
  public:
    static TypeId GetTypeId();

  protected:
    int64_t DoSelectPath(const MaestroPathMonitor& monitor, uint64_t chunkBytes,
                         uint64_t messageBytes, uint32_t liveLimit) override;
};

} // namespace ns3

#endif /* MAESTRO_PROPORTIONAL_H */
