/*
 * PFC deadlock detection: the wait-for graph of paused switch egress queues,
 * searched for cycles (Boost.Graph strong components) at every check.
 */
#ifndef PFC_DEADLOCK_MONITOR_H
#define PFC_DEADLOCK_MONITOR_H

#include "ns3/dcb-switch.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup dcb
 * Finds PFC deadlocks (cyclic buffer dependencies, Hu et al., HotNets 2016) among
 * the DcbSwitches it watches, every CheckInterval.
 *
 * The wait-for graph at a check:
 * - a node per switch egress queue (switch S, port p, class c) that is paused by
 *   its peer (DcbNetDevice::GetPausedMask) and holds bytes;
 * - when the peer of port p is switch N on port q, N paused S because N's ingress
 *   priority group (q, c) is full. The bytes of that group wait in N's egress
 *   queues (p', c) as frames that arrived on q (DcbNetDevice::GetQueueBytesWithTag).
 *   Node (S, p, c) has an edge to each such (N, p', c).
 *
 * A node is live when it can still move: its pause comes from a host (not a
 * switch), or some of the frames holding N's ingress group sit in a queue that is
 * not a node (not paused, so it drains and the group can fall to XON), or no
 * queued frame holds the group (XON is on its way); and, transitively, every node
 * with an edge to a live node is live. The other nodes wait only on paused queues
 * that wait in turn; a strongly connected component of them with two or more
 * queues (or one with an edge to itself) is a deadlock: no frame in it moves until
 * a pause is ignored (PfcWatchdog) or frames are dropped.
 *
 * Each deadlock is reported once while it lasts (a component with the same queues
 * at the next check is the same deadlock), through the Deadlock trace and
 * GetDeadlocks(): its queues in cycle order (from the lowest (switch, port, class)
 * along edges inside the component, then the rest of the component), the time it
 * formed (the latest pause onset among its queues) and the check that found it.
 * With StopOnDeadlock the simulation stops at that check.
 */
class PfcDeadlockMonitor : public Object
{
  public:
    /** One egress queue; sw indexes the switches given to Install. */
    struct Queue
    {
        uint32_t sw;
        uint32_t port;
        uint8_t cls;
        Time pausedSince; //!< onset of the pause in force at detection
        uint64_t bytes;   //!< bytes queued at detection
    };

    /** One deadlock: a strongly connected component of dead paused queues. */
    struct Deadlock
    {
        Time formed;   //!< latest pause onset among its queues
        Time detected; //!< the check that found it
        std::vector<Queue> queues;
    };

    /** (the deadlock just found). */
    using DeadlockCallback = void (*)(const Deadlock&);

    static TypeId GetTypeId();
    PfcDeadlockMonitor();
    ~PfcDeadlockMonitor() override;

    /**
     * Watch \p switches (after their Setup); the first check is at \p start +
     * CheckInterval.
     */
    void Install(const std::vector<Ptr<DcbSwitch>>& switches, Time start = Seconds(0));

    /** \return the deadlocks the current state holds (no report, no stop). */
    std::vector<Deadlock> Find() const;
    /** \return every deadlock reported so far, in detection order. */
    const std::vector<Deadlock>& GetDeadlocks() const;
    /** \return checks made so far. */
    uint64_t GetChecks() const;

  protected:
    void DoDispose() override;

  private:
    /** Where each switch port leads: (switch index, port), or -1 for a host. */
    struct Peer
    {
        int64_t sw{-1};
        uint32_t port{0};
    };

    void Check();

    // Attributes
    Time m_interval;
    bool m_stop;
    uint8_t m_classes;

    std::vector<Ptr<DcbSwitch>> m_switches;
    std::vector<std::vector<Peer>> m_peers;      //!< per switch, per port
    std::vector<std::vector<uint64_t>> m_active; //!< keys of the deadlocks still in force
    std::vector<Deadlock> m_deadlocks;
    uint64_t m_checks{0};
    EventId m_event;
    TracedCallback<const Deadlock&> m_deadlockTrace;
};

} // namespace ns3

#endif /* PFC_DEADLOCK_MONITOR_H */
