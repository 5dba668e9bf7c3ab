#include "roce-cnp-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceCnpHeader);

TypeId
RoceCnpHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceCnpHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RoceCnpHeader>();
    return tid;
}

RoceCnpHeader::RoceCnpHeader() = default;

TypeId
RoceCnpHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceCnpHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
RoceCnpHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(0, SERIALIZED_SIZE);
}

uint32_t
RoceCnpHeader::Deserialize(Buffer::Iterator start)
{
    start.Next(SERIALIZED_SIZE); // reserved: ignored on receipt
    return SERIALIZED_SIZE;
}

void
RoceCnpHeader::Print(std::ostream& os) const
{
    os << "CNP reserved=" << SERIALIZED_SIZE << "B";
}

} // namespace ns3
