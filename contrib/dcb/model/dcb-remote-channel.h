/*
 * A DcbChannel whose two ends may be simulated by different MPI ranks.
 */
#ifndef DCB_REMOTE_CHANNEL_H
#define DCB_REMOTE_CHANNEL_H

#include "dcb-channel.h"

namespace ns3
{

/**
 * \ingroup dcb
 * A DcbChannel for a link whose ends belong to different partitions of a
 * distributed simulation (ns-3's mpi module, DistributedSimulatorImpl or
 * NullMessageSimulatorImpl). A frame for a device of the local rank is delivered
 * as by DcbChannel; a frame for a device of another rank is handed to
 * MpiInterface::SendPacket with its arrival time (end of serialization plus the
 * propagation delay), and the receiving rank's MpiReceiver, aggregated to every
 * device attached here, passes it to DcbNetDevice::Receive at that time. Data
 * frames, PFC frames, ACKs and CNPs cross alike: they are all frames.
 *
 * The propagation delay is the lookahead of the conservative synchronisation:
 * ns-3's engines read it from the "Delay" attribute, so when Length sets the
 * delay, Attach copies the effective delay into Delay. A remote link needs a
 * positive delay (a zero lookahead cannot advance). A frame crosses as its bytes with
 * its wire-size override as a packet tag (DcbWireSizeTag), which the receiving device keeps.
 *
 * Built only when ns-3 has its mpi module (./roce-lab setup --mpi).
 */
class DcbRemoteChannel : public DcbChannel
{
  public:
    static TypeId GetTypeId();
    DcbRemoteChannel();

    void Attach(Ptr<DcbNetDevice> device) override;
    void Transmit(DcbPacketRef&& frame, const DcbFrameRecord& record, uint32_t bytes,
                  DcbNetDevice* src, Time txTime) const override;

  private:
    /** The receiving rank's MpiReceiver: a frame DcbWireSizeTag::Ship made, to \p device. */
    static void ReceiveShipped(Ptr<DcbNetDevice> device, Ptr<Packet> shipped);
};

} // namespace ns3

#endif /* DCB_REMOTE_CHANNEL_H */
