/*
 * The outer headers of a RoCEv2 frame as one ns-3 Header: Ethernet II with an 802.1Q tag,
 * IPv4 without options, UDP, written from (and read into) a DcbFrameRecord.
 */
#ifndef ROCE_OUTER_HEADER_H
#define ROCE_OUTER_HEADER_H

#include "ns3/dcb-frame-record.h"
#include "ns3/header.h"

namespace ns3
{

/**
 * \ingroup rdma
 * Ethernet (802.1Q tagged), IPv4 and UDP in one header, so that a NIC adds the three with one
 * Packet::AddHeader instead of three (one buffer growth, one serialization pass).
 *
 * The bytes are those EthernetVlanHeader, Ipv4Header (checksum enabled, Don't Fragment set,
 * identification 0, no options) and UdpHeader (checksum 0, which IPv4 allows and RoCEv2
 * requires: IBTA Vol 1 annex A17.3.1) write for the same fields: byte-identical frames
 * (RoceOuterHeaderTest checks it against those three headers).
 *
 * The record's fields that are written: ethSrc, ethDst, pcp and vid (the tag is always
 * written), etherType of the payload (IPv4), dscp, ecn, ipBytes, ttl, protocol, src, dst,
 * sport, dport. Deserialize reads them back with DcbFrameRecord::Parse (flags PARSED,
 * TAGGED, IPV4).
 */
class RoceOuterHeader : public Header
{
  public:
    static constexpr uint32_t SERIALIZED_SIZE =
        DcbFrameRecord::ETH_BYTES + DcbFrameRecord::VLAN_BYTES + DcbFrameRecord::IPV4_BYTES +
        DcbFrameRecord::UDP_BYTES; //!< 46 bytes

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RoceOuterHeader() = default;
    /** \param record the fields to write (see the class description) */
    explicit RoceOuterHeader(const DcbFrameRecord& record);

    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /** \return the fields (after Deserialize: those read) */
    const DcbFrameRecord& GetRecord() const { return m_record; }

  private:
    DcbFrameRecord m_record;
};

} // namespace ns3

#endif /* ROCE_OUTER_HEADER_H */
