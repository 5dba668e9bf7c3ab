/*
 * Maestro lowest-latency path for small messages.
 */
#ifndef MAESTRO_MIN_LATENCY_H
#define MAESTRO_MIN_LATENCY_H

#include "maestro-proportional.h"

namespace ns3
{

/**
 * \ingroup multipath
 * Messages no larger than the path monitor's SmallMessageThreshold go whole to the
 * usable path with the lowest measured latency (SOSR'21 §6.2 "adaptive path
 * selection", the 2-byte token ring); a path not measured yet is tried first (a
 * probe). Larger messages are placed as by MaestroProportional.
 */
class MaestroMinLatency : public MaestroProportional
{
  public:
    static TypeId GetTypeId();

  private:
    int64_t DoSelectPath(const MaestroPathMonitor& monitor, uint64_t chunkBytes,
                         uint64_t messageBytes, uint32_t liveLimit) override;
};

} // namespace ns3

#endif /* MAESTRO_MIN_LATENCY_H */
