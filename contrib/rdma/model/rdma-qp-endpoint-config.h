/*
 * What the requester and the responder of one queue pair are both given at setup.
 */
#ifndef RDMA_QP_ENDPOINT_CONFIG_H
#define RDMA_QP_ENDPOINT_CONFIG_H

#include "rdma-congestion-ops.h"
#include "rdma-loss-recovery.h"

#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

class RdmaQpOwner;
class RdmaQueuePair;
struct RdmaQpCounters;

/**
 * \ingroup rdma
 * The part of RdmaRequester::Config and RdmaResponder::Config that both sides of a queue
 * pair share: the owner they report to, the QP's identity and MTU, its wire format, its
 * congestion controller and loss recovery, and its counters.
 */
struct RdmaQpEndpointConfig
{
    RdmaQpOwner* owner{nullptr};
    RdmaQueuePair* qp{nullptr}; //!< the handle reported to the owner (may be null)
    uint32_t qpn{0};
    uint32_t mtu{1024}; //!< payload bytes per packet (request or READ response)
    bool srnicExtensions{false};
    Ptr<RdmaCongestionOps> cc;
    Ptr<RdmaLossRecovery> loss;
    RdmaQpCounters* counters{nullptr}; //!< the QP's counters, shared by both sides
};

} // namespace ns3

#endif // RDMA_QP_ENDPOINT_CONFIG_H
