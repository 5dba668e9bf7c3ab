/*
 * Selective-acknowledgement extension carried after the AETH of a NAK (IRN, Mittal et
 * al., SIGCOMM 2018, section 3.1; SRNIC's SACK, NSDI 2023 section 4.4).
 */
#ifndef ROCE_SACK_HEADER_H
#define ROCE_SACK_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * 4 bytes after the AETH of a PSN-sequence-error NAK sent by a selective-repeat
 * responder: reserved (8 bits) | PSN of the out-of-order packet that triggered the
 * NAK (24 bits). The BTH PSN of the NAK is the cumulative acknowledgement (the
 * responder's expected PSN).
 */
class RoceSackHeader : public Header
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /** Set the selectively acknowledged PSN (24 bits kept). */
    void SetSackPsn(uint32_t psn);
    uint32_t GetSackPsn() const;

  private:
    uint32_t m_sackPsn{0};
};

} // namespace ns3

#endif /* ROCE_SACK_HEADER_H */
