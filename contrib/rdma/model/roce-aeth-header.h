/*
 * InfiniBand ACK Extended Transport Header (AETH, IBTA Vol 1, chapter 9),
 * carried by acknowledgements and by the first, last and only READ responses.
 */
#ifndef ROCE_AETH_HEADER_H
#define ROCE_AETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * NAK codes of the AETH syndrome (IBTA Vol 1, chapter 9) used by RC.
 */
enum class RoceNakCode : uint8_t
{
    PsnSequenceError = 0,
    InvalidRequest = 1,
    RemoteAccessError = 2,
    RemoteOperationalError = 3,
};

/**
 * \ingroup rdma
 * The 4-byte AETH, in network byte order: a syndrome byte and a 24-bit Message
 * Sequence Number (MSN).
 *
 * The syndrome is reserved(7), type(6:5), value(4:0); the type is 00 for an ACK
 * (value: credit count, INVALID_CREDIT when end-to-end flow control is not used),
 * 01 for an RNR NAK (value: encoded RNR timer, as IBTA Vol 1 tabulates it), 11 for a NAK
 * (value: RoceNakCode). Type 10 is reserved.
 */
class RoceAethHeader : public Header
{
  public:
    static constexpr uint32_t SERIALIZED_SIZE = 4;  //!< bytes on the wire
    static constexpr uint8_t INVALID_CREDIT = 0x1F; //!< credit count: no flow control
    static constexpr uint32_t MSN_MASK = 0xFFFFFF;  //!< MSNs are 24 bits

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** Build an ACK with INVALID_CREDIT and MSN 0. */
    RoceAethHeader();

    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /** \param creditCount 5-bit credit count (INVALID_CREDIT: no flow control) */
    void SetAck(uint8_t creditCount = INVALID_CREDIT);
    /** \param code the reason for the NAK */
    void SetNak(RoceNakCode code);
    /** \param timer 5-bit encoded minimum RNR NAK timer */
    void SetRnrNak(uint8_t timer);
    bool IsAck() const;
    /** \return true for a NAK (type 11); an RNR NAK is reported by IsRnrNak only */
    bool IsNak() const;
    bool IsRnrNak() const;
    /** \return the credit count of an ACK */
    uint8_t GetCreditCount() const;
    /** \return the code of a NAK */
    RoceNakCode GetNakCode() const;
    /** \return the encoded timer of an RNR NAK */
    uint8_t GetRnrTimer() const;

    /** \param syndrome the raw syndrome byte */
    void SetSyndrome(uint8_t syndrome);
    uint8_t GetSyndrome() const;
    /** \param msn message sequence number (24 bits) */
    void SetMsn(uint32_t msn);
    uint32_t GetMsn() const;

  private:
    /** \return syndrome bits 6:5 */
    uint8_t GetType() const;

    uint8_t m_syndrome{INVALID_CREDIT}; //!< Syndrome (ACK, no flow control)
    uint32_t m_msn{0};                  //!< MSN
};

} // namespace ns3

#endif /* ROCE_AETH_HEADER_H */
