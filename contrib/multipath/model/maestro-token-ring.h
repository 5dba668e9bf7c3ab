/*
 * A token passed around a ring of workers: the mice-flow latency benchmark.
 */
#ifndef MAESTRO_TOKEN_RING_H
#define MAESTRO_TOKEN_RING_H

#include "maestro-ring-link.h"

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup multipath
 * Worker 0 writes a TokenSize-byte token to worker 1; when it has arrived (the
 * WRITE completed), worker 1 passes it on, and so on around the ring, Rounds
 * times (SOSR'21 §6.2, the mice benchmark). Reports the time of every round.
 */
class MaestroTokenRing : public Object
{
  public:
    static TypeId GetTypeId();
    MaestroTokenRing();

    /** links[i] goes from worker i to worker (i + 1) mod N. */
    void SetLinks(std::vector<Ptr<MaestroRingLink>> links);
    void Start();
    const std::vector<Time>& GetRoundTimes() const;

    /** TracedCallback signature for RoundDone. */
    typedef void (*RoundDoneCallback)(uint32_t round, Time duration);

  protected:
    void DoDispose() override;

  private:
    void OnPassed(uint32_t w, Time now);

    uint64_t m_tokenSize;
    uint32_t m_rounds;
    std::vector<Ptr<MaestroRingLink>> m_links;
    Time m_roundStart;
    std::vector<Time> m_roundTimes;
    TracedCallback<uint32_t, Time> m_roundDoneTrace;
};

} // namespace ns3

#endif /* MAESTRO_TOKEN_RING_H */
