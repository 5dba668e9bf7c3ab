/*
 * Per-packet spraying: each packet of a flow takes a port of the group at random.
 */
#ifndef SPRAY_LOAD_BALANCER_H
#define SPRAY_LOAD_BALANCER_H

#include "dcb-load-balancer.h"

#include "ns3/random-variable-stream.h"

namespace ns3
{

/**
 * \ingroup dcb
 * Per-packet random spraying (the packet spraying of Ultra Ethernet 1.0, done here in
 * the switch): every packet draws an egress port of its ECMP group uniformly from
 * the balancer's own random stream, whatever its flow. Packets of a flow arrive out
 * of order where the paths' queues differ.
 */
class SprayLoadBalancer : public DcbLoadBalancer
{
  public:
    static TypeId GetTypeId();
    SprayLoadBalancer();
    ~SprayLoadBalancer() override;

    int64_t AssignStreams(int64_t stream) override;

  private:
    uint32_t DoSelect(const DcbSwitch& sw, const DcbEcmpGroup& group, uint32_t flowHash,
                      Time now) override;

    Ptr<UniformRandomVariable> m_rng;
};

} // namespace ns3

#endif /* SPRAY_LOAD_BALANCER_H */
