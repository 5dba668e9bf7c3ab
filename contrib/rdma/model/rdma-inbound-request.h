/*
 * A received request-direction RoCE packet held between the wire and its queue pair.
 */
#ifndef RDMA_INBOUND_REQUEST_H
#define RDMA_INBOUND_REQUEST_H

#include "roce-bth-header.h"

#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * A request-direction packet (READ request, WRITE or SEND packet) an RdmaNic received, with
 * what its delivery needs, while a request gate (RdmaNic::SetRequestGate) holds it.
 */
struct RdmaInboundRequest
{
    uint32_t qpn{0}; //!< destination queue pair
    RoceOpcode op{RoceOpcode::ReadRequest};
    Ptr<Packet> packet; //!< BTH first, ICRC removed
    bool ce{false};     //!< arrived CE-marked
    uint32_t frameBytes{0};
    uint8_t pcp{0};
    uint8_t ttl{0};
};

} // namespace ns3

#endif /* RDMA_INBOUND_REQUEST_H */
