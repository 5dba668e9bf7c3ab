#include "int-trailer.h"

#include "ns3/abort.h"
#include "ns3/assert.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IntTrailer);

namespace
{
/** Link speeds the 4-bit B field names, bit/s; index = code. */
constexpr std::array<uint64_t, 9> RATE_TABLE = {0,
                                                10000000000ULL,
                                                25000000000ULL,
                                                40000000000ULL,
                                                50000000000ULL,
                                                100000000000ULL,
                                                200000000000ULL,
                                                400000000000ULL,
                                                800000000000ULL};

/**
 * The last bytes of a frame from INT slot \p index on: the free slots, the count and
 * capacity, and the ICRC (kept as it was). Used by IntTrailer::StampHop only, so that a
 * switch rewrites the tail of the frame in place instead of its payload.
 */
class IntStampTail : public Trailer
{
  public:
    IntStampTail(uint8_t index, uint8_t capacity, uint64_t word)
        : m_index(index)
        , m_capacity(capacity)
        , m_word(word)
    {
    }

    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::IntStampTail").SetParent<Trailer>().SetGroupName("Dcb");
        return tid;
    }

    TypeId GetInstanceTypeId() const override { return GetTypeId(); }

    uint32_t GetSerializedSize() const override
    {
        return IntTrailer::HOP_BYTES * (m_capacity - m_index) + IntTrailer::COUNT_BYTES +
               IntTrailer::ICRC_BYTES;
    }

    void Serialize(Buffer::Iterator end) const override
    {
        Buffer::Iterator i = end; // ns-3 hands a trailer the end of the buffer
        i.Prev(GetSerializedSize());
        i.WriteHtonU64(m_word);
        for (uint32_t s = m_index + 1u; s < m_capacity; ++s)
        {
            i.WriteHtonU64(0);
        }
        i.WriteU8(static_cast<uint8_t>(m_index + 1));
        i.WriteU8(m_capacity);
        i.Write(m_icrc.data(), m_icrc.size());
    }

    uint32_t Deserialize(Buffer::Iterator end) override
    {
        Buffer::Iterator i = end;
        i.Prev(IntTrailer::ICRC_BYTES);
        i.Read(m_icrc.data(), m_icrc.size());
        return GetSerializedSize();
    }

    void Print(std::ostream& os) const override { os << "INT hop " << unsigned{m_index}; }

  private:
    uint8_t m_index;
    uint8_t m_capacity;
    uint64_t m_word;
    std::array<uint8_t, IntTrailer::ICRC_BYTES> m_icrc{};
};

/** The hop count and capacity of an INT trailer, read from before the ICRC. */
class IntCountPeek : public Trailer
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::IntCountPeek").SetParent<Trailer>().SetGroupName("Dcb");
        return tid;
    }

    TypeId GetInstanceTypeId() const override { return GetTypeId(); }

    uint32_t GetSerializedSize() const override
    {
        return IntTrailer::COUNT_BYTES + IntTrailer::ICRC_BYTES;
    }

    void Serialize(Buffer::Iterator) const override {}

    uint32_t Deserialize(Buffer::Iterator end) override
    {
        Buffer::Iterator i = end;
        i.Prev(GetSerializedSize());
        nHops = i.ReadU8();
        return GetSerializedSize();
    }

    void Print(std::ostream& os) const override { os << "INT count " << unsigned{nHops}; }

    uint8_t nHops{0};
};
} // namespace

TypeId
IntTrailer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IntTrailer")
                            .SetParent<Trailer>()
                            .SetGroupName("Dcb")
                            .AddConstructor<IntTrailer>();
    return tid;
}

TypeId
IntTrailer::GetInstanceTypeId() const
{
    return GetTypeId();
}

IntTrailer::IntTrailer() = default;

IntTrailer::IntTrailer(uint8_t capacity)
    : m_capacity(capacity)
{
    NS_ABORT_MSG_IF(capacity == 0 || capacity > MAX_HOPS,
                    "IntTrailer capacity " << unsigned{capacity} << " outside 1.."
                                           << unsigned{MAX_HOPS});
}

uint8_t
IntTrailer::GetCapacity() const
{
    return m_capacity;
}

uint8_t
IntTrailer::GetNHops() const
{
    return m_nHops;
}

uint64_t
IntTrailer::GetHopWord(uint8_t i) const
{
    NS_ASSERT(i < m_nHops);
    return m_hops[i];
}

IntHop
IntTrailer::GetHop(uint8_t i) const
{
    return DecodeHop(GetHopWord(i));
}

void
IntTrailer::PushHop(uint64_t word)
{
    if (m_nHops < m_capacity)
    {
        m_hops[m_nHops++] = word;
    }
}

uint8_t
IntTrailer::RateCode(uint64_t bps)
{
    for (uint8_t c = 1; c < RATE_TABLE.size(); ++c)
    {
        if (RATE_TABLE[c] == bps)
        {
            return c;
        }
    }
    return 0;
}

uint64_t
IntTrailer::CodeRate(uint8_t code)
{
    return code < RATE_TABLE.size() ? RATE_TABLE[code] : 0;
}

uint64_t
IntTrailer::EncodeHop(DataRate rate, Time now, uint64_t txBytes, uint64_t queueBytes)
{
    const uint64_t b = RateCode(rate.GetBitRate());
    const uint64_t ts = static_cast<uint64_t>(now.GetNanoSeconds()) % TS_MODULUS;
    const uint64_t tx = (txBytes / BYTE_UNIT) % TX_MODULUS;
    const uint64_t q = std::min<uint64_t>(queueBytes / BYTE_UNIT, QLEN_MAX);
    return (b << 60) | (ts << 36) | (tx << 16) | q;
}

IntHop
IntTrailer::DecodeHop(uint64_t word)
{
    IntHop h;
    h.rateBps = CodeRate(static_cast<uint8_t>(word >> 60));
    h.timestamp = static_cast<uint32_t>((word >> 36) & (TS_MODULUS - 1));
    h.txUnits = static_cast<uint32_t>((word >> 16) & (TX_MODULUS - 1));
    h.queueUnits = static_cast<uint32_t>(word & QLEN_MAX);
    return h;
}

void
IntTrailer::StampHop(Ptr<Packet> frame, uint8_t index, uint8_t capacity, uint64_t word)
{
    NS_ASSERT(index < capacity);
    IntStampTail tail(index, capacity, word);
    frame->RemoveTrailer(tail);
    frame->AddTrailer(tail);
}

uint8_t
IntTrailer::PeekNHops(Ptr<const Packet> frame)
{
    IntCountPeek peek;
    // Packet::PeekTrailer only reads, but is not const before ns-3.37.
    ConstCast<Packet>(frame)->PeekTrailer(peek);
    return peek.nHops;
}

uint32_t
IntTrailer::GetSerializedSize() const
{
    return SizeFor(m_capacity);
}

void
IntTrailer::Serialize(Buffer::Iterator end) const
{
    Buffer::Iterator i = end; // ns-3 hands a trailer the end of the buffer
    i.Prev(GetSerializedSize());
    for (uint8_t s = 0; s < m_capacity; ++s)
    {
        i.WriteHtonU64(s < m_nHops ? m_hops[s] : 0);
    }
    i.WriteU8(m_nHops);
    i.WriteU8(m_capacity);
}

uint32_t
IntTrailer::Deserialize(Buffer::Iterator end)
{
    Buffer::Iterator i = end;
    i.Prev(COUNT_BYTES);
    const uint8_t nHops = i.ReadU8();
    const uint8_t capacity = i.ReadU8();
    m_capacity = std::min(capacity, MAX_HOPS);
    m_nHops = std::min(nHops, m_capacity);
    i = end;
    i.Prev(SizeFor(m_capacity));
    for (uint8_t s = 0; s < m_capacity; ++s)
    {
        m_hops[s] = i.ReadNtohU64();
    }
    return GetSerializedSize();
}

void
IntTrailer::Print(std::ostream& os) const
{
    os << "INT hops=" << unsigned{m_nHops} << "/" << unsigned{m_capacity};
    for (uint8_t s = 0; s < m_nHops; ++s)
    {
        const IntHop h = DecodeHop(m_hops[s]);
        os << " [B=" << h.rateBps << " ts=" << h.timestamp << " tx=" << h.txUnits
           << " q=" << h.queueUnits << "]";
    }
}

} // namespace ns3
