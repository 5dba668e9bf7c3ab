/*
 * Ring collectives (allreduce, allgather) of distributed data-parallel training.
 */
#ifndef MAESTRO_COLLECTIVE_H
#define MAESTRO_COLLECTIVE_H

#include "maestro-ring-link.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup multipath
 * The communication pattern of data-parallel training (SOSR'21 §2, §6.4): every
 * iteration all workers compute for ComputeTime (the "off" phase), then exchange
 * the model's gradients with a ring collective (the "on" phase):
 *  - ring-allreduce: 2(N−1) steps (reduce-scatter, then allgather); in each step
 *    every worker sends one of N segments of the model to its successor;
 *  - allgather: the N−1 allgather steps only.
 * A worker sends step k once its own step k−1 has completed and it has received
 * its predecessor's step k−1. The iteration's communication time runs from the
 * end of the compute phase until every worker has sent and received every step;
 * step k is done (StepDone) when every worker has completed its step k.
 * Model bytes = ModelSize × ModelScale (the scale shrinks runs for CI).
 */
class MaestroCollective : public Object
{
  public:
    enum Pattern
    {
        RING_ALLREDUCE,
        ALLGATHER,
    };

    static TypeId GetTypeId();
    MaestroCollective();

    /** links[i] goes from worker i to worker (i + 1) mod N. */
    void SetLinks(std::vector<Ptr<MaestroRingLink>> links);
    /** Start the first iteration now. */
    void Start();

    uint64_t GetModelBytes() const;
    uint64_t GetSegmentBytes() const;
    uint32_t GetNSteps() const;
    /** Communication time of each finished iteration. */
    const std::vector<Time>& GetCommunicationTimes() const;

    /** TracedCallback signature for IterationDone. */
    typedef void (*IterationDoneCallback)(uint32_t iteration, Time communication);
    /** TracedCallback signature for StepDone. */
    typedef void (*StepDoneCallback)(uint32_t iteration, uint32_t step, Time sinceStart);

  protected:
    void DoDispose() override;

  private:
    void StartCommunication();
    void Advance(uint32_t w);
    void OnSent(uint32_t w, Time now);

    Pattern m_pattern;
    uint64_t m_modelSize;
    double m_modelScale;
    Time m_computeTime;
    uint32_t m_iterations;

    std::vector<Ptr<MaestroRingLink>> m_links;
    std::vector<uint32_t> m_sent; //!< steps completed per worker this iteration
    uint32_t m_stepsDone{0};      //!< steps every worker has completed this iteration
    uint32_t m_iteration{0};
    Time m_commStart;
    std::vector<Time> m_commTimes;
    EventId m_computeEvent;
    TracedCallback<uint32_t, Time> m_iterationDoneTrace;
    TracedCallback<uint32_t, uint32_t, Time> m_stepDoneTrace;
};

} // namespace ns3

#endif /* MAESTRO_COLLECTIVE_H */
