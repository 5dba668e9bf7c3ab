/*
 * Immediate Data Extended Transport Header (ImmDt), IBTA vol. 1 section 9.3.4.
 */
#ifndef ROCE_IMM_DT_HEADER_H
#define ROCE_IMM_DT_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * 4 bytes of immediate data carried by the last (or only) packet of a SEND or
 * RDMA WRITE with immediate, after the BTH (and RETH for WriteOnlyImm). The value
 * is opaque to the transport and handed to the responder's receive completion.
 */
class RoceImmDtHeader : public Header
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    void SetImmediate(uint32_t imm);
    uint32_t GetImmediate() const;

  private:
    uint32_t m_imm{0};
};

} // namespace ns3

#endif /* ROCE_IMM_DT_HEADER_H */
