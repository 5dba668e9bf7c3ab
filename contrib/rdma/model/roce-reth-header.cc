#include "roce-reth-header.h"

#include <iomanip>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceRethHeader);

TypeId
RoceRethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceRethHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RoceRethHeader>();
    return tid;
}

RoceRethHeader::RoceRethHeader() = default;

RoceRethHeader::RoceRethHeader(uint64_t virtualAddress, uint32_t remoteKey, uint32_t dmaLength)
    : m_virtualAddress(virtualAddress)
    , m_remoteKey(remoteKey)
    , m_dmaLength(dmaLength)
{
}

TypeId
RoceRethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceRethHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
RoceRethHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU64(m_virtualAddress);
    start.WriteHtonU32(m_remoteKey);
    start.WriteHtonU32(m_dmaLength);
}

uint32_t
RoceRethHeader::Deserialize(Buffer::Iterator start)
{
    m_virtualAddress = start.ReadNtohU64();
    m_remoteKey = start.ReadNtohU32();
    m_dmaLength = start.ReadNtohU32();
    return SERIALIZED_SIZE;
}

void
RoceRethHeader::Print(std::ostream& os) const
{
    std::ios_base::fmtflags flags = os.flags();
    char fill = os.fill();
    os << "RETH VA=0x" << std::hex << std::setfill('0') << std::setw(16) << m_virtualAddress
       << " RKey=0x" << std::setw(8) << m_remoteKey << std::dec << " DMALen=" << m_dmaLength;
    os.flags(flags);
    os.fill(fill);
}

void
RoceRethHeader::SetVirtualAddress(uint64_t virtualAddress)
{
    m_virtualAddress = virtualAddress;
}

uint64_t
RoceRethHeader::GetVirtualAddress() const
{
    return m_virtualAddress;
}

void
RoceRethHeader::SetRemoteKey(uint32_t remoteKey)
{
    m_remoteKey = remoteKey;
}

uint32_t
RoceRethHeader::GetRemoteKey() const
{
    return m_remoteKey;
}

void
RoceRethHeader::SetDmaLength(uint32_t dmaLength)
{
    m_dmaLength = dmaLength;
}

uint32_t
RoceRethHeader::GetDmaLength() const
{
    return m_dmaLength;
}

} // namespace ns3
