// A line-rate bulk sender for the dcb scenario tests (a host NIC's pull source).
#ifndef DCB_BULK_SOURCE_H
#define DCB_BULK_SOURCE_H

#include "udp-frame.h"

#include "ns3/dcb-tx-source.h"

#include <algorithm>

namespace ns3
{

constexpr uint32_t PAYLOAD = 4096; //!< UDP payload of every frame but the last

/** A host NIC that sends \p bytes of frames of class \p tc to one destination at line rate. */
class BulkSource : public DcbTxSource
{
  public:
    BulkSource(uint32_t src, uint32_t dst, uint64_t bytes, uint8_t tc, bool ect = false)
        : m_src(src)
        , m_dst(dst)
        , m_left(bytes)
        , m_tc(tc)
        , m_ect(ect)
    {
    }

    static Ipv4Address Host(uint32_t i) { return Ipv4Address(Ipv4Address("10.0.0.1").Get() + i); }

    Ptr<Packet> PullFrame(uint8_t pausedMask, uint8_t& tc, DcbFrameRecord& /* record */) override
    {
        if (m_left == 0 || ((pausedMask >> m_tc) & 1))
        {
            return nullptr;
        }
        const uint32_t size = static_cast<uint32_t>(std::min<uint64_t>(m_left, PAYLOAD));
        m_left -= size;
        Ptr<Packet> p =
            UdpFrame(Host(m_src), Host(m_dst), uint16_t(10000 + m_src), m_tc, size, m_ect);
        tc = m_tc;
        return p;
    }

  private:
    uint32_t m_src;
    uint32_t m_dst;
    uint64_t m_left;
    uint8_t m_tc;
    bool m_ect;
};

} // namespace ns3

#endif /* DCB_BULK_SOURCE_H */
