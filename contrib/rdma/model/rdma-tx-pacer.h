/*
 * The rate limiter of one queue pair's transmissions.
 */
#ifndef RDMA_TX_PACER_H
#define RDMA_TX_PACER_H

#include "rdma-cc-state.h"
#include "rdma-wire-size.h"

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * Paces a queue pair's packets at its congestion-controlled rate (RdmaCcState::m_rate) on
 * their wire size: per packet, or per burst of RdmaCcState::m_pacingBurstBytes (Azure
 * NSDI'23 section 7.2: back-to-back within a burst, then a gap that keeps the burst's
 * average at the rate). Owned by the QP's RdmaRequester.
 */
class RdmaTxPacer
{
  public:
    /** A packet of \p wire bytes (headers and wire overhead included) left now at \p cc's rate. */
    void OnPacketSent(const RdmaWireSize& wire, const RdmaCcState& cc);
    /** \return the earliest time the next packet may start. */
    Time GetNextTxTime() const;
    /** \return true while inside a burst (the scheduler keeps the QP). */
    bool IsMidBurst() const;

  private:
    Time m_nextTxTime{0};
    Time m_burstStart{0};     //!< start of the current burst
    RdmaWireSize m_burstWire; //!< wire bytes sent in it
};

} // namespace ns3

#endif /* RDMA_TX_PACER_H */
