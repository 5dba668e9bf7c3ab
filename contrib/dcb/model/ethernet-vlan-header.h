/*
 * Ethernet II header with an optional IEEE 802.1Q tag (PCP, DEI, VID).
 */
#ifndef ETHERNET_VLAN_HEADER_H
#define ETHERNET_VLAN_HEADER_H

#include "ns3/header.h"
#include "ns3/mac48-address.h"
#include "ns3/protocol-numbers.h"

namespace ns3
{

/**
 * \ingroup dcb
 * Ethernet II header (destination, source, EtherType) with an optional 802.1Q tag.
 * Serialized size is 14 bytes untagged and 18 bytes tagged; the FCS is not carried
 * (captures are LINKTYPE_ETHERNET without FCS; the device accounts for its 4 bytes
 * on the wire).
 */
class EthernetVlanHeader : public Header
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    EthernetVlanHeader();

    void SetDestination(Mac48Address dst);
    Mac48Address GetDestination() const;
    void SetSource(Mac48Address src);
    Mac48Address GetSource() const;
    void SetEtherType(uint16_t type);
    uint16_t GetEtherType() const;

    /** Add an 802.1Q tag with priority code point \p pcp (0..7) and VLAN id \p vid. */
    void SetVlanTag(uint8_t pcp, uint16_t vid);
    /** Remove the 802.1Q tag. */
    void ClearVlanTag();
    bool IsTagged() const;
    uint8_t GetPcp() const;
    uint16_t GetVid() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

  private:
    Mac48Address m_destination;
    Mac48Address m_source;
    uint16_t m_etherType{ETHERTYPE_IPV4};
    bool m_tagged{false};
    uint8_t m_pcp{0};
    uint16_t m_vid{0};
};

} // namespace ns3

#endif /* ETHERNET_VLAN_HEADER_H */
