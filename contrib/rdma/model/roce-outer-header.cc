#include "roce-outer-header.h"

#include "ns3/ethernet-vlan-header.h"
#include "ns3/protocol-numbers.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceOuterHeader);

namespace
{
constexpr uint32_t IP_OFFSET = DcbFrameRecord::ETH_BYTES + DcbFrameRecord::VLAN_BYTES;
constexpr uint8_t IPV4_VERSION_IHL = 0x45; //!< version 4, 5 words (no options)
constexpr uint8_t IPV4_DONT_FRAGMENT = 0x40;

void
Put16(uint8_t* p, uint16_t v)
{
    p[0] = static_cast<uint8_t>(v >> 8);
    p[1] = static_cast<uint8_t>(v);
}

void
Put32(uint8_t* p, uint32_t v)
{
    Put16(p, static_cast<uint16_t>(v >> 16));
    Put16(p + 2, static_cast<uint16_t>(v));
}

/** RFC 1071: the one's complement of the one's complement sum of the 16-bit words. */
uint16_t
Ipv4Checksum(const uint8_t* header)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i < DcbFrameRecord::IPV4_BYTES; i += 2)
    {
        sum += static_cast<uint32_t>((header[i] << 8) | header[i + 1]);
    }
    while (sum >> 16)
    {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return static_cast<uint16_t>(~sum);
}
} // namespace

TypeId
RoceOuterHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceOuterHeader")
                            .SetParent<Header>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RoceOuterHeader>();
    return tid;
}

RoceOuterHeader::RoceOuterHeader(const DcbFrameRecord& record)
    : m_record(record)
{
}

TypeId
RoceOuterHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceOuterHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
RoceOuterHeader::Serialize(Buffer::Iterator start) const
{
    const DcbFrameRecord& r = m_record;
    uint8_t b[SERIALIZED_SIZE];
    r.ethDst.CopyTo(b);
    r.ethSrc.CopyTo(b + 6);
    Put16(b + 12, ETHERTYPE_VLAN);
    Put16(b + 14, static_cast<uint16_t>((r.pcp << 13) | (r.vid & 0x0fff)));
    Put16(b + 16, ETHERTYPE_IPV4);
    uint8_t* ip = b + IP_OFFSET;
    ip[0] = IPV4_VERSION_IHL;
    ip[1] = static_cast<uint8_t>((r.dscp << 2) | (r.ecn & 3));
    Put16(ip + 2, r.ipBytes);
    Put16(ip + 4, 0); // identification
    ip[6] = IPV4_DONT_FRAGMENT;
    ip[7] = 0;
    ip[8] = r.ttl;
    ip[9] = r.protocol;
    Put16(ip + 10, 0);
    Put32(ip + 12, r.src);
    Put32(ip + 16, r.dst);
    Put16(ip + 10, Ipv4Checksum(ip));
    uint8_t* udp = ip + DcbFrameRecord::IPV4_BYTES;
    Put16(udp, r.sport);
    Put16(udp + 2, r.dport);
    Put16(udp + 4, static_cast<uint16_t>(r.ipBytes - DcbFrameRecord::IPV4_BYTES));
    Put16(udp + 6, 0); // no UDP checksum
    start.Write(b, SERIALIZED_SIZE);
}

uint32_t
RoceOuterHeader::Deserialize(Buffer::Iterator start)
{
    // Not on a per-frame path (NICs and switches use the record): one parser, Parse's.
    uint8_t b[SERIALIZED_SIZE];
    start.Read(b, SERIALIZED_SIZE);
    m_record = DcbFrameRecord::Parse(Create<Packet>(b, SERIALIZED_SIZE));
    return SERIALIZED_SIZE;
}

void
RoceOuterHeader::Print(std::ostream& os) const
{
    const DcbFrameRecord& r = m_record;
    os << r.ethSrc << " > " << r.ethDst << " pcp " << unsigned(r.pcp) << " " << Ipv4Address(r.src)
       << ":" << r.sport << " > " << Ipv4Address(r.dst) << ":" << r.dport << " dscp "
       << unsigned(r.dscp) << " ecn " << unsigned(r.ecn) << " ttl " << unsigned(r.ttl) << " length "
       << r.ipBytes;
}

} // namespace ns3
