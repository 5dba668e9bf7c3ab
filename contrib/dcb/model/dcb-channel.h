/*
 * Full-duplex point-to-point link between two DcbNetDevices.
 */
#ifndef DCB_CHANNEL_H
#define DCB_CHANNEL_H

#include "dcb-frame-record.h"
#include "dcb-packet-ref.h"

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/simulator.h"

namespace ns3
{

class DcbNetDevice;
class Packet;

/**
 * \ingroup dcb
 * A full-duplex point-to-point link. A frame whose serialization starts at t
 * and lasts s reaches the peer at t + s + propagation delay (its last bit).
 * The delay is the Delay attribute, or Length × DelayPerMetre when Length > 0
 * (long-haul fibre: 5 ns/m, i.e. 5 µs/km).
 */
class DcbChannel : public Channel
{
  public:
    static TypeId GetTypeId();
    DcbChannel();

    /** Attach a device; a channel takes exactly two. */
    virtual void Attach(Ptr<DcbNetDevice> device);

    /**
     * Carry \p frame, with its record, from \p src to the other end. The arrival is one
     * event object (from a free list, no malloc) that holds the frame's reference, record
     * and counted bytes: the Packet object itself is not touched.
     * \param bytes what the frame counts in queues and counters (DcbFrameRecord::CountedBytes)
     * \param txTime the serialization time of the frame at the sender
     */
    virtual void Transmit(DcbPacketRef&& frame, const DcbFrameRecord& record, uint32_t bytes,
                          DcbNetDevice* src, Time txTime) const;

    /** \return the one-way propagation delay. */
    Time GetDelay() const;

    /** \return the device at the other end from \p device. */
    Ptr<DcbNetDevice> GetPeer(Ptr<const DcbNetDevice> device) const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    void DoDispose() override;

  private:
    Time m_delay;
    double m_lengthMetres;
    Time m_delayPerMetre;
    Ptr<DcbNetDevice> m_devices[2];
    /** Event context (node id) of each device, read at Attach; NO_CONTEXT if it had no node. */
    uint32_t m_contexts[2]{Simulator::NO_CONTEXT, Simulator::NO_CONTEXT};
    std::size_t m_nDevices{0};
};

} // namespace ns3

#endif /* DCB_CHANNEL_H */
