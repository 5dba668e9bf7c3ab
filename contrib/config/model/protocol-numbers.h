/*
 * The protocol numbers every module shares: IP protocol, UDP port and EtherTypes.
 */
#ifndef PROTOCOL_NUMBERS_H
#define PROTOCOL_NUMBERS_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup config
 * \defgroup protocol-numbers Protocol numbers
 * Numbers assigned by IANA and IEEE that frames of the suite carry. Each is written once,
 * here; models, headers and tests name it.
 * @{
 */

/** IP protocol (IPv4) and next header (IPv6) of UDP (IANA, RFC 768). */
inline constexpr uint8_t IP_PROTOCOL_UDP = 17;
/** UDP destination port of RoCEv2 (IANA; InfiniBand Architecture Spec. Annex A17). */
inline constexpr uint16_t ROCE_V2_UDP_PORT = 4791;
/** EtherType of IPv4 (IEEE 802 numbers, RFC 894). */
inline constexpr uint16_t ETHERTYPE_IPV4 = 0x0800;
/** EtherType of an IEEE 802.1Q tag (its TPID). */
inline constexpr uint16_t ETHERTYPE_VLAN = 0x8100;
/** EtherType of MAC control frames: PAUSE and PFC (IEEE 802.3 Annex 31B, 802.1Qbb). */
inline constexpr uint16_t ETHERTYPE_MAC_CONTROL = 0x8808;

/** @} */

} // namespace ns3

#endif /* PROTOCOL_NUMBERS_H */
