#include "ethernet-vlan-header.h"

#include "ns3/address-utils.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(EthernetVlanHeader);

TypeId
EthernetVlanHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EthernetVlanHeader")
                            .SetParent<Header>()
                            .SetGroupName("Dcb")
                            .AddConstructor<EthernetVlanHeader>();
    return tid;
}

TypeId
EthernetVlanHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

EthernetVlanHeader::EthernetVlanHeader() = default;

void
EthernetVlanHeader::SetDestination(Mac48Address dst)
{
    m_destination = dst;
}

Mac48Address
EthernetVlanHeader::GetDestination() const
{
    return m_destination;
}

void
EthernetVlanHeader::SetSource(Mac48Address src)
{
    m_source = src;
}

Mac48Address
EthernetVlanHeader::GetSource() const
{
    return m_source;
}

void
EthernetVlanHeader::SetEtherType(uint16_t type)
{
    m_etherType = type;
}

uint16_t
EthernetVlanHeader::GetEtherType() const
{
    return m_etherType;
}

void
EthernetVlanHeader::SetVlanTag(uint8_t pcp, uint16_t vid)
{
    m_tagged = true;
    m_pcp = pcp & 0x7;
    m_vid = vid & 0x0fff;
}

void
EthernetVlanHeader::ClearVlanTag()
{
    m_tagged = false;
    m_pcp = 0;
    m_vid = 0;
}

bool
EthernetVlanHeader::IsTagged() const
{
    return m_tagged;
}

uint8_t
EthernetVlanHeader::GetPcp() const
{
    return m_pcp;
}

uint16_t
EthernetVlanHeader::GetVid() const
{
    return m_vid;
}

uint32_t
EthernetVlanHeader::GetSerializedSize() const
{
    return m_tagged ? 18 : 14;
}

void
EthernetVlanHeader::Serialize(Buffer::Iterator start) const
{
    WriteTo(start, m_destination);
    WriteTo(start, m_source);
    if (m_tagged)
    {
        start.WriteHtonU16(ETHERTYPE_VLAN);
        start.WriteHtonU16(static_cast<uint16_t>((m_pcp << 13) | m_vid));
    }
    start.WriteHtonU16(m_etherType);
}

uint32_t
EthernetVlanHeader::Deserialize(Buffer::Iterator start)
{
    ReadFrom(start, m_destination);
    ReadFrom(start, m_source);
    uint16_t type = start.ReadNtohU16();
    m_tagged = (type == ETHERTYPE_VLAN);
    if (m_tagged)
    {
        uint16_t tci = start.ReadNtohU16();
        m_pcp = static_cast<uint8_t>(tci >> 13);
        m_vid = tci & 0x0fff;
        type = start.ReadNtohU16();
    }
    else
    {
        m_pcp = 0;
        m_vid = 0;
    }
    m_etherType = type;
    return GetSerializedSize();
}

void
EthernetVlanHeader::Print(std::ostream& os) const
{
    os << m_source << " > " << m_destination;
    if (m_tagged)
    {
        os << " 802.1Q pcp " << unsigned(m_pcp) << " vid " << m_vid;
    }
    os << " type 0x" << std::hex << m_etherType << std::dec;
}

} // namespace ns3
