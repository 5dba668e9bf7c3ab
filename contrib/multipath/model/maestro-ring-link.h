/*
 * One hop of a ring workload: a message channel from one worker to the next,
 * over a Maestro endpoint or over a single RDMA queue pair (the ECMP baseline).
 */
#ifndef MAESTRO_RING_LINK_H
#define MAESTRO_RING_LINK_H

#include "maestro-endpoint.h"

#include "ns3/callback.h"
#include "ns3/object.h"
#include "ns3/rdma-nic.h"

namespace ns3
{

/**
 * \ingroup multipath
 * Sends one message at a time from a worker to its successor and calls back when
 * it has completed at the sender. An RC WRITE completes when the receiver has
 * acknowledged every byte, so the completion also tells the workload that the data
 * is placed at the successor (the paper notifies the receiver with an immediate;
 * the workload, which sees both ends, uses the sender's completion instead).
 */
class MaestroRingLink : public Object
{
  public:
    static TypeId GetTypeId();

    /** Messages go through a Maestro endpoint (multi-path). */
    static Ptr<MaestroRingLink> OverEndpoint(Ptr<MaestroEndpoint> endpoint);
    /** Messages go as single WRITEs on \p qp of \p nic (single path, ECMP-hashed). */
    static Ptr<MaestroRingLink> OverQueuePair(Ptr<RdmaNic> nic, Ptr<RdmaQueuePair> qp);

    /** Called with the completion time of each message. */
    void SetDoneCallback(Callback<void, Time> done);
    /** Post a WRITE of \p bytes to \p remoteAddr; one message at a time. */
    void Send(uint64_t bytes, uint64_t remoteAddr);
    bool IsBusy() const;
    /** Messages that completed with an error (reported done all the same). */
    uint64_t GetNFailed() const;
    Ptr<MaestroEndpoint> GetEndpoint() const;

  protected:
    void DoDispose() override;

  private:
    void OnMessage(const MaestroMessageCompletion& c);
    void OnCompletion(const RdmaCompletion& c);
    void Finish(bool success);

    Ptr<MaestroEndpoint> m_endpoint;
    Ptr<RdmaQueuePair> m_qp;
    Callback<void, Time> m_done;
    bool m_busy{false};
    uint64_t m_failed{0};
};

} // namespace ns3

#endif /* MAESTRO_RING_LINK_H */
