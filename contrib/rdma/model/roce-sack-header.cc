#include "roce-sack-header.h"

#include "roce-bth-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceSackHeader);

TypeId
RoceSackHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceSackHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RoceSackHeader>();
    return tid;
}

TypeId
RoceSackHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceSackHeader::GetSerializedSize() const
{
    return 4;
}

void
RoceSackHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32(m_sackPsn & RoceBthHeader::PSN_MASK);
}

uint32_t
RoceSackHeader::Deserialize(Buffer::Iterator start)
{
    m_sackPsn = start.ReadNtohU32() & RoceBthHeader::PSN_MASK;
    return 4;
}

void
RoceSackHeader::Print(std::ostream& os) const
{
    os << "SACK psn=" << m_sackPsn;
}

void
RoceSackHeader::SetSackPsn(uint32_t psn)
{
    m_sackPsn = psn & RoceBthHeader::PSN_MASK;
}

uint32_t
RoceSackHeader::GetSackPsn() const
{
    return m_sackPsn;
}

} // namespace ns3
