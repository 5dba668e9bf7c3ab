#include "dcb-frame-record.h"

#include "ethernet-vlan-header.h"
#include "int-trailer.h"

#include "ns3/ipv4-header.h"
#include "ns3/protocol-numbers.h"

namespace ns3
{

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
} // namespace

DcbFrameRecord
DcbFrameRecord::Parse(Ptr<const Packet> frame)
{
    DcbFrameRecord r;
    // Through the BTH's resv8a byte (the INT bits of a RoCEv2 frame).
    constexpr uint32_t MAX = ETH_BYTES + VLAN_BYTES + IPV4_BYTES + UDP_BYTES + BTH_RESV8A + 1;
    uint8_t b[MAX];
    const uint32_t n = frame->CopyData(b, MAX);
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
    if (r.etherType != ETHERTYPE_IPV4 || n < off + IPV4_BYTES || b[off] != 0x45)
    {
        return r; // not IPv4, or IPv4 with options: consumers take their slow path
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
    if (r.protocol == IP_PROTOCOL_UDP && n >= off + IPV4_BYTES + 4)
    {
        r.sport = Be16(ip + 20);
        r.dport = Be16(ip + 22);
        const uint32_t resv8a = off + IPV4_BYTES + UDP_BYTES + BTH_RESV8A;
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
        Ipv4Header ip;
        frame->RemoveHeader(ip);
        ip.SetTtl(ttl);
        ip.SetEcn(static_cast<Ipv4Header::EcnType>(ecn));
        ip.EnableChecksum();
        frame->AddHeader(ip);
    }
    frame->AddHeader(eth);
    flags &= ~DIRTY;
}

EthernetVlanHeader
DcbFrameRecord::MaterializeAndStripEthernet(Ptr<Packet> frame) const
{
    DcbFrameRecord current = *this;
    current.Materialize(frame);
    EthernetVlanHeader eth;
    frame->RemoveHeader(eth);
    return eth;
}

} // namespace ns3
