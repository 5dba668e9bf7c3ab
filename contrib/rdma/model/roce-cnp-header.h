/*
 * The body of a RoCEv2 Congestion Notification Packet (IBTA Vol 1 annex A17):
 * 16 reserved bytes after a BTH with opcode RoceOpcode::Cnp.
 */
#ifndef ROCE_CNP_HEADER_H
#define ROCE_CNP_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * The 16 reserved bytes that follow the BTH of a CNP. They are sent as zero and
 * ignored on receipt; the header has no fields. The CNP's BTH carries the
 * destination QP of the flow to slow down (P_Key and PSN are not used).
 */
class RoceCnpHeader : public Header
{
  public:
    static constexpr uint32_t SERIALIZED_SIZE = 16; //!< bytes on the wire

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RoceCnpHeader();

    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;
};

} // namespace ns3

#endif /* ROCE_CNP_HEADER_H */
