/*
 * The per-packet choice of an egress port inside an ECMP group, where a switch
 * does more than hash the flow.
 */
#ifndef DCB_LOAD_BALANCER_H
#define DCB_LOAD_BALANCER_H

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

class DcbSwitch;

/**
 * \ingroup dcb
 * An ECMP group as the forwarding table holds it: \c size egress ports at \c ports.
 * \c id tells groups of one switch apart (their offset in the switch's concatenated
 * group table, so smaller than the sum of the group sizes).
 */
struct DcbEcmpGroup
{
    const uint32_t* ports;
    uint32_t size;
    uint32_t id;
};

/**
 * \ingroup dcb
 * Picks the egress port of a packet among an ECMP group's ports (DcbSwitch attribute
 * LoadBalancer; without one the switch hashes, Hash % size). Select is called once per
 * packet routed to a group of two or more ports; subclasses implement DoSelect with
 * bounded state (no map and no allocation per packet).
 *
 * One object per switch: the state (counters, flowlet table) is the switch's. Select
 * refuses a second switch.
 */
class DcbLoadBalancer : public Object
{
  public:
    static TypeId GetTypeId();
    DcbLoadBalancer();
    ~DcbLoadBalancer() override;

    /**
     * \param sw the switch forwarding the packet (its ports' queue depths)
     * \param group the candidate egress ports (at least two)
     * \param flowHash the switch's ECMP hash of the packet's 5-tuple
     * \param now the current simulation time
     * \return the index in \p group of the port to use (below group.size)
     */
    uint32_t Select(const DcbSwitch& sw, const DcbEcmpGroup& group, uint32_t flowHash, Time now);

    /**
     * Use fixed random streams from \p stream on (RandomVariableStream::SetStream).
     * \return the number of streams used
     */
    virtual int64_t AssignStreams(int64_t stream);

  protected:
    /**
     * Bytes queued at \p port of \p sw, in class \p cls or, with \p cls
     * DcbNetDevice::N_CLASSES, in all classes.
     */
    static uint64_t QueuedBytes(const DcbSwitch& sw, uint32_t port, uint8_t cls);
    /**
     * \return the index of the port of \p group with the fewest QueuedBytes; among
     * equal ones, the (flowHash mod their number)-th, so that flows tie-break apart
     */
    static uint32_t LeastQueued(const DcbSwitch& sw, const DcbEcmpGroup& group, uint32_t flowHash,
                                uint8_t cls);

  private:
    virtual uint32_t DoSelect(const DcbSwitch& sw, const DcbEcmpGroup& group, uint32_t flowHash,
                              Time now) = 0;

    const DcbSwitch* m_switch{nullptr}; //!< the switch of the first Select
};

} // namespace ns3

#endif /* DCB_LOAD_BALANCER_H */
