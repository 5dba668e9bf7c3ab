#include "dcb-frame-record.h"

#include "ethernet-vlan-header.h"
#include "int-trailer.h"

#include "ns3/header.h"
#include "ns3/protocol-numbers.h"

namespace ns3
{

// Queue slots and arrival events carry a record per frame.
static_assert(sizeof(DcbFrameRecord) == 40, "DcbFrameRecord grew");

namespace
{
uint16_t
Be16(const uint8_t* p)
{
    return static_cast<uint16_t>((p[0] << 8) | p[1]);
}

uint32_t
Be32(const uint8_t* p)
{
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
}

/**
 * An IPv4 header as its bytes, options included, to put a rewritten header back into a
 * frame (ns-3's Ipv4Header writes no options).
 */
class Ipv4HeaderBytes : public Header
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::DcbIpv4HeaderBytes").SetParent<Header>().SetGroupName("Dcb");
        return tid;
    }

    TypeId GetInstanceTypeId() const override { return GetTypeId(); }

    uint32_t GetSerializedSize() const override { return size; }

    void Serialize(Buffer::Iterator start) const override { start.Write(bytes, size); }

    uint32_t Deserialize(Buffer::Iterator start) override
    {
        start.Read(bytes, size);
        return size;
    }

    void Print(std::ostream& os) const override { os << "IPv4 header, " << size << " bytes"; }

    uint8_t bytes[DcbFrameRecord::IPV4_MAX_BYTES];
    uint32_t size{DcbFrameRecord::IPV4_BYTES};
};
} // namespace

DcbFrameRecord
DcbFrameRecord::Parse(Ptr<const Packet> frame)
{
    DcbFrameRecord r;
    // Through the BTH's resv8a byte (the INT bits of a RoCEv2 frame) behind a 20-byte IPv4
    // header; a header with options is copied again, as far past its options.
    constexpr uint32_t MAX = ETH_BYTES + VLAN_BYTES + IPV4_BYTES + UDP_BYTES + BTH_RESV8A + 1;
    uint8_t b[MAX - IPV4_BYTES + IPV4_MAX_BYTES];
    uint32_t n = frame->CopyData(b, MAX);
    r.flags = PARSED;
    if (n < ETH_BYTES)
    {
        return r;
    }
    r.ethDst.CopyFrom(b);
    r.ethSrc.CopyFrom(b + 6);
    uint32_t off = 12;
    r.etherType = Be16(b + off);
    if (r.etherType == ETHERTYPE_VLAN && n >= ETH_BYTES + VLAN_BYTES)
    {
        const uint16_t tci = Be16(b + 14);
        r.pcp = static_cast<uint8_t>(tci >> 13);
        r.vid = tci & 0x0fff;
        r.etherType = Be16(b + 16);
        r.flags |= TAGGED;
        off = 18;
    }
    else
    {
        off = 14;
    }
    if (r.etherType != ETHERTYPE_IPV4 || n < off + IPV4_BYTES)
    {
        return r; // not IPv4, or cut short inside the IPv4 header: no IPv4 header
    }
    uint32_t ipHeaderBytes = IPV4_BYTES;
    if (b[off] != 0x45)
    {
        // IHL 6 to 15: options. Another version or an IHL under 5 is no IPv4 header.
        ipHeaderBytes = (b[off] & 0x0fu) * 4;
        if ((b[off] >> 4) != 4 || ipHeaderBytes < IPV4_BYTES)
        {
            return r;
        }
        n = frame->CopyData(b, MAX - IPV4_BYTES + ipHeaderBytes);
        if (n < off + ipHeaderBytes)
        {
            return r; // cut short inside the options
        }
        r.flags |= static_cast<uint8_t>((ipHeaderBytes - IPV4_BYTES) / 4 << IP_OPTION_WORDS_SHIFT);
    }
    const uint8_t* ip = b + off;
    r.flags |= IPV4;
    r.dscp = ip[1] >> 2;
    r.ecn = ip[1] & 3;
    r.ipBytes = Be16(ip + 2);
    r.ttl = ip[8];
    r.protocol = ip[9];
    r.src = Be32(ip + 12);
    r.dst = Be32(ip + 16);
    if (r.protocol == IP_PROTOCOL_UDP && n >= off + ipHeaderBytes + 4)
    {
        r.sport = Be16(ip + ipHeaderBytes);
        r.dport = Be16(ip + ipHeaderBytes + 2);
        const uint32_t resv8a = off + ipHeaderBytes + UDP_BYTES + BTH_RESV8A;
        if (r.dport == ROCE_V2_UDP_PORT && n > resv8a)
        {
            r.ReadIntFields(b[resv8a], frame);
        }
    }
    return r;
}

void
DcbFrameRecord::ReadIntFields(uint8_t resv8a, Ptr<const Packet> frame)
{
    const uint8_t capacity = resv8a & 0x07; // RoceBthHeader IntHops
    if (capacity != 0 && !(resv8a & 0x08))  // not an echo (IntEcho)
    {
        intCapacity = capacity;
        intHops = IntTrailer::PeekNHops(frame);
    }
}

void
DcbFrameRecord::Materialize(Ptr<Packet> frame)
{
    if (!IsDirty())
    {
        return;
    }
    EthernetVlanHeader eth;
    frame->RemoveHeader(eth);
    eth.SetSource(ethSrc);
    eth.SetDestination(ethDst);
    if (IsTagged())
    {
        eth.SetVlanTag(pcp, vid);
    }
    if (IsIpv4())
    {
        WriteIpv4Header(frame, true);
    }
    frame->AddHeader(eth);
    flags &= ~DIRTY;
}

void
DcbFrameRecord::WriteIpv4Header(Ptr<Packet> packet, bool checksum) const
{
    Ipv4HeaderBytes h;
    h.size = IpHeaderBytes();
    packet->CopyData(h.bytes, h.size); // the whole header is there (Parse checked)
    h.bytes[1] = static_cast<uint8_t>((h.bytes[1] & 0xfc) | (ecn & 3));
    h.bytes[8] = ttl;
    h.bytes[10] = 0;
    h.bytes[11] = 0;
    if (checksum)
    {
        uint32_t sum = 0;
        for (uint32_t i = 0; i < h.size; i += 2)
        {
            sum += (uint32_t(h.bytes[i]) << 8) | h.bytes[i + 1];
        }
        sum = (sum & 0xffff) + (sum >> 16);
        sum = (sum & 0xffff) + (sum >> 16);
        h.bytes[10] = static_cast<uint8_t>(~sum >> 8);
        h.bytes[11] = static_cast<uint8_t>(~sum);
    }
    packet->RemoveAtStart(h.size);
    packet->AddHeader(h);
}

} // namespace ns3
