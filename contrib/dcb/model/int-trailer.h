/*
 * In-band network telemetry (INT) for HPCC (Li et al., SIGCOMM'19): the hop records a
 * RoCEv2 data packet collects at switch egress, carried as real bytes before the ICRC.
 */
#ifndef INT_TRAILER_H
#define INT_TRAILER_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/trailer.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup dcb
 * One decoded INT hop record: what the egress port of one switch reported.
 */
struct IntHop
{
    uint64_t rateBps{0};    //!< link bandwidth B (0: a rate the 4-bit code cannot name)
    uint32_t timestamp{0};  //!< egress time, ns modulo 2^24
    uint32_t txUnits{0};    //!< port's cumulative wire bytes / 128, modulo 2^20
    uint32_t queueUnits{0}; //!< the class queue's bytes / 128 (saturates at 2^16 - 1)
};

/**
 * \ingroup dcb
 * The INT region of an HPCC data packet, or its echo in an ACK: a trailer that sits
 * between the RoCEv2 payload and the 4-byte ICRC.
 *
 * Layout (labelled roce-lab choice; field widths are the paper's per-hop fields, HPCC
 * section 5): C hop slots of 8 bytes, then a 1-byte hop count N and a 1-byte capacity
 * C; 2 + 8 C bytes (42 bytes for the default C = 5). Slots 0 .. N-1 hold the records of
 * the switches passed, in path order; slots N .. C-1 are zero. Each slot is one
 * big-endian 64-bit word:
 *
 * \verbatim
   bits 63..60  B        link-speed code (RateCode: 1 = 10G, 2 = 25G, 3 = 40G, 4 = 50G,
                         5 = 100G, 6 = 200G, 7 = 400G, 8 = 800G; 0 = other)
   bits 59..36  ts       egress timestamp, ns modulo 2^24
   bits 35..16  txBytes  the port's cumulative transmitted wire bytes / 128, modulo 2^20
   bits 15..0   qLen     the egress queue of the packet's class, bytes / 128, saturating
   \endverbatim
 *
 * The count and capacity come last so that a switch appends by rewriting only the tail
 * (the free slots, the count and the ICRC bytes), never the payload. The BTH says the
 * trailer is there (RoceBthHeader IntHops = C, IntEcho for an ACK's echo), so its size
 * is known without reading it.
 */
class IntTrailer : public Trailer
{
  public:
    static constexpr uint32_t HOP_BYTES = 8;   //!< one hop record
    static constexpr uint32_t COUNT_BYTES = 2; //!< hop count and capacity
    static constexpr uint8_t MAX_HOPS = 7;     //!< the BTH's 3-bit capacity field
    static constexpr uint32_t ICRC_BYTES = 4;  //!< the RoCEv2 ICRC that follows the trailer
    static constexpr uint32_t BYTE_UNIT = 128; //!< unit of txBytes and qLen
    static constexpr uint64_t TS_MODULUS = 1ULL << 24;
    static constexpr uint64_t TX_MODULUS = 1ULL << 20;
    static constexpr uint32_t QLEN_MAX = 0xFFFF;

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    IntTrailer();
    /** An empty trailer with room for \p capacity hops (1 .. MAX_HOPS). */
    explicit IntTrailer(uint8_t capacity);

    /** \return the bytes of a trailer with room for \p capacity hops. */
    static uint32_t SizeFor(uint8_t capacity) { return COUNT_BYTES + HOP_BYTES * capacity; }

    uint8_t GetCapacity() const;
    uint8_t GetNHops() const;
    /** \return the raw 64-bit record of hop \p i (< GetNHops()). */
    uint64_t GetHopWord(uint8_t i) const;
    /** \return hop \p i decoded. */
    IntHop GetHop(uint8_t i) const;
    /** Append a record (ignored when the trailer is full). */
    void PushHop(uint64_t word);

    /** \return the 64-bit record of a port of \p rate at \p now. */
    static uint64_t EncodeHop(DataRate rate, Time now, uint64_t txBytes, uint64_t queueBytes);
    static IntHop DecodeHop(uint64_t word);
    /** \return the 4-bit code of \p bps (0 if not in the table). */
    static uint8_t RateCode(uint64_t bps);
    /** \return the rate of \p code in bit/s (0 for code 0 and unused codes). */
    static uint64_t CodeRate(uint8_t code);

    /**
     * Write \p word as record \p index into the INT trailer of \p frame (a complete frame
     * whose last ICRC_BYTES are the ICRC, the trailer with \p capacity slots just before
     * them) and set its count to index + 1. Rewrites only the frame's last
     * 8 (capacity - index) + 6 bytes; reads nothing else.
     */
    static void StampHop(Ptr<Packet> frame, uint8_t index, uint8_t capacity, uint64_t word);
    /** \return the hop count of the INT trailer before the ICRC of \p frame. */
    static uint8_t PeekNHops(Ptr<const Packet> frame);

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator end) const override;
    uint32_t Deserialize(Buffer::Iterator end) override;
    void Print(std::ostream& os) const override;

  private:
    uint8_t m_capacity{0};
    uint8_t m_nHops{0};
    std::array<uint64_t, MAX_HOPS> m_hops{};
};

} // namespace ns3

#endif /* INT_TRAILER_H */
