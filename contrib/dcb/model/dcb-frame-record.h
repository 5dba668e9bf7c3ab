/*
 * The parsed header fields a frame carries beside its bytes through the DCB
 * fabric, so that switches never deserialize or serialize headers per hop.
 */
#ifndef DCB_FRAME_RECORD_H
#define DCB_FRAME_RECORD_H

#include "ethernet-vlan-header.h"

#include "ns3/mac48-address.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <cstring>

namespace ns3
{

/**
 * \ingroup dcb
 * A MAC address as its six bytes in wire order, for records copied per frame: built and
 * copied inline (Mac48Address's constructor is a call into ns-3's library), converted to
 * and from Mac48Address where an address is needed as one.
 */
struct DcbMac
{
    uint8_t bytes[6]{};

    DcbMac() = default;

    /** \param address the address to hold */
    DcbMac(const Mac48Address& address) // NOLINT(google-explicit-constructor)
    {
        address.CopyTo(bytes);
    }

    /** \return the address as ns-3's type */
    operator Mac48Address() const // NOLINT(google-explicit-constructor)
    {
        Mac48Address a;
        a.CopyFrom(bytes);
        return a;
    }

    /** \param from six bytes in wire order */
    void CopyFrom(const uint8_t* from) { std::memcpy(bytes, from, sizeof(bytes)); }

    /** \param to where the six bytes go, in wire order */
    void CopyTo(uint8_t* to) const { std::memcpy(to, bytes, sizeof(bytes)); }
};

/**
 * \ingroup dcb
 * The Ethernet (802.1Q), IPv4 and UDP fields of one frame, parsed once where the
 * frame first needs them (Parse reads the raw bytes, no Header objects) and then
 * carried beside the Ptr<Packet> through DcbNetDevice queues, the DcbChannel
 * receive event and DcbSwitch. A switch updates the record (MAC addresses, PCP,
 * TTL, ECN) and marks it dirty instead of rewriting the bytes; whoever observes
 * the bytes (pcap, traces, error models, an MPI rank boundary, a receiver that
 * parses headers) first calls Materialize, which writes the record into the
 * frame exactly as the per-hop rewrite would have, so captures and frames stay
 * byte-identical. Every IPv4 frame is forwarded on its record: tagged or not, with or
 * without IPv4 options. A frame's size changes at one place only: an untagged frame leaves
 * a switch tagged, and the switch writes it then (4 bytes longer from there on).
 */
struct DcbFrameRecord
{
    enum Flag : uint8_t
    {
        PARSED = 1, //!< the fields below were read from the frame
        TAGGED = 2, //!< the frame has an 802.1Q tag
        IPV4 = 4,   //!< EtherType IPv4 and a whole IPv4 header (version 4, IHL 5 to 15)
        DIRTY = 8,  //!< the record holds changes not yet written into the bytes
    };
    /**
     * The upper four bits of flags: the IPv4 header's words beyond five (IHL - 5), 0 without
     * options. Kept in flags so that the record stays 40 bytes (a queue slot 56).
     */
    static constexpr uint8_t IP_OPTION_WORDS_SHIFT = 4;

    static constexpr uint32_t ETH_BYTES = 14;      //!< untagged Ethernet II header
    static constexpr uint32_t VLAN_BYTES = 4;      //!< 802.1Q tag
    static constexpr uint32_t IPV4_BYTES = 20;     //!< IPv4 header without options
    static constexpr uint32_t IPV4_MAX_BYTES = 60; //!< IPv4 header with 40 bytes of options
    static constexpr uint32_t UDP_BYTES = 8;
    static constexpr uint32_t BTH_RESV8A = 4; //!< BTH byte with the INT bits

    uint32_t src{0};       //!< IPv4 source, host order
    uint32_t dst{0};       //!< IPv4 destination, host order
    uint16_t sport{0};     //!< UDP source port (0 if not UDP)
    uint16_t dport{0};     //!< UDP destination port (0 if not UDP)
    uint16_t etherType{0}; //!< inner EtherType
    uint16_t vid{0};       //!< 802.1Q VLAN id
    uint16_t ipBytes{0};   //!< IPv4 total length (header + payload)
    uint8_t protocol{0};   //!< IPv4 protocol
    uint8_t dscp{0};
    uint8_t ecn{0};
    uint8_t ttl{0};
    uint8_t pcp{0}; //!< 802.1Q priority (0 when untagged)
    uint8_t flags{0};
    /**
     * HPCC INT (IntTrailer): hop slots the frame's INT trailer has room for, 0 when the
     * frame carries no INT to append to (plain frames, INT echoes in ACKs). Read from
     * the RoCEv2 BTH by Parse.
     */
    uint8_t intCapacity{0};
    uint8_t intHops{0}; //!< hop records already written (switches append at egress)
    /**
     * Wire-size override, set by the sending NIC (RdmaNic Framing HpccSim) and kept at
     * every hop; 0: none. When set, the frame occupies this many bytes on every link
     * (no DcbNetDevice WireOverhead is added), in every queue, buffer and byte counter,
     * and its serialization time is truncated to whole nanoseconds
     * (DcbNetDevice::SerializationTimeWholeNs), as in a simulator whose clock counts ns.
     * The frame's bytes (parsing, pcap) stay the real frame.
     */
    uint16_t wireBytes{0};
    DcbMac ethSrc;
    DcbMac ethDst;

    /** \return the record of \p frame (a complete frame, Ethernet header first). */
    static DcbFrameRecord Parse(Ptr<const Packet> frame);

    /**
     * Set intCapacity and intHops of a RoCEv2 frame as Parse does: from its BTH byte resv8a
     * (the IntHops bits and the IntEcho bit) and, when it has room for INT, its trailer.
     * For a sender that fills the record itself instead of having the first hop parse it.
     * \param resv8a the BTH's fifth byte
     * \param frame the frame (or the packet from its BTH on: the trailer is at the end)
     */
    void ReadIntFields(uint8_t resv8a, Ptr<const Packet> frame);

    bool IsParsed() const { return flags & PARSED; }
    bool IsTagged() const { return flags & TAGGED; }
    bool IsIpv4() const { return flags & IPV4; }
    bool IsDirty() const { return flags & DIRTY; }
    /** \return the bytes \p frame counts in queues, buffers and byte counters. */
    uint32_t CountedBytes(const Packet& frame) const
    {
        return wireBytes != 0 ? wireBytes : frame.GetSize();
    }

    /** \return the record of \p frame, keeping the wire-size override of \p carried. */
    static DcbFrameRecord Parse(Ptr<const Packet> frame, const DcbFrameRecord& carried)
    {
        DcbFrameRecord r = Parse(frame);
        r.wireBytes = carried.wireBytes;
        return r;
    }

    /** \return the Ethernet header size of the frame, 14 or 18 bytes. */
    uint32_t EthernetBytes() const { return IsTagged() ? ETH_BYTES + VLAN_BYTES : ETH_BYTES; }

    /** \return the IPv4 header size (IHL × 4): 20 bytes, up to 60 with options. */
    uint32_t IpHeaderBytes() const { return IPV4_BYTES + 4u * (flags >> IP_OPTION_WORDS_SHIFT); }

    /**
     * Write the record's changes into \p frame (in place) when it is dirty: the
     * frame then holds exactly the bytes a per-hop header rewrite would have
     * produced (MACs, 802.1Q tag: added when the record is tagged and the bytes are not;
     * IPv4 TTL and ECN, options kept, checksum recomputed).
     */
    void Materialize(Ptr<Packet> frame);

    /**
     * Write the record's TTL and ECN into the IPv4 header at the start of \p packet (an IPv4
     * record's frame after its Ethernet header), in place, options kept; the header
     * checksum is recomputed when \p checksum, else written as 0.
     */
    void WriteIpv4Header(Ptr<Packet> packet, bool checksum) const;
};

} // namespace ns3

#endif /* DCB_FRAME_RECORD_H */
