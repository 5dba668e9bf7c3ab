/*
 * What one acknowledgement tells the sender's congestion control.
 */
#ifndef RDMA_ACK_SAMPLE_H
#define RDMA_ACK_SAMPLE_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * One ACK as the requester hands it to RdmaCongestionOps::OnAck. A plain value built on
 * the stack per ACK; algorithms that need more per-ACK signal (e.g. in-band telemetry)
 * add fields here.
 */
struct RdmaAckSample
{
    uint64_t ackedBytes{0}; //!< payload bytes newly acknowledged (una advance x MTU)
    bool ecnEcho{false};    //!< the ACK echoes a CE mark (BTH BECN)
    /**
     * NIC-timestamped round-trip time: from the transmission of the newest PSN the ACK
     * covers to the ACK's arrival at this NIC (RdmaTxTimestampRing). Zero when no sample
     * exists (READ responses, a PSN whose timestamp slot was reused, or an algorithm that
     * does not ask for samples: RdmaCongestionOps::WantsRttSamples).
     */
    Time rtt{0};
    /**
     * Responder-side (remote endpoint) part of rtt. Zero in this model: the responder
     * acknowledges the newest PSN when it processes it and carries no delay field, so the
     * whole sample counts as fabric delay (contrib/rdma/doc/rtt-congestion-control.md).
     */
    Time remoteDelay{0};
    /**
     * Switch hops the ACK crossed, from its IPv4 TTL decrement (sender's Ttl minus the
     * received TTL, assuming both NICs start from the same Ttl); 0 when unknown.
     */
    uint8_t hops{0};

    /** \return true if rtt holds a measurement. */
    bool HasRtt() const { return rtt.IsStrictlyPositive(); }
};

} // namespace ns3

#endif /* RDMA_ACK_SAMPLE_H */
