/*
 * IEEE 802.1Qbb priority-based flow control frame (MAC control opcode 0x0101).
 */
#ifndef PFC_FRAME_H
#define PFC_FRAME_H

#include "ns3/header.h"

#include <array>

namespace ns3
{

/**
 * \ingroup dcb
 * The MAC-control payload of a PFC frame, carried after an untagged Ethernet header
 * with EtherType 0x8808 to 01-80-C2-00-00-01: opcode 0x0101, a two-octet
 * class-enable vector (bit n for priority n), eight two-octet pause times in
 * quanta of 512 bit times (priority 0 first) and 26 octets of padding, so that
 * the frame is 64 bytes with its FCS (IEEE 802.1Qbb clause 36).
 * A time of 0 for an enabled class means XON (resume).
 */
class PfcFrame : public Header
{
  public:
    static constexpr uint16_t OPCODE_PFC = 0x0101;
    static constexpr uint32_t BITS_PER_QUANTUM = 512;

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    PfcFrame();

    /** Enable class \p cls with a pause time of \p quanta (0 = resume). */
    void SetPause(uint8_t cls, uint16_t quanta);
    bool IsEnabled(uint8_t cls) const;
    uint16_t GetQuanta(uint8_t cls) const;
    uint16_t GetClassEnableVector() const;
    uint16_t GetOpcode() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

  private:
    uint16_t m_opcode{OPCODE_PFC};
    uint16_t m_classEnable{0};
    std::array<uint16_t, 8> m_quanta{};
};

} // namespace ns3

#endif /* PFC_FRAME_H */
