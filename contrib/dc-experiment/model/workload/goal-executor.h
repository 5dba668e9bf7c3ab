/*
 * Replays a GOAL schedule in simulated time over a GoalTransport.
 */
#ifndef GOAL_EXECUTOR_H
#define GOAL_EXECUTOR_H

#include "goal-schedule.h"
#include "goal-transport.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Runs a GoalSchedule, event by event (doc/collective-traces.md). An operation starts as
 * soon as every operation it "irequires" has started and every one it "requires" has
 * completed; operations without dependencies start at Start(). Then:
 * - calc waits its amount times CalcUnit and completes;
 * - send posts its message on the transport (from the host of its rank to the host of
 *   the destination rank) and completes when the transport says the send completed; a
 *   message between two ranks of one host is delivered at once, without the transport;
 * - recv completes when a message it matches has arrived: the first arrived message not
 *   yet taken from its source (or any, for -1) with its tag (or any, for -1); a message
 *   that arrives before a matching recv has started waits for one (MPI's unexpected
 *   queue), and an arriving message goes to the earliest started recv it matches.
 *
 * It records every operation's start and end, each rank's finish (its last operation's
 * end) and the makespan (the last end, from Start), and calls the done callback when
 * every operation has completed. Operations are indices and the per-operation state is
 * in vectors: nothing on the way of an operation is looked up by name.
 */
class GoalExecutor : public Object
{
  public:
    static TypeId GetTypeId();
    GoalExecutor();

    /**
     * Take \p schedule, to run rank r on host \p hostOfRank[r], its messages carried by
     * \p transport. \throw ExperimentConfigError when \p hostOfRank does not name one host
     * per rank, or a calc's amount times CalcUnit is past the simulator's time range
     */
    void Setup(GoalSchedule schedule, std::vector<uint32_t> hostOfRank,
               Ptr<GoalTransport> transport);
    /** \p done is called once, when every operation has completed. */
    void SetDoneCallback(Callback<void> done);
    /** Start the schedule now (once, after Setup). */
    void Start();

    const GoalSchedule& GetSchedule() const;
    /** \return true once every operation has completed. */
    bool IsDone() const;
    /** \return the operations completed so far. */
    uint32_t GetNCompleted() const;
    /** \return when Start was called. */
    Time GetStartTime() const;
    /** \return when \p op started (Time::Max() while it has not). */
    Time GetOpStart(uint32_t op) const;
    /** \return when \p op completed (Time::Max() while it has not). */
    Time GetOpEnd(uint32_t op) const;
    /**
     * \return for a recv, the send whose message it took; for a send, the recv that took
     * its message; UINT32_MAX for calc and while unmatched
     */
    uint32_t GetMatch(uint32_t op) const;
    /** \return when \p rank's last operation completed (Start for a rank without any). */
    Time GetRankFinish(uint32_t rank) const;
    /** \return the last completion so far, from Start: the makespan once done. */
    Time GetMakespan() const;
    /**
     * \return a line per operation not completed (at most \p max, and a count of the
     * rest): what it waits for. For the report of a run that ended before the schedule.
     */
    std::string DescribeStalled(uint32_t max) const;

    /** TracedCallback signature of OpDone: the operation, its start and its end. */
    typedef void (*OpDoneCallback)(uint32_t op, Time start, Time end);

  protected:
    void DoDispose() override;

  private:
    /** \p op's dependencies are met: start it when the ready list is drained. */
    void MakeReady(uint32_t op);
    /** Start the ready operations (and those they make ready) until none is left. */
    void Drain();
    void Begin(uint32_t op);
    void Complete(uint32_t op);
    void OnCalcDone(uint32_t op);
    void OnSent(uint32_t send);
    void OnArrived(uint32_t send);
    /** The message of \p send is at its destination: give it to a recv, or keep it. */
    void Arrive(uint32_t send);
    /** \return true if recv \p recv takes the message of send \p send. */
    bool Matches(uint32_t recv, uint32_t send) const;
    /** Record that recv \p recv took the message of \p send, and complete the recv. */
    void Take(uint32_t recv, uint32_t send);

    Time m_calcUnit;
    GoalSchedule m_schedule;
    std::vector<uint32_t> m_hostOfRank;
    Ptr<GoalTransport> m_transport;
    Callback<void> m_done;

    std::vector<uint32_t> m_waitStart; //!< per op: starts it still waits for
    std::vector<uint32_t> m_waitEnd;   //!< per op: completions it still waits for
    std::vector<Time> m_opStart;       //!< per op
    std::vector<Time> m_opEnd;         //!< per op
    std::vector<uint32_t> m_match;     //!< per op: the other end of its message
    std::vector<uint32_t> m_rankLeft;  //!< per rank: operations not completed
    std::vector<Time> m_rankFinish;    //!< per rank
    /** Per rank: its started recvs not yet matched, in start order. */
    std::vector<std::vector<uint32_t>> m_posted;
    /** Per rank: arrived messages (their sends) no recv took yet, in arrival order. */
    std::vector<std::vector<uint32_t>> m_unexpected;
    std::vector<uint32_t> m_ready; //!< operations to start, from m_readyHead on
    std::size_t m_readyHead{0};
    bool m_draining{false};
    bool m_started{false};
    uint32_t m_left{0};
    Time m_start;
    Time m_lastEnd;

    TracedCallback<uint32_t, Time, Time> m_opDoneTrace;
};

} // namespace ns3

#endif /* GOAL_EXECUTOR_H */
