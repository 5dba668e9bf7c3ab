/*
 * SRNIC header extensions (Wang et al., NSDI'23, section 4.4.1).
 */
#ifndef ROCE_SRNIC_EXT_HEADER_H
#define ROCE_SRNIC_EXT_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * Extra fields after the BTH that let an SRNIC responder place an out-of-order packet
 * directly: a SEND packet carries its SSN and PSN offset within the message (8 B,
 * 66 B of headers instead of 58); a WRITE packet without a RETH carries the remote
 * address, key and length and its PSN offset (20 B, 78 B of headers); a WRITE
 * packet that has a RETH only adds the PSN offset (4 B). Responses echo the
 * metadata back (section 4.4.1, "let their response packets echo the same metadata"):
 * an ACK/NAK carries the SSN and PSN offset of the request packet it answers (8 B);
 * a READ request carries the requester's destination address, key and length and
 * its PSN offset, and every READ response echoes them for its own packet (20 B), so
 * the requester places a response, in order or not, without a table lookup. The
 * kind must be set before Deserialize (the opcode tells which).
 */
class RoceSrnicExtHeader : public Header
{
  public:
    enum class Kind : uint8_t
    {
        Send = 0,  //!< SSN + PSN offset
        Write,     //!< virtual address, rkey, length, PSN offset
        WriteReth, //!< PSN offset only (the packet has a RETH)
        Echo,      //!< ACK/NAK: SSN + PSN offset of the answered request packet
        Read,      //!< READ request/response: requester's address, key, length, PSN offset
    };

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    void SetKind(Kind kind);
    Kind GetKind() const;
    void SetSsn(uint32_t ssn);
    uint32_t GetSsn() const;
    void SetPsnOffset(uint32_t offset);
    uint32_t GetPsnOffset() const;
    void SetVirtualAddress(uint64_t va);
    uint64_t GetVirtualAddress() const;
    void SetRemoteKey(uint32_t rkey);
    uint32_t GetRemoteKey() const;
    void SetDmaLength(uint32_t length);
    uint32_t GetDmaLength() const;

    /** \return the extension bytes of \p kind. */
    static uint32_t SizeOf(Kind kind);

  private:
    Kind m_kind{Kind::Send};
    uint32_t m_ssn{0};
    uint32_t m_psnOffset{0};
    uint64_t m_va{0};
    uint32_t m_rkey{0};
    uint32_t m_length{0};
};

} // namespace ns3

#endif /* ROCE_SRNIC_EXT_HEADER_H */
