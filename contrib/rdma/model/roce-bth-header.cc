#include "roce-bth-header.h"

#include "ns3/assert.h"

#include <iomanip>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceBthHeader);

namespace
{
// Bit positions inside the BTH (see the layout in roce-bth-header.h).
constexpr uint8_t SE_BIT = 0x80;             // byte 1
constexpr uint8_t MIG_REQ_BIT = 0x40;        // byte 1
constexpr uint8_t PAD_COUNT_SHIFT = 4;       // byte 1, bits 5:4
constexpr uint8_t TVER_MASK = 0x0F;          // byte 1, bits 3:0
constexpr uint32_t FECN_BIT = 0x80000000;    // bytes 4-7
constexpr uint32_t BECN_BIT = 0x40000000;    // bytes 4-7
constexpr uint32_t RESV8A_SHIFT = 24;        // byte 4 within bytes 4-7
constexpr uint32_t ACK_REQ_BIT = 0x80000000; // bytes 8-11
} // namespace

std::ostream&
operator<<(std::ostream& os, RoceOpcode opcode)
{
    std::ios_base::fmtflags flags = os.flags();
    char fill = os.fill();
    os << RoceBthHeader::GetOpcodeName(opcode) << "(0x" << std::hex << std::setw(2)
       << std::setfill('0') << static_cast<unsigned>(opcode) << ")";
    os.flags(flags);
    os.fill(fill);
    return os;
}

TypeId
RoceBthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceBthHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RoceBthHeader>();
    return tid;
}

RoceBthHeader::RoceBthHeader() = default;

TypeId
RoceBthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceBthHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
RoceBthHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(static_cast<uint8_t>(m_opcode));
    uint8_t flags = (m_solicitedEvent ? SE_BIT : 0) | (m_migReq ? MIG_REQ_BIT : 0) |
                    (m_padCount << PAD_COUNT_SHIFT) | (m_transportVersion & TVER_MASK);
    start.WriteU8(flags);
    start.WriteHtonU16(m_partitionKey);
    const uint32_t intBits =
        static_cast<uint32_t>((m_intHops & INT_HOPS_MASK) | (m_intEcho ? INT_ECHO_BIT : 0))
        << RESV8A_SHIFT;
    start.WriteHtonU32((m_fecn ? FECN_BIT : 0) | (m_becn ? BECN_BIT : 0) | intBits | m_destQp);
    start.WriteHtonU32((m_ackRequest ? ACK_REQ_BIT : 0) | m_psn);
}

uint32_t
RoceBthHeader::Deserialize(Buffer::Iterator start)
{
    m_opcode = static_cast<RoceOpcode>(start.ReadU8());
    uint8_t flags = start.ReadU8();
    m_solicitedEvent = (flags & SE_BIT) != 0;
    m_migReq = (flags & MIG_REQ_BIT) != 0;
    m_padCount = (flags >> PAD_COUNT_SHIFT) & 0x3;
    m_transportVersion = flags & TVER_MASK;
    m_partitionKey = start.ReadNtohU16();
    uint32_t word = start.ReadNtohU32();
    m_fecn = (word & FECN_BIT) != 0;
    m_becn = (word & BECN_BIT) != 0;
    m_intHops = static_cast<uint8_t>(word >> RESV8A_SHIFT) & INT_HOPS_MASK;
    m_intEcho = ((word >> RESV8A_SHIFT) & INT_ECHO_BIT) != 0;
    m_destQp = word & QP_MASK;
    word = start.ReadNtohU32();
    m_ackRequest = (word & ACK_REQ_BIT) != 0;
    m_psn = word & PSN_MASK;
    return SERIALIZED_SIZE;
}

void
RoceBthHeader::Print(std::ostream& os) const
{
    std::ios_base::fmtflags flags = os.flags();
    char fill = os.fill();
    os << "BTH " << m_opcode << " SE=" << m_solicitedEvent << " M=" << m_migReq
       << " Pad=" << unsigned{m_padCount} << " TVer=" << unsigned{m_transportVersion} << " PKey=0x"
       << std::hex << std::setfill('0') << std::setw(4) << m_partitionKey;
    if (m_fecn || m_becn)
    {
        os << " FECN=" << m_fecn << " BECN=" << m_becn;
    }
    os << " DestQP=0x" << std::setw(6) << m_destQp << std::dec << " A=" << m_ackRequest
       << " PSN=" << m_psn;
    os.flags(flags);
    os.fill(fill);
}

void
RoceBthHeader::SetOpcode(RoceOpcode opcode)
{
    m_opcode = opcode;
}

RoceOpcode
RoceBthHeader::GetOpcode() const
{
    return m_opcode;
}

void
RoceBthHeader::SetSolicitedEvent(bool solicitedEvent)
{
    m_solicitedEvent = solicitedEvent;
}

bool
RoceBthHeader::GetSolicitedEvent() const
{
    return m_solicitedEvent;
}

void
RoceBthHeader::SetMigReq(bool migReq)
{
    m_migReq = migReq;
}

bool
RoceBthHeader::GetMigReq() const
{
    return m_migReq;
}

void
RoceBthHeader::SetPadCount(uint8_t padCount)
{
    NS_ASSERT_MSG(padCount <= 3, "BTH pad count " << unsigned{padCount} << " is not in 0..3");
    m_padCount = padCount & 0x3;
}

uint8_t
RoceBthHeader::GetPadCount() const
{
    return m_padCount;
}

void
RoceBthHeader::SetTransportVersion(uint8_t version)
{
    NS_ASSERT_MSG(version <= TVER_MASK, "BTH TVer " << unsigned{version} << " exceeds 4 bits");
    m_transportVersion = version & TVER_MASK;
}

uint8_t
RoceBthHeader::GetTransportVersion() const
{
    return m_transportVersion;
}

void
RoceBthHeader::SetPartitionKey(uint16_t partitionKey)
{
    m_partitionKey = partitionKey;
}

uint16_t
RoceBthHeader::GetPartitionKey() const
{
    return m_partitionKey;
}

void
RoceBthHeader::SetFecn(bool fecn)
{
    m_fecn = fecn;
}

bool
RoceBthHeader::GetFecn() const
{
    return m_fecn;
}

void
RoceBthHeader::SetIntHops(uint8_t hops)
{
    NS_ASSERT_MSG(hops <= INT_HOPS_MASK, "IntHops is 3 bits");
    m_intHops = hops;
}

uint8_t
RoceBthHeader::GetIntHops() const
{
    return m_intHops;
}

void
RoceBthHeader::SetIntEcho(bool echo)
{
    m_intEcho = echo;
}

bool
RoceBthHeader::GetIntEcho() const
{
    return m_intEcho;
}

void
RoceBthHeader::SetBecn(bool becn)
{
    m_becn = becn;
}

bool
RoceBthHeader::GetBecn() const
{
    return m_becn;
}

void
RoceBthHeader::SetDestQp(uint32_t destQp)
{
    NS_ASSERT_MSG(destQp <= QP_MASK, "BTH DestQP 0x" << std::hex << destQp << " exceeds 24 bits");
    m_destQp = destQp & QP_MASK;
}

uint32_t
RoceBthHeader::GetDestQp() const
{
    return m_destQp;
}

void
RoceBthHeader::SetAckRequest(bool ackRequest)
{
    m_ackRequest = ackRequest;
}

bool
RoceBthHeader::GetAckRequest() const
{
    return m_ackRequest;
}

void
RoceBthHeader::SetPsn(uint32_t psn)
{
    NS_ASSERT_MSG(psn <= PSN_MASK, "BTH PSN 0x" << std::hex << psn << " exceeds 24 bits");
    m_psn = psn & PSN_MASK;
}

uint32_t
RoceBthHeader::GetPsn() const
{
    return m_psn;
}

const char*
RoceBthHeader::GetOpcodeName(RoceOpcode opcode)
{
    switch (opcode)
    {
        case RoceOpcode::SendFirst:
            return "SendFirst";
        case RoceOpcode::SendMiddle:
            return "SendMiddle";
        case RoceOpcode::SendLast:
            return "SendLast";
        case RoceOpcode::SendLastImm:
            return "SendLastImm";
        case RoceOpcode::SendOnly:
            return "SendOnly";
        case RoceOpcode::SendOnlyImm:
            return "SendOnlyImm";
        case RoceOpcode::WriteFirst:
            return "WriteFirst";
        case RoceOpcode::WriteMiddle:
            return "WriteMiddle";
        case RoceOpcode::WriteLast:
            return "WriteLast";
        case RoceOpcode::WriteLastImm:
            return "WriteLastImm";
        case RoceOpcode::WriteOnly:
            return "WriteOnly";
        case RoceOpcode::WriteOnlyImm:
            return "WriteOnlyImm";
        case RoceOpcode::ReadRequest:
            return "ReadRequest";
        case RoceOpcode::ReadResponseFirst:
            return "ReadResponseFirst";
        case RoceOpcode::ReadResponseMiddle:
            return "ReadResponseMiddle";
        case RoceOpcode::ReadResponseLast:
            return "ReadResponseLast";
        case RoceOpcode::ReadResponseOnly:
            return "ReadResponseOnly";
        case RoceOpcode::Acknowledge:
            return "Acknowledge";
        case RoceOpcode::Cnp:
            return "Cnp";
    }
    return "Unknown";
}

} // namespace ns3
