/*
 * Pull interface through which a DcbNetDevice asks its owner (an RDMA NIC) for
 * the next frame when the wire becomes free.
 */
#ifndef DCB_TX_SOURCE_H
#define DCB_TX_SOURCE_H

#include "dcb-frame-record.h"

#include "ns3/packet.h"
#include "ns3/ptr.h"

namespace ns3
{

/**
 * \ingroup dcb
 * Something that produces frames on demand (a NIC's transmit scheduler). The
 * device calls PullFrame whenever it is idle and its own queues have nothing
 * eligible; the source calls DcbNetDevice::NotifyTxReady when it has new work.
 */
class DcbTxSource
{
  public:
    virtual ~DcbTxSource() = default;

    /**
     * \param pausedMask bit n set when traffic class n is paused by PFC
     * \param tc [out] the traffic class of the returned frame
     * \param record [in, out] unparsed on entry; a source that knows the frame's fields
     *        fills it (DcbFrameRecord::PARSED set, exactly what Parse would read), so that
     *        the first hop need not parse the frame; a source that leaves it unparsed has
     *        the receiver parse the bytes; either may set what it knows of the wire
     *        (DcbFrameRecord::wireBytes), which the first hop's parse keeps
     * \return a complete frame (Ethernet header included), or nullptr if none is
     *         eligible now
     */
    virtual Ptr<Packet> PullFrame(uint8_t pausedMask, uint8_t& tc, DcbFrameRecord& record) = 0;

    /**
     * \return false only when PullFrame would return nullptr until the source calls
     * NotifyTxReady again (it holds no frame and nothing that may become one). The device
     * then schedules no event for the end of the frame on the wire just to ask again.
     * Default true: the device asks at the end of every frame.
     */
    virtual bool HasTxWork() const { return true; }
};

} // namespace ns3

#endif /* DCB_TX_SOURCE_H */
