/*
 * Per-packet round robin: the packets routed to an ECMP group take its ports in turn.
 */
#ifndef ROUND_ROBIN_LOAD_BALANCER_H
#define ROUND_ROBIN_LOAD_BALANCER_H

#include "dcb-load-balancer.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup dcb
 * Per-packet round robin: one counter per ECMP group; each packet routed to the
 * group, whatever its flow, leaves by the next port of the group (in port order),
 * starting with the first. Deterministic, and perfectly even in packets (not in
 * bytes where sizes differ).
 */
class RoundRobinLoadBalancer : public DcbLoadBalancer
{
  public:
    static TypeId GetTypeId();
    RoundRobinLoadBalancer();
    ~RoundRobinLoadBalancer() override;

  private:
    uint32_t DoSelect(const DcbSwitch& sw, const DcbEcmpGroup& group, uint32_t flowHash,
                      Time now) override;

    /**
     * Group id -> index of the port the group's next packet takes. Grows to the
     * largest group id seen (once per group, not per packet): bounded by the size of
     * the switch's group table.
     */
    std::vector<uint8_t> m_next;
};

} // namespace ns3

#endif /* ROUND_ROBIN_LOAD_BALANCER_H */
