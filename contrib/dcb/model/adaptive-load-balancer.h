/*
 * Adaptive routing: each packet takes the group's egress port with the fewest bytes queued.
 */
#ifndef ADAPTIVE_LOAD_BALANCER_H
#define ADAPTIVE_LOAD_BALANCER_H

#include "dcb-load-balancer.h"

namespace ns3
{

/**
 * \ingroup dcb
 * Per-packet adaptive routing on local queue depth (DRILL, SIGCOMM'17, comparing all
 * the group's ports; the per-packet adaptive routing of NVIDIA Spectrum-X switches):
 * each packet leaves by the egress port of its group with the fewest bytes queued,
 * ties broken by the flow hash. Queues counts the bytes of all classes or of one
 * class only (the data's, with a lossless RoCE class apart from the rest).
 */
class AdaptiveLoadBalancer : public DcbLoadBalancer
{
  public:
    /** Which queues of an egress port count. */
    enum Queues : uint8_t
    {
        ALL_CLASSES = 0, //!< the bytes of all eight classes
        ONE_CLASS,       //!< the bytes of class Class only
    };

    static TypeId GetTypeId();
    AdaptiveLoadBalancer();
    ~AdaptiveLoadBalancer() override;

  private:
    uint32_t DoSelect(const DcbSwitch& sw, const DcbEcmpGroup& group, uint32_t flowHash,
                      Time now) override;

    Queues m_queues;
    uint8_t m_class;
};

} // namespace ns3

#endif /* ADAPTIVE_LOAD_BALANCER_H */
