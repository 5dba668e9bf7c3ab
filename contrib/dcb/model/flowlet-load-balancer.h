/*
 * Flowlet switching: a flow changes port only after a pause longer than a gap.
 */
#ifndef FLOWLET_LOAD_BALANCER_H
#define FLOWLET_LOAD_BALANCER_H

#include "dcb-load-balancer.h"

#include "ns3/random-variable-stream.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup dcb
 * Flowlet switching after LetFlow (NSDI'17): a table of TableSize entries indexed by
 * the flow hash holds, per entry, when a packet last used it and the port it took.
 * A packet that finds its entry used by the same group no longer than Gap ago takes
 * the entry's port (the flowlet goes on); otherwise a new flowlet starts on a port
 * chosen by NewFlowletPort: at random (LetFlow) or the least-queued one (a local
 * stand-in for CONGA's congestion-aware choice). Flows whose hashes share an entry
 * share its flowlet, as in a hardware table without tags.
 */
class FlowletLoadBalancer : public DcbLoadBalancer
{
  public:
    /** How a new flowlet picks its port. */
    enum NewFlowletPort : uint8_t
    {
        RANDOM = 0,   //!< uniformly at random (LetFlow)
        LEAST_QUEUED, //!< fewest bytes queued in all classes, ties by flow hash
    };

    static TypeId GetTypeId();
    FlowletLoadBalancer();
    ~FlowletLoadBalancer() override;

    int64_t AssignStreams(int64_t stream) override;

  private:
    uint32_t DoSelect(const DcbSwitch& sw, const DcbEcmpGroup& group, uint32_t flowHash,
                      Time now) override;

    struct Entry
    {
        Time lastSeen;
        uint32_t group{UINT32_MAX}; //!< id of the group it was used for (none yet)
        uint32_t index{0};          //!< the port's index in that group
    };

    Time m_gap;
    uint32_t m_tableSize;
    NewFlowletPort m_newFlowletPort;
    Ptr<UniformRandomVariable> m_rng;
    std::vector<Entry> m_table; //!< sized at the first packet, never after
};

} // namespace ns3

#endif /* FLOWLET_LOAD_BALANCER_H */
