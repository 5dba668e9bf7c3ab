// The frames the dcb tests send: Ethernet + 802.1Q + IPv4 + UDP to the RoCEv2 port.
#ifndef UDP_FRAME_H
#define UDP_FRAME_H

#include "ns3/ethernet-vlan-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet.h"
#include "ns3/udp-header.h"

namespace ns3
{

/**
 * A frame of \p payload bytes from \p src (UDP source port \p sport) to \p dst, port 4791,
 * in traffic class \p tc: VLAN priority \p tc and DSCP 8 × \p tc; ECT(0) when \p ect.
 */
inline Ptr<Packet>
UdpFrame(Ipv4Address src, Ipv4Address dst, uint16_t sport, uint8_t tc, uint32_t payload,
         bool ect = false)
{
    Ptr<Packet> p = Create<Packet>(payload);
    UdpHeader udp;
    udp.SetSourcePort(sport);
    udp.SetDestinationPort(4791);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(src);
    ip.SetDestination(dst);
    ip.SetProtocol(17);
    ip.SetTtl(64);
    ip.SetDscp(static_cast<Ipv4Header::DscpType>(tc * 8));
    ip.SetPayloadSize(p->GetSize());
    if (ect)
    {
        ip.SetEcn(Ipv4Header::ECN_ECT0);
    }
    p->AddHeader(ip);
    EthernetVlanHeader eth;
    eth.SetVlanTag(tc, 0);
    eth.SetEtherType(ETHERTYPE_IPV4);
    p->AddHeader(eth);
    return p;
}

} // namespace ns3

#endif /* UDP_FRAME_H */
