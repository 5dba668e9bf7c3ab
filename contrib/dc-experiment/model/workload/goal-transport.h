/*
 * What carries a GOAL schedule's messages between hosts: the executor's transport slot.
 */
#ifndef GOAL_TRANSPORT_H
#define GOAL_TRANSPORT_H

#include "ns3/callback.h"
#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

/** \ingroup dc-experiment A message of a GOAL schedule, as the executor posts it. */
struct GoalMessage
{
    uint64_t bytes;   //!< the send's size
    uint32_t id;      //!< the send operation's index in the schedule: the message's name
    uint32_t srcRank; //!< the sending rank
    uint32_t dstRank; //!< the receiving rank
    uint32_t srcHost; //!< the host of srcRank
    uint32_t dstHost; //!< the host of dstRank (never srcHost: the executor keeps those)
    uint32_t tag;     //!< the send's tag
};

/**
 * \ingroup dc-experiment
 * Carries a GoalExecutor's messages from host to host: a fabric's RDMA queue pairs
 * (GoalRdmaTransport), or a model with no network in tests. The executor posts each
 * message once (Post) and learns, by the message's id, when its send completed at the
 * source (NotifySent: the buffer may be reused) and when it has arrived whole at its
 * destination (NotifyArrived), in either order. Recvs are matched in arrival order, so
 * a transport that keeps each host pair's messages in order (one reliable connection per
 * pair) gives MPI's non-overtaking rule.
 */
class GoalTransport : public Object
{
  public:
    static TypeId GetTypeId();

    /** The executor's notifications: \p sent and \p arrived get the message's id. */
    void SetNotifications(Callback<void, uint32_t> sent, Callback<void, uint32_t> arrived);

    /** Carry \p message from its source host to its destination host. */
    void Post(const GoalMessage& message);

  protected:
    void DoDispose() override;
    /** Message \p id's send completed at its source. */
    void NotifySent(uint32_t id);
    /** Message \p id has arrived whole at its destination. */
    void NotifyArrived(uint32_t id);

  private:
    /** Start carrying \p message; notify later (not from within this call). */
    virtual void DoPost(const GoalMessage& message) = 0;

    Callback<void, uint32_t> m_sent;
    Callback<void, uint32_t> m_arrived;
};

} // namespace ns3

#endif /* GOAL_TRANSPORT_H */
