#include "pfc-frame.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcFrame);

namespace
{
constexpr uint32_t PFC_PADDING_BYTES = 26;
} // namespace

TypeId
PfcFrame::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcFrame").SetParent<Header>().SetGroupName("Dcb").AddConstructor<PfcFrame>();
    return tid;
}

TypeId
PfcFrame::GetInstanceTypeId() const
{
    return GetTypeId();
}

PfcFrame::PfcFrame() = default;

void
PfcFrame::SetPause(uint8_t cls, uint16_t quanta)
{
    m_classEnable |= static_cast<uint16_t>(1u << (cls & 7));
    m_quanta[cls & 7] = quanta;
}

bool
PfcFrame::IsEnabled(uint8_t cls) const
{
    return (m_classEnable >> (cls & 7)) & 1;
}

uint16_t
PfcFrame::GetQuanta(uint8_t cls) const
{
    return m_quanta[cls & 7];
}

uint16_t
PfcFrame::GetClassEnableVector() const
{
    return m_classEnable;
}

uint16_t
PfcFrame::GetOpcode() const
{
    return m_opcode;
}

uint32_t
PfcFrame::GetSerializedSize() const
{
    return 2 + 2 + 2 * 8 + PFC_PADDING_BYTES;
}

void
PfcFrame::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU16(m_opcode);
    start.WriteHtonU16(m_classEnable & 0x00ff);
    for (uint16_t q : m_quanta)
    {
        start.WriteHtonU16(q);
    }
    start.WriteU8(0, PFC_PADDING_BYTES);
}

uint32_t
PfcFrame::Deserialize(Buffer::Iterator start)
{
    m_opcode = start.ReadNtohU16();
    m_classEnable = start.ReadNtohU16() & 0x00ff;
    for (auto& q : m_quanta)
    {
        q = start.ReadNtohU16();
    }
    start.Next(PFC_PADDING_BYTES);
    return GetSerializedSize();
}

void
PfcFrame::Print(std::ostream& os) const
{
    os << "PFC opcode 0x" << std::hex << m_opcode << " cev 0x" << m_classEnable << std::dec;
    for (uint8_t c = 0; c < 8; ++c)
    {
        if (IsEnabled(c))
        {
            os << " p" << unsigned(c) << "=" << m_quanta[c];
        }
    }
}

} // namespace ns3
