/*
 * The size of one RDMA packet on the wire, as its NIC's framing counts it.
 */
#ifndef RDMA_WIRE_SIZE_H
#define RDMA_WIRE_SIZE_H

#include "ns3/data-rate.h"
#include "ns3/dcb-net-device.h"
#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * The bytes a packet occupies on the wire (headers, trailers and wire overhead included)
 * and how its serialization time is rounded: what RdmaQpOwner::GetWireSize gives the
 * transmit pacer, so that a QP paced at line rate keeps pace with its port under either
 * RdmaNic Framing.
 */
struct RdmaWireSize
{
    uint32_t bytes{0};
    bool wholeNs{false}; //!< times truncated to whole ns (RdmaNic Framing HpccSim)

    /** \return the time these bytes take at \p rate. */
    Time At(const DataRate& rate) const
    {
        return wholeNs ? DcbNetDevice::SerializationTimeWholeNs(bytes, rate)
                       : DcbNetDevice::SerializationTime(bytes, rate);
    }
};

} // namespace ns3

#endif /* RDMA_WIRE_SIZE_H */
