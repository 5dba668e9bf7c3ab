#include "roce-imm-dt-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceImmDtHeader);

TypeId
RoceImmDtHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceImmDtHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RoceImmDtHeader>();
    return tid;
}

TypeId
RoceImmDtHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceImmDtHeader::GetSerializedSize() const
{
    return 4;
}

void
RoceImmDtHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32(m_imm);
}

uint32_t
RoceImmDtHeader::Deserialize(Buffer::Iterator start)
{
    m_imm = start.ReadNtohU32();
    return 4;
}

void
RoceImmDtHeader::Print(std::ostream& os) const
{
    os << "ImmDt imm=0x" << std::hex << m_imm << std::dec;
}

void
RoceImmDtHeader::SetImmediate(uint32_t imm)
{
    m_imm = imm;
}

uint32_t
RoceImmDtHeader::GetImmediate() const
{
    return m_imm;
}

} // namespace ns3
