/*
 * Which queue pair of an RdmaNic sends the next packet.
 */
#ifndef QP_SCHEDULER_H
#define QP_SCHEDULER_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"

namespace ns3
{

class RdmaNic;
class RdmaQueuePair;

/**
 * \ingroup rdma
 * Transmit scheduler of an RdmaNic (chosen by the NIC's QpScheduler attribute). The
 * NIC reports queue pairs that may have work (NotifyTxWork) and asks for the next
 * packet whenever its port can take one (Dequeue); the scheduler decides which QP
 * builds it and when, which is where NIC resources (WQE fetches, context caches)
 * turn into delay. A QP's RdmaQueuePair::IsInActiveList() flag marks that the
 * scheduler holds it.
 */
class QpScheduler : public Object
{
  public:
    static TypeId GetTypeId();

    /** Called once by the NIC that owns this scheduler. */
    void Attach(RdmaNic* nic);

    /** \p qp may have transmit work; keep it if not already held. */
    virtual void NotifyTxWork(RdmaQueuePair* qp) = 0;

    /**
     * Build the next packet (RdmaQueuePair::BuildNextPacket) of the QP chosen now.
     * \param pausedMask traffic classes paused by PFC (bit per class)
     * \param[out] qp the QP that built the packet
     * \param[out] wakeAt when nothing is sent: the earliest time something may be
     *             (Time::Max() if only a new notification can help)
     * \return the packet, or nullptr
     */
    virtual Ptr<Packet> Dequeue(uint8_t pausedMask, RdmaQueuePair*& qp, Time& wakeAt) = 0;

    /**
     * \return true if the work request whose first packet \p qp just built (Dequeue) was
     * already read from host memory through the node's host model by this scheduler's own
     * fetch, so that the NIC's transmit pipeline does not read its WQE again. Default false.
     */
    virtual bool WqeAlreadyRead(RdmaQueuePair* qp) const;

    /**
     * \return true when the scheduler holds no queue pair (nothing to send until the
     * next NotifyTxWork). Default false (unknown).
     */
    virtual bool IsIdle() const;

  protected:
    void DoDispose() override;

    RdmaNic* m_nic{nullptr};
};

} // namespace ns3

#endif /* QP_SCHEDULER_H */
