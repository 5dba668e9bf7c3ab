/*
 * InfiniBand Base Transport Header (BTH) as carried by RoCEv2 (IBTA Vol 1, chapter 9
 * and annex A17), plus the RC opcodes and the 24-bit PSN arithmetic the transport needs.
 */
#ifndef ROCE_BTH_HEADER_H
#define ROCE_BTH_HEADER_H

#include "ns3/header.h"

#include <cstdint>
#include <ostream>

namespace ns3
{

/**
 * \ingroup rdma
 * BTH opcodes of the Reliable Connection transport (IBTA Vol 1, chapter 9),
 * and that of the RoCEv2 Congestion Notification Packet (annex A17).
 */
enum class RoceOpcode : uint8_t
{
    SendFirst = 0x00,
    SendMiddle = 0x01,
    SendLast = 0x02,
    SendLastImm = 0x03,
    SendOnly = 0x04,
    SendOnlyImm = 0x05,
    WriteFirst = 0x06,
    WriteMiddle = 0x07,
    WriteLast = 0x08,
    WriteLastImm = 0x09,
    WriteOnly = 0x0A,
    WriteOnlyImm = 0x0B,
    ReadRequest = 0x0C,
    ReadResponseFirst = 0x0D,
    ReadResponseMiddle = 0x0E,
    ReadResponseLast = 0x0F,
    ReadResponseOnly = 0x10,
    Acknowledge = 0x11,
    Cnp = 0x81,
};

/**
 * Print an opcode by name with its value, e.g. "WriteOnly(0x0a)".
 * \param os the output stream
 * \param opcode the opcode
 * \return os
 */
std::ostream& operator<<(std::ostream& os, RoceOpcode opcode);

/**
 * \ingroup rdma
 * The 12-byte Base Transport Header, in network byte order:
 *
 * \verbatim
   byte 0      OpCode
   byte 1      SE(7) M(6) PadCnt(5:4) TVer(3:0)
   bytes 2-3   P_Key
   byte 4      FECN(7) BECN(6) reserved(5:4) IntEcho(3) IntHops(2:0)
               ("resv8a", masked out of the ICRC)
   bytes 5-7   DestQP
   byte 8      AckReq(7) reserved(6:0)
   bytes 9-11  PSN
   \endverbatim
 *
 * IntHops and IntEcho are a labelled roce-lab choice in resv8a (contrib/rdma/doc/rdma.md,
 * "In-band network telemetry"): IntHops > 0 says the packet carries an IntTrailer with
 * room for that many hop records between its payload and its ICRC; IntEcho says the
 * trailer is a receiver's echo (switches do not append to it). Both are 0 on plain
 * RoCEv2 packets. Other reserved bits are sent as zero and ignored on receipt. RoCEv2 signals
 congestion
 * with ECN in the IP header and CNPs, not with FECN/BECN; the bits are kept because
 * some NICs set BECN in the CNPs they send, and ACKs carry BECN for window congestion
 * control's CE echo (RdmaDctcp) and for RdmaDcqcn's CnpDelivery AckBecn (the HPCC
 * simulator's CNP flag on the ACK).
 */
class RoceBthHeader : public Header
{
  public:
    static constexpr uint32_t SERIALIZED_SIZE = 12;           //!< bytes on the wire
    static constexpr uint16_t DEFAULT_PARTITION_KEY = 0xFFFF; //!< full-member default P_Key
    static constexpr uint32_t PSN_MASK = 0xFFFFFF;            //!< PSNs are 24 bits
    static constexpr uint32_t QP_MASK = 0xFFFFFF;             //!< queue-pair numbers are 24 bits
    static constexpr uint32_t RESV8A_OFFSET = 4;              //!< byte of FECN/BECN/INT bits
    static constexpr uint8_t INT_HOPS_MASK = 0x07;            //!< resv8a bits 2:0
    static constexpr uint8_t INT_ECHO_BIT = 0x08;             //!< resv8a bit 3

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RoceBthHeader();

    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    void SetOpcode(RoceOpcode opcode);
    RoceOpcode GetOpcode() const;
    void SetSolicitedEvent(bool solicitedEvent);
    bool GetSolicitedEvent() const;
    void SetMigReq(bool migReq);
    bool GetMigReq() const;
    /** \param padCount pad bytes (0 to 3) that align the payload to 4 bytes */
    void SetPadCount(uint8_t padCount);
    uint8_t GetPadCount() const;
    /** \param version transport header version (4 bits; 0 in IBTA 1.x) */
    void SetTransportVersion(uint8_t version);
    uint8_t GetTransportVersion() const;
    void SetPartitionKey(uint16_t partitionKey);
    uint16_t GetPartitionKey() const;
    void SetFecn(bool fecn);
    bool GetFecn() const;
    void SetBecn(bool becn);
    bool GetBecn() const;
    /** \param hops hop records the packet's IntTrailer has room for (0: none; at most 7) */
    void SetIntHops(uint8_t hops);
    uint8_t GetIntHops() const;
    /** \param echo the IntTrailer is a receiver's echo, not to be appended to */
    void SetIntEcho(bool echo);
    bool GetIntEcho() const;
    /** \param destQp destination queue-pair number (24 bits) */
    void SetDestQp(uint32_t destQp);
    uint32_t GetDestQp() const;
    void SetAckRequest(bool ackRequest);
    bool GetAckRequest() const;
    /** \param psn packet sequence number (24 bits) */
    void SetPsn(uint32_t psn);
    uint32_t GetPsn() const;

    /**
     * \param opcode an opcode
     * \return its name ("WriteOnly"), or "Unknown" for opcodes outside RoceOpcode
     */
    static const char* GetOpcodeName(RoceOpcode opcode);

    /** \return (psn + delta) modulo 2^24; delta may be negative */
    static constexpr uint32_t PsnAdd(uint32_t psn, int32_t delta)
    {
        return (psn + static_cast<uint32_t>(delta)) & PSN_MASK;
    }

    /**
     * \return a - b as a signed distance modulo 2^24, in [-2^23, 2^23): positive when
     *         a is after b in sequence space
     */
    static constexpr int32_t PsnDiff(uint32_t a, uint32_t b)
    {
        uint32_t d = (a - b) & PSN_MASK;
        return d >= 0x800000 ? static_cast<int32_t>(d) - 0x1000000 : static_cast<int32_t>(d);
    }

    /** \return the 24-bit wire PSN of the 64-bit sequence number \p psn */
    static constexpr uint32_t WirePsn(uint64_t psn)
    {
        return static_cast<uint32_t>(psn & PSN_MASK);
    }

    /** \return the 64-bit sequence number closest to \p reference whose wire PSN is \p wire */
    static constexpr uint64_t UnwrapPsn(uint32_t wire, uint64_t reference)
    {
        const int64_t value = static_cast<int64_t>(reference) + PsnDiff(wire, WirePsn(reference));
        return value < 0 ? 0 : static_cast<uint64_t>(value);
    }

    /** \return true if an RDMA Extended Transport Header (RETH) follows the BTH */
    static constexpr bool HasReth(RoceOpcode op)
    {
        return op == RoceOpcode::WriteFirst || op == RoceOpcode::WriteOnly ||
               op == RoceOpcode::WriteOnlyImm || op == RoceOpcode::ReadRequest;
    }

    /** \return true if an ACK Extended Transport Header (AETH) follows the BTH */
    static constexpr bool HasAeth(RoceOpcode op)
    {
        return op == RoceOpcode::ReadResponseFirst || op == RoceOpcode::ReadResponseLast ||
               op == RoceOpcode::ReadResponseOnly || op == RoceOpcode::Acknowledge;
    }

    /** \return true if a 4-byte immediate-data header (ImmDt) follows the other headers */
    static constexpr bool HasImmDt(RoceOpcode op)
    {
        return op == RoceOpcode::SendLastImm || op == RoceOpcode::SendOnlyImm ||
               op == RoceOpcode::WriteLastImm || op == RoceOpcode::WriteOnlyImm;
    }

    /** \return true for the opcodes of SEND request packets */
    static constexpr bool IsSend(RoceOpcode op)
    {
        return op >= RoceOpcode::SendFirst && op <= RoceOpcode::SendOnlyImm;
    }

    /** \return true for the opcodes of RDMA WRITE request packets */
    static constexpr bool IsWrite(RoceOpcode op)
    {
        return op >= RoceOpcode::WriteFirst && op <= RoceOpcode::WriteOnlyImm;
    }

    /** \return true for the opcodes of RDMA READ response packets */
    static constexpr bool IsReadResponse(RoceOpcode op)
    {
        return op >= RoceOpcode::ReadResponseFirst && op <= RoceOpcode::ReadResponseOnly;
    }

    /**
     * \return true if the packet opens a message: a First or Only packet of a SEND,
     *         WRITE or READ response, or a READ request (a one-packet message)
     */
    static constexpr bool IsFirstOrOnly(RoceOpcode op)
    {
        return op == RoceOpcode::SendFirst || op == RoceOpcode::SendOnly ||
               op == RoceOpcode::SendOnlyImm || op == RoceOpcode::WriteFirst ||
               op == RoceOpcode::WriteOnly || op == RoceOpcode::WriteOnlyImm ||
               op == RoceOpcode::ReadRequest || op == RoceOpcode::ReadResponseFirst ||
               op == RoceOpcode::ReadResponseOnly;
    }

    /**
     * \return true if the packet closes a message: a Last or Only packet of a SEND,
     *         WRITE or READ response, or a READ request (a one-packet message)
     */
    static constexpr bool IsLastOrOnly(RoceOpcode op)
    {
        return op == RoceOpcode::SendLast || op == RoceOpcode::SendLastImm ||
               op == RoceOpcode::SendOnly || op == RoceOpcode::SendOnlyImm ||
               op == RoceOpcode::WriteLast || op == RoceOpcode::WriteLastImm ||
               op == RoceOpcode::WriteOnly || op == RoceOpcode::WriteOnlyImm ||
               op == RoceOpcode::ReadRequest || op == RoceOpcode::ReadResponseLast ||
               op == RoceOpcode::ReadResponseOnly;
    }

  private:
    RoceOpcode m_opcode{RoceOpcode::SendOnly};      //!< OpCode
    bool m_solicitedEvent{false};                   //!< SE
    bool m_migReq{false};                           //!< M
    uint8_t m_padCount{0};                          //!< PadCnt
    uint8_t m_transportVersion{0};                  //!< TVer
    uint16_t m_partitionKey{DEFAULT_PARTITION_KEY}; //!< P_Key
    bool m_fecn{false};                             //!< FECN (byte 4, bit 7)
    bool m_becn{false};                             //!< BECN (byte 4, bit 6)
    uint8_t m_intHops{0};                           //!< IntHops (byte 4, bits 2:0)
    bool m_intEcho{false};                          //!< IntEcho (byte 4, bit 3)
    uint32_t m_destQp{0};                           //!< DestQP
    bool m_ackRequest{false};                       //!< A
    uint32_t m_psn{0};                              //!< PSN
};

} // namespace ns3

#endif /* ROCE_BTH_HEADER_H */
