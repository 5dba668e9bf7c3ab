/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RING_ALLREDUCE_H
#define RING_ALLREDUCE_H

#include "ring-hop.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup host
 * The ring collectives of data-parallel training, over any hop transport (RingHop): every
 * iteration all N ranks compute for ComputeTime (the "off" phase), then exchange the
 * model's gradients (the "on" phase):
 *  - ring allreduce: 2(N−1) steps (reduce-scatter, then allgather); in each step every rank
 *    sends one of N segments of the model (⌈bytes / N⌉) to its successor over its hop;
 *  - allgather: the N−1 allgather steps only.
 * When a rank sends step k is the Schedule: Pipelined, once its own step k−1 is placed and
 * its predecessor's step k−1 has arrived (the ring's data dependence; SOSR'21 §6.4);
 * Lockstep, once every hop of step k−1 is placed (synchronous steps, DFabric §2.2).
 * A step gate (SetStepGate) can hold each arrival, e.g. for the receiving rank to load
 * and reduce the segment; without one a hop's step is done when its message is placed.
 * The iteration's communication time runs from the end of the compute phase until every
 * rank has sent and received every step; step k is done (StepDone) when every rank has
 * completed its step k. Model bytes = ModelSize × ModelScale (the scale shrinks runs for
 * CI).
 */
class RingAllreduce : public Object
{
  public:
    enum Pattern
    {
        ALLREDUCE,
        ALLGATHER,
    };

    enum Schedule
    {
        PIPELINED,
        LOCKSTEP,
    };

    /**
     * A step gate: (step, receiving rank, segment bytes, done). The hop of step `step` into
     * `rank` counts as done when the gate calls `done` (once).
     */
    typedef Callback<void, uint32_t, uint32_t, uint64_t, Callback<void>> StepGate;

    static TypeId GetTypeId();
    RingAllreduce();

    /** hops[i] goes from rank i to rank (i + 1) mod N; at least two. */
    void SetHops(std::vector<Ptr<RingHop>> hops);
    /** Hold each arrival until \p gate calls its done callback (null: no gate). */
    void SetStepGate(StepGate gate);
    /** Start the first iteration's compute phase now. */
    void Start();

    /** \return N, the number of ranks (hops). */
    uint32_t GetRanks() const;
    uint64_t GetModelBytes() const;
    /** \return the bytes each rank sends per step: ⌈model bytes / N⌉. */
    uint64_t GetSegmentBytes() const;
    uint32_t GetNSteps() const;
    /** \return the communication time of each finished iteration. */
    const std::vector<Time>& GetCommunicationTimes() const;

    /** TracedCallback signature for IterationDone. */
    typedef void (*IterationDoneCallback)(uint32_t iteration, Time communication);
    /** TracedCallback signature for StepDone. */
    typedef void (*StepDoneCallback)(uint32_t iteration, uint32_t step, Time sinceStart);

  protected:
    void DoDispose() override;

  private:
    void StartCommunication();
    /** Send rank w's next step if the schedule lets it. */
    void Advance(uint32_t w);
    /** Hop w placed its message (the gate, if any, comes next). */
    void OnHopDone(uint32_t w, Time now);
    /** The gate released rank w's arrival. */
    void OnGateDone(uint32_t w);
    /** Rank w's current step is done. */
    void OnStepDone(uint32_t w);

    Pattern m_pattern;
    Schedule m_schedule;
    uint64_t m_modelSize;
    double m_modelScale;
    Time m_computeTime;
    uint32_t m_iterations;

    std::vector<Ptr<RingHop>> m_hops;
    StepGate m_gate;
    std::vector<uint32_t> m_sent; //!< steps completed per rank this iteration
    std::vector<bool> m_gated;    //!< per rank: its arrival waits for the gate
    uint32_t m_stepsDone{0};      //!< steps every rank has completed this iteration
    uint32_t m_iteration{0};
    Time m_commStart;
    std::vector<Time> m_commTimes;
    EventId m_computeEvent;
    TracedCallback<uint32_t, Time> m_iterationDoneTrace;
    TracedCallback<uint32_t, uint32_t, Time> m_stepDoneTrace;
};

} // namespace ns3

#endif /* RING_ALLREDUCE_H */
