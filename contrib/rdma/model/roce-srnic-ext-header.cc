#include "roce-srnic-ext-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceSrnicExtHeader);

TypeId
RoceSrnicExtHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceSrnicExtHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RoceSrnicExtHeader>();
    return tid;
}

TypeId
RoceSrnicExtHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceSrnicExtHeader::SizeOf(Kind kind)
{
    switch (kind)
    {
        case Kind::Send:
        case Kind::Echo:
            return 8;
        case Kind::Write:
        case Kind::Read:
            return 20;
        case Kind::WriteReth:
            break;
    }
    return 4;
}

uint32_t
RoceSrnicExtHeader::GetSerializedSize() const
{
    return SizeOf(m_kind);
}

void
RoceSrnicExtHeader::Serialize(Buffer::Iterator start) const
{
    if (m_kind == Kind::Send || m_kind == Kind::Echo)
    {
        start.WriteHtonU32(m_ssn);
    }
    else if (m_kind == Kind::Write || m_kind == Kind::Read)
    {
        start.WriteHtonU64(m_va);
        start.WriteHtonU32(m_rkey);
        start.WriteHtonU32(m_length);
    }
    start.WriteHtonU32(m_psnOffset);
}

uint32_t
RoceSrnicExtHeader::Deserialize(Buffer::Iterator start)
{
    if (m_kind == Kind::Send || m_kind == Kind::Echo)
    {
        m_ssn = start.ReadNtohU32();
    }
    else if (m_kind == Kind::Write || m_kind == Kind::Read)
    {
        m_va = start.ReadNtohU64();
        m_rkey = start.ReadNtohU32();
        m_length = start.ReadNtohU32();
    }
    m_psnOffset = start.ReadNtohU32();
    return SizeOf(m_kind);
}

void
RoceSrnicExtHeader::Print(std::ostream& os) const
{
    os << "SRNIC-ext ssn=" << m_ssn << " psnOffset=" << m_psnOffset << " va=" << m_va;
}

void
RoceSrnicExtHeader::SetKind(Kind kind)
{
    m_kind = kind;
}

RoceSrnicExtHeader::Kind
RoceSrnicExtHeader::GetKind() const
{
    return m_kind;
}

void
RoceSrnicExtHeader::SetSsn(uint32_t ssn)
{
    m_ssn = ssn;
}

uint32_t
RoceSrnicExtHeader::GetSsn() const
{
    return m_ssn;
}

void
RoceSrnicExtHeader::SetPsnOffset(uint32_t offset)
{
    m_psnOffset = offset;
}

uint32_t
RoceSrnicExtHeader::GetPsnOffset() const
{
    return m_psnOffset;
}

void
RoceSrnicExtHeader::SetVirtualAddress(uint64_t va)
{
    m_va = va;
}

uint64_t
RoceSrnicExtHeader::GetVirtualAddress() const
{
    return m_va;
}

void
RoceSrnicExtHeader::SetRemoteKey(uint32_t rkey)
{
    m_rkey = rkey;
}

uint32_t
RoceSrnicExtHeader::GetRemoteKey() const
{
    return m_rkey;
}

void
RoceSrnicExtHeader::SetDmaLength(uint32_t length)
{
    m_length = length;
}

uint32_t
RoceSrnicExtHeader::GetDmaLength() const
{
    return m_length;
}

} // namespace ns3
