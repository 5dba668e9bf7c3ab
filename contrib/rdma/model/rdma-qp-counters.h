/*
 * Per-queue-pair counters.
 */
#ifndef RDMA_QP_COUNTERS_H
#define RDMA_QP_COUNTERS_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * Per-QP counters (RdmaQueuePair::GetCounters), written by its requester and responder.
 */
struct RdmaQpCounters
{
    uint64_t dataPacketsSent{0}; //!< request packets and read responses, first sends and resends
    uint64_t retransmittedPackets{0}; //!< packets sent again (PSN below the highest sent)
    uint64_t payloadBytesSent{0};
    uint64_t acksSent{0};
    uint64_t naksSent{0};
    uint64_t naksReceived{0};
    uint64_t cnpsSent{0};          //!< NP: congestion notifications sent, as CNP packets or
                                   //!< as the BECN of an ACK/NAK (cnpsSentInAck of them)
    uint64_t cnpsReceived{0};      //!< RP: congestion notifications taken (OnCnp), as CNP packets
                                   //!< or as the BECN of an ACK/NAK (cnpsReceivedInAck of them)
    uint64_t cnpsSentInAck{0};     //!< NP: of cnpsSent, carried as BECN (CnpDelivery AckBecn)
    uint64_t cnpsReceivedInAck{0}; //!< RP: of cnpsReceived, ACK/NAKs with BECN taken as a CNP
    uint64_t timeouts{0};
    uint64_t outOfOrderDropped{0}; //!< responder drops of packets ahead of the expected PSN
    uint64_t duplicatesReceived{0};
    uint64_t ecnEchoesReceived{0};       //!< ACK/NAKs with BECN set (a CE echo for window
                                         //!< CC, or a CNP under CnpDelivery AckBecn)
    uint64_t outOfOrderBuffered{0};      //!< responder: packets kept ahead of the expected PSN
    uint64_t readResponsesOutOfOrder{0}; //!< requester (selective repeat): READ responses
                                         //!< placed ahead of a missing one
    /**
     * Responder: request packets that arrived after a packet of higher PSN (overtaken on
     * the way, as under per-packet load balancing; a retransmission counts too), the
     * "reordered" packets of RFC 4737 section 3.3.
     */
    uint64_t reorderedPackets{0};
    /** Responder: the largest (highest PSN received before it - its PSN), in packets. */
    uint64_t maxReorderDistance{0};
};

} // namespace ns3

#endif /* RDMA_QP_COUNTERS_H */
