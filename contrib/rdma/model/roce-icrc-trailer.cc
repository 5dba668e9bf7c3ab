#include "roce-icrc-trailer.h"

#include "ns3/assert.h"
#include "ns3/protocol-numbers.h"

#include <array>
#include <cstring>
#include <iomanip>
#include <vector>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceIcrcTrailer);

namespace
{
// ns-3's CRC32Calculate (crc32.h) computes the same CRC but cannot continue one over
// several spans, so it would need a copy of the whole packet with the masked fields
// and the 8 bytes of 0xFF in front; feeding the raw CRC register avoids that copy.
constexpr uint32_t CRC32_POLYNOMIAL = 0xEDB88320; // reflected 0x04C11DB7
constexpr uint32_t CRC32_INITIAL = 0xFFFFFFFF;

constexpr std::array<uint32_t, 256>
MakeCrc32Table()
{
    std::array<uint32_t, 256> table{};
    for (uint32_t i = 0; i < 256; ++i)
    {
        uint32_t c = i;
        for (int bit = 0; bit < 8; ++bit)
        {
            c = (c & 1) ? (c >> 1) ^ CRC32_POLYNOMIAL : c >> 1;
        }
        table[i] = c;
    }
    return table;
}

constexpr std::array<uint32_t, 256> CRC32_TABLE = MakeCrc32Table();

/** Feed bytes into a CRC register (no initial value or final XOR applied). */
uint32_t
Crc32Update(uint32_t crc, const uint8_t* data, std::size_t length)
{
    for (std::size_t i = 0; i < length; ++i)
    {
        crc = CRC32_TABLE[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
    }
    return crc;
}

constexpr std::size_t MASKED_LRH_SIZE = 8; // bytes of 0xFF that stand for the LRH
constexpr std::size_t IPV6_HEADER_SIZE = 40;
constexpr std::size_t UDP_HEADER_SIZE = 8;
constexpr std::size_t BTH_SIZE = 12;
constexpr std::size_t MAX_MASKED_SIZE = 60 + UDP_HEADER_SIZE + BTH_SIZE; // IPv4 with options
} // namespace

TypeId
RoceIcrcTrailer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceIcrcTrailer")
                            .SetParent<Trailer>()
                            .SetGroupName("Rdma")
                            .AddConstructor<RoceIcrcTrailer>();
    return tid;
}

RoceIcrcTrailer::RoceIcrcTrailer() = default;

TypeId
RoceIcrcTrailer::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceIcrcTrailer::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
RoceIcrcTrailer::Serialize(Buffer::Iterator start) const
{
    start.Prev(SERIALIZED_SIZE);
    start.WriteHtolsbU32(m_icrc);
}

uint32_t
RoceIcrcTrailer::Deserialize(Buffer::Iterator end)
{
    end.Prev(SERIALIZED_SIZE);
    m_icrc = end.ReadLsbtohU32();
    return SERIALIZED_SIZE;
}

void
RoceIcrcTrailer::Print(std::ostream& os) const
{
    std::ios_base::fmtflags flags = os.flags();
    char fill = os.fill();
    os << "ICRC=0x" << std::hex << std::setfill('0') << std::setw(8) << m_icrc;
    os.flags(flags);
    os.fill(fill);
}

void
RoceIcrcTrailer::SetIcrc(uint32_t icrc)
{
    m_icrc = icrc;
}

uint32_t
RoceIcrcTrailer::GetIcrc() const
{
    return m_icrc;
}

uint32_t
RoceIcrcTrailer::Crc32(const uint8_t* data, std::size_t length)
{
    return ~Crc32Update(CRC32_INITIAL, data, length);
}

uint32_t
RoceIcrcTrailer::ComputeIcrc(const uint8_t* ipDatagram, std::size_t length)
{
    NS_ASSERT_MSG(length > 0, "empty datagram");
    // Copy the IP, UDP and BTH headers and overwrite their variant fields with ones.
    std::array<uint8_t, MAX_MASKED_SIZE> headers;
    std::size_t ipSize = 0;
    uint8_t version = ipDatagram[0] >> 4;
    if (version == 4)
    {
        ipSize = std::size_t{ipDatagram[0] & 0x0Fu} * 4;
        NS_ASSERT_MSG(ipSize >= 20 && length >= ipSize + UDP_HEADER_SIZE + BTH_SIZE,
                      "truncated RoCEv2 datagram");
        NS_ASSERT_MSG(ipDatagram[9] == IP_PROTOCOL_UDP, "not a UDP datagram");
        std::memcpy(headers.data(), ipDatagram, ipSize + UDP_HEADER_SIZE + BTH_SIZE);
        headers[1] = 0xFF;  // TOS (DSCP and ECN)
        headers[8] = 0xFF;  // TTL
        headers[10] = 0xFF; // header checksum
        headers[11] = 0xFF;
    }
    else
    {
        NS_ASSERT_MSG(version == 6, "neither IPv4 nor IPv6");
        ipSize = IPV6_HEADER_SIZE;
        NS_ASSERT_MSG(length >= ipSize + UDP_HEADER_SIZE + BTH_SIZE, "truncated RoCEv2 datagram");
        NS_ASSERT_MSG(ipDatagram[6] == IP_PROTOCOL_UDP, "not a UDP datagram");
        std::memcpy(headers.data(), ipDatagram, ipSize + UDP_HEADER_SIZE + BTH_SIZE);
        headers[0] |= 0x0F; // traffic class (high nibble)
        headers[1] = 0xFF;  // traffic class (low nibble) and flow label
        headers[2] = 0xFF;
        headers[3] = 0xFF;
        headers[7] = 0xFF; // hop limit
    }
    headers[ipSize + 6] = 0xFF; // UDP checksum
    headers[ipSize + 7] = 0xFF;
    headers[ipSize + UDP_HEADER_SIZE + 4] = 0xFF; // BTH resv8a

    const std::size_t masked = ipSize + UDP_HEADER_SIZE + BTH_SIZE;
    const uint8_t lrh[MASKED_LRH_SIZE] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    uint32_t crc = Crc32Update(CRC32_INITIAL, lrh, MASKED_LRH_SIZE);
    crc = Crc32Update(crc, headers.data(), masked);
    crc = Crc32Update(crc, ipDatagram + masked, length - masked);
    return ~crc;
}

uint32_t
RoceIcrcTrailer::ComputeIcrc(Ptr<const Packet> ipDatagram)
{
    std::vector<uint8_t> bytes(ipDatagram->GetSize());
    ipDatagram->CopyData(bytes.data(), static_cast<uint32_t>(bytes.size()));
    return ComputeIcrc(bytes.data(), bytes.size());
}

} // namespace ns3
