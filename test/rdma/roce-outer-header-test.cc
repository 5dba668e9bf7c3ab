// RoceOuterHeader writes exactly the bytes of EthernetVlanHeader + Ipv4Header + UdpHeader as
// the NIC used to add them one by one, and reads them back as DcbFrameRecord::Parse does.
#include "ns3/dcb-frame-record.h"
#include "ns3/ethernet-vlan-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet.h"
#include "ns3/roce-icrc-trailer.h"
#include "ns3/roce-outer-header.h"
#include "ns3/udp-header.h"

#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

std::vector<uint8_t>
Bytes(Ptr<const Packet> packet)
{
    std::vector<uint8_t> bytes(packet->GetSize());
    packet->CopyData(bytes.data(), bytes.size());
    return bytes;
}

/** The frame as three ns-3 headers build it (the NIC's encapsulation before one header). */
Ptr<Packet>
ThreeHeaders(const DcbFrameRecord& r, uint32_t payload)
{
    Ptr<Packet> p = Create<Packet>(payload);
    p->AddTrailer(RoceIcrcTrailer());
    UdpHeader udp;
    udp.SetSourcePort(r.sport);
    udp.SetDestinationPort(r.dport);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address(r.src));
    ip.SetDestination(Ipv4Address(r.dst));
    ip.SetProtocol(r.protocol);
    ip.SetPayloadSize(p->GetSize());
    ip.SetTtl(r.ttl);
    ip.SetDscp(static_cast<Ipv4Header::DscpType>(r.dscp));
    ip.SetEcn(static_cast<Ipv4Header::EcnType>(r.ecn));
    ip.SetDontFragment();
    ip.EnableChecksum();
    p->AddHeader(ip);
    EthernetVlanHeader eth;
    eth.SetSource(r.ethSrc);
    eth.SetDestination(r.ethDst);
    eth.SetVlanTag(r.pcp, r.vid);
    eth.SetEtherType(ETHERTYPE_IPV4);
    p->AddHeader(eth);
    return p;
}

DcbFrameRecord
RandomRecord(std::mt19937& rng, uint32_t payload)
{
    std::uniform_int_distribution<uint32_t> u32;
    DcbFrameRecord r;
    uint8_t mac[6];
    for (auto& b : mac)
    {
        b = static_cast<uint8_t>(u32(rng));
    }
    r.ethSrc.CopyFrom(mac);
    mac[5] ^= 0x5a;
    r.ethDst.CopyFrom(mac);
    r.dscp = static_cast<uint8_t>(u32(rng) % 64);
    r.pcp = static_cast<uint8_t>(r.dscp >> 3);
    r.ecn = static_cast<uint8_t>(u32(rng) % 4);
    r.ttl = static_cast<uint8_t>(u32(rng));
    r.protocol = 17;
    r.src = u32(rng);
    r.dst = u32(rng);
    r.sport = static_cast<uint16_t>(u32(rng));
    r.dport = 4791;
    r.ipBytes = static_cast<uint16_t>(payload + RoceIcrcTrailer::SERIALIZED_SIZE +
                                      DcbFrameRecord::IPV4_BYTES + DcbFrameRecord::UDP_BYTES);
    return r;
}

TEST(RoceOuterHeaderTest, WritesTheBytesOfEthernetIpv4AndUdpHeaders)
{
    std::mt19937 rng(7);
    for (uint32_t payload : {0u, 1u, 12u, 28u, 1000u, 1012u, 4096u})
    {
        for (int k = 0; k < 50; ++k)
        {
            const DcbFrameRecord r = RandomRecord(rng, payload);
            Ptr<Packet> one = Create<Packet>(payload);
            one->AddTrailer(RoceIcrcTrailer());
            one->AddHeader(RoceOuterHeader(r));
            ASSERT_EQ(Bytes(one), Bytes(ThreeHeaders(r, payload))) << "payload " << payload;
        }
    }
}

TEST(RoceOuterHeaderTest, ReadsBackWhatParseReads)
{
    std::mt19937 rng(11);
    const DcbFrameRecord r = RandomRecord(rng, 1000);
    Ptr<Packet> p = Create<Packet>(1000);
    p->AddTrailer(RoceIcrcTrailer());
    p->AddHeader(RoceOuterHeader(r));
    const DcbFrameRecord parsed = DcbFrameRecord::Parse(p);
    RoceOuterHeader h;
    p->RemoveHeader(h);
    const DcbFrameRecord& read = h.GetRecord();
    EXPECT_EQ(read.flags, parsed.flags);
    EXPECT_EQ(read.ethSrc, parsed.ethSrc);
    EXPECT_EQ(read.ethDst, parsed.ethDst);
    EXPECT_EQ(read.etherType, parsed.etherType);
    EXPECT_EQ(read.pcp, parsed.pcp);
    EXPECT_EQ(read.vid, parsed.vid);
    EXPECT_EQ(read.dscp, parsed.dscp);
    EXPECT_EQ(read.ecn, parsed.ecn);
    EXPECT_EQ(read.ipBytes, parsed.ipBytes);
    EXPECT_EQ(read.ttl, parsed.ttl);
    EXPECT_EQ(read.protocol, parsed.protocol);
    EXPECT_EQ(read.src, parsed.src);
    EXPECT_EQ(read.dst, parsed.dst);
    EXPECT_EQ(read.sport, parsed.sport);
    EXPECT_EQ(read.dport, parsed.dport);
    EXPECT_EQ(p->GetSize(), 1000u + RoceIcrcTrailer::SERIALIZED_SIZE);
}

} // namespace
