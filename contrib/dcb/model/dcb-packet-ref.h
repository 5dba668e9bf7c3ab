/*
 * A move-only owner of one reference to a Packet: how a frame travels port to port
 * through the fabric without touching the Packet object at every hop.
 */
#ifndef DCB_PACKET_REF_H
#define DCB_PACKET_REF_H

#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <utility>

namespace ns3
{

/**
 * \ingroup dcb
 * Owns one reference to a Packet, like a Ptr<Packet>, but is moved instead of copied.
 * ns-3's Ptr (3.37) has no move constructor: every Ptr passed by value or stored in an
 * event writes the Packet's reference count, so a frame forwarded through a switch
 * touched its Packet object (a cold cache line, written one link delay earlier) at
 * every hop although the switch reads only the frame's DcbFrameRecord. A DcbPacketRef
 * is handed from the channel's arrival event to the device, the switch, the egress
 * queue and the channel again without a reference-count write; the Packet is touched
 * again only where someone reads or writes its bytes (Get, Release).
 */
class DcbPacketRef
{
  public:
    DcbPacketRef() = default;

    /** Take a reference to \p packet (writes its reference count once). */
    explicit DcbPacketRef(const Ptr<Packet>& packet)
        : m_packet(PeekPointer(packet))
    {
        if (m_packet != nullptr)
        {
            m_packet->Ref();
        }
    }

    DcbPacketRef(DcbPacketRef&& other) noexcept
        : m_packet(std::exchange(other.m_packet, nullptr))
    {
    }

    DcbPacketRef& operator=(DcbPacketRef&& other) noexcept
    {
        if (this != &other)
        {
            Reset();
            m_packet = std::exchange(other.m_packet, nullptr);
        }
        return *this;
    }

    DcbPacketRef(const DcbPacketRef&) = delete;
    DcbPacketRef& operator=(const DcbPacketRef&) = delete;

    ~DcbPacketRef() { Reset(); }

    /** Drop the reference held, if any. */
    void Reset()
    {
        if (m_packet != nullptr)
        {
            std::exchange(m_packet, nullptr)->Unref();
        }
    }

    /** \return a Ptr to the packet (a second reference: writes its count). */
    Ptr<Packet> Get() const { return Ptr<Packet>(m_packet); }

    /** \return the reference held, as a Ptr (no count written); this becomes empty. */
    Ptr<Packet> Release() { return Ptr<Packet>(std::exchange(m_packet, nullptr), false); }

    /** \return the packet, without a reference. */
    Packet* Peek() const { return m_packet; }

    explicit operator bool() const { return m_packet != nullptr; }

  private:
    Packet* m_packet{nullptr};
};

} // namespace ns3

#endif /* DCB_PACKET_REF_H */
