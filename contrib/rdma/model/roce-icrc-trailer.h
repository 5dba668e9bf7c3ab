/*
 * The RoCEv2 Invariant CRC (ICRC, IBTA Vol 1, chapter 7 and annex A17.8): four bytes
 * after the InfiniBand payload, before the Ethernet FCS.
 */
#ifndef ROCE_ICRC_TRAILER_H
#define ROCE_ICRC_TRAILER_H

#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/trailer.h"

#include <cstddef>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * The 4-byte ICRC trailer of a RoCEv2 packet.
 *
 * The trailer only carries a value (0 by default: the simulation does not need it).
 * So that packet captures carry a valid ICRC, ComputeIcrc() computes the real one;
 * it reads every byte of the packet, so the NIC decides whether to pay for it.
 *
 * The ICRC is the CRC-32 of Ethernet (reflected polynomial 0xEDB88320, initial value
 * and final XOR 0xFFFFFFFF) over 8 bytes of 0xFF (standing for the masked InfiniBand
 * LRH) followed by the IP header, UDP header, BTH, the other transport headers and
 * the payload, with the variant fields replaced by ones: IPv4 TOS, TTL and header
 * checksum (IPv6 traffic class, flow label and hop limit), UDP checksum and BTH
 * byte 4 (resv8a, which holds FECN/BECN). Like the Ethernet FCS it is sent least
 * significant byte first: the CRC value 0x2a00fd82 goes on the wire as 82 fd 00 2a
 * (and Wireshark, which reads it as a big-endian number, shows 0x82fd002a).
 */
class RoceIcrcTrailer : public Trailer
{
  public:
    static constexpr uint32_t SERIALIZED_SIZE = 4; //!< bytes on the wire

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RoceIcrcTrailer();

    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator end) override;
    void Print(std::ostream& os) const override;

    /** \param icrc the CRC value, as returned by ComputeIcrc() */
    void SetIcrc(uint32_t icrc);
    uint32_t GetIcrc() const;

    /**
     * Compute the ICRC of a RoCEv2 packet.
     * \param ipDatagram the packet from the first byte of its IPv4 or IPv6 header to
     *        the last byte of its InfiniBand payload (pad bytes included, ICRC excluded);
     *        the IP and UDP lengths in it already count the 4 ICRC bytes, as on the wire
     * \param length the number of bytes at ipDatagram
     * \return the ICRC value to store with SetIcrc()
     */
    static uint32_t ComputeIcrc(const uint8_t* ipDatagram, std::size_t length);

    /**
     * Compute the ICRC of a RoCEv2 packet held in an ns-3 Packet that starts with its
     * IP header and has no ICRC trailer yet. This copies the packet's bytes.
     * \param ipDatagram the packet
     * \return the ICRC value to store with SetIcrc()
     */
    static uint32_t ComputeIcrc(Ptr<const Packet> ipDatagram);

    /**
     * The CRC-32 of Ethernet and zlib (CRC-32/ISO-HDLC), the core of the ICRC.
     * \param data the bytes
     * \param length the number of bytes
     * \return the CRC
     */
    static uint32_t Crc32(const uint8_t* data, std::size_t length);

  private:
    uint32_t m_icrc{0}; //!< the CRC value
};

} // namespace ns3

#endif /* ROCE_ICRC_TRAILER_H */
