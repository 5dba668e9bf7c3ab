/*
 * What a queue pair's requester and responder need from the NIC that owns them.
 */
#ifndef RDMA_QP_OWNER_H
#define RDMA_QP_OWNER_H

#include "rdma-wire-size.h"
#include "rdma-work-request.h"

#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

class RdmaQueuePair;

/**
 * \ingroup rdma
 * The narrow interface through which RdmaQueuePair, RdmaRequester and RdmaResponder
 * report to their NIC (RdmaNic implements it; unit tests use a fake). \p qp is the
 * queue pair the report is about: the handle the NIC's scheduler and encapsulation
 * use (null in tests that drive a requester or responder alone).
 */
class RdmaQpOwner
{
  public:
    virtual ~RdmaQpOwner() = default;

    /** \p qp may have a packet to send: poll it again. */
    virtual void NotifyTxWork(RdmaQueuePair* qp) = 0;
    /** The notification point of \p qp decided to send a CNP (now or through firmware). */
    virtual void RequestCnp(RdmaQueuePair* qp) = 0;
    /** Encapsulate and queue a control packet of \p qp (ACK/NAK, or a CNP when \p cnp). */
    virtual void SendControl(RdmaQueuePair* qp, Ptr<Packet> packet, bool cnp) = 0;
    /** A work completion (send, receive or flush). */
    virtual void NotifyCompletion(const RdmaCompletion& completion) = 0;
    /** \p bytes of payload of queue pair \p qpn were placed at \p address. */
    virtual void NotifyDataPlaced(uint32_t qpn, uint64_t address, uint32_t bytes) = 0;
    /** A message of \p bytes to queue pair \p qpn was received completely. */
    virtual void NotifyMessageReceived(uint32_t qpn, uint64_t bytes) = 0;
    /** \return bytes the NIC adds around a QP packet on the wire (pacing counts them). */
    virtual uint32_t GetEncapsulationBytes() const = 0;
    /**
     * \return what \p packet (BTH first) takes on the wire once encapsulated, as the transmit
     * pacer counts it. Default: its size plus GetEncapsulationBytes(), exact times.
     */
    virtual RdmaWireSize GetWireSize(Ptr<const Packet> packet) const
    {
        return RdmaWireSize{packet->GetSize() + GetEncapsulationBytes(), false};
    }
};

} // namespace ns3

#endif /* RDMA_QP_OWNER_H */
