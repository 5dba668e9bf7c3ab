#include "roce-aeth-header.h"

#include "ns3/assert.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceAethHeader);

namespace
{
// Syndrome layout: reserved(7), type(6:5), value(4:0).
constexpr uint8_t TYPE_SHIFT = 5;
constexpr uint8_t TYPE_ACK = 0x0;
constexpr uint8_t TYPE_RNR_NAK = 0x1;
constexpr uint8_t TYPE_NAK = 0x3;
constexpr uint8_t VALUE_MASK = 0x1F;

const char*
NakCodeName(uint8_t code)
{
    switch (static_cast<RoceNakCode>(code))
    {
        case RoceNakCode::PsnSequenceError:
            return "PsnSequenceError";
        case RoceNakCode::InvalidRequest:
            return "InvalidRequest";
        case RoceNakCode::RemoteAccessError:
            return "RemoteAccessError";
        case RoceNakCode::RemoteOperationalError:
            return "RemoteOperationalError";
    }
    return "Unknown";
}
} // namespace

TypeId
RoceAethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceAethHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RoceAethHeader>();
    return tid;
}

RoceAethHeader::RoceAethHeader() = default;

TypeId
RoceAethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceAethHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
RoceAethHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32((uint32_t{m_syndrome} << 24) | m_msn);
}

uint32_t
RoceAethHeader::Deserialize(Buffer::Iterator start)
{
    uint32_t word = start.ReadNtohU32();
    m_syndrome = static_cast<uint8_t>(word >> 24);
    m_msn = word & MSN_MASK;
    return SERIALIZED_SIZE;
}

void
RoceAethHeader::Print(std::ostream& os) const
{
    os << "AETH ";
    if (IsAck())
    {
        os << "ACK credit=" << unsigned{GetCreditCount()};
    }
    else if (IsNak())
    {
        uint8_t code = m_syndrome & VALUE_MASK;
        os << "NAK " << NakCodeName(code) << "(" << unsigned{code} << ")";
    }
    else if (IsRnrNak())
    {
        os << "RNR-NAK timer=" << unsigned{GetRnrTimer()};
    }
    else
    {
        os << "reserved syndrome=" << unsigned{m_syndrome};
    }
    os << " MSN=" << m_msn;
}

void
RoceAethHeader::SetAck(uint8_t creditCount)
{
    NS_ASSERT_MSG(creditCount <= VALUE_MASK, "AETH credit count exceeds 5 bits");
    m_syndrome = (TYPE_ACK << TYPE_SHIFT) | (creditCount & VALUE_MASK);
}

void
RoceAethHeader::SetNak(RoceNakCode code)
{
    m_syndrome = (TYPE_NAK << TYPE_SHIFT) | (static_cast<uint8_t>(code) & VALUE_MASK);
}

void
RoceAethHeader::SetRnrNak(uint8_t timer)
{
    NS_ASSERT_MSG(timer <= VALUE_MASK, "AETH RNR timer exceeds 5 bits");
    m_syndrome = (TYPE_RNR_NAK << TYPE_SHIFT) | (timer & VALUE_MASK);
}

uint8_t
RoceAethHeader::GetType() const
{
    return (m_syndrome >> TYPE_SHIFT) & 0x3;
}

bool
RoceAethHeader::IsAck() const
{
    return GetType() == TYPE_ACK;
}

bool
RoceAethHeader::IsNak() const
{
    return GetType() == TYPE_NAK;
}

bool
RoceAethHeader::IsRnrNak() const
{
    return GetType() == TYPE_RNR_NAK;
}

uint8_t
RoceAethHeader::GetCreditCount() const
{
    NS_ASSERT_MSG(IsAck(), "AETH is not an ACK");
    return m_syndrome & VALUE_MASK;
}

RoceNakCode
RoceAethHeader::GetNakCode() const
{
    NS_ASSERT_MSG(IsNak(), "AETH is not a NAK");
    return static_cast<RoceNakCode>(m_syndrome & VALUE_MASK);
}

uint8_t
RoceAethHeader::GetRnrTimer() const
{
    NS_ASSERT_MSG(IsRnrNak(), "AETH is not an RNR NAK");
    return m_syndrome & VALUE_MASK;
}

void
RoceAethHeader::SetSyndrome(uint8_t syndrome)
{
    m_syndrome = syndrome;
}

uint8_t
RoceAethHeader::GetSyndrome() const
{
    return m_syndrome;
}

void
RoceAethHeader::SetMsn(uint32_t msn)
{
    NS_ASSERT_MSG(msn <= MSN_MASK, "AETH MSN exceeds 24 bits");
    m_msn = msn & MSN_MASK;
}

uint32_t
RoceAethHeader::GetMsn() const
{
    return m_msn;
}

} // namespace ns3
