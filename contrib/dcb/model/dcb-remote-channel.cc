#include "dcb-remote-channel.h"

#include "dcb-net-device.h"
#include "dcb-wire-size-tag.h"

#include "ns3/abort.h"
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(DcbRemoteChannel);

TypeId
DcbRemoteChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcbRemoteChannel")
                            .SetParent<DcbChannel>()
                            .SetGroupName("Dcb")
                            .AddConstructor<DcbRemoteChannel>();
    return tid;
}

DcbRemoteChannel::DcbRemoteChannel() = default;

void
DcbRemoteChannel::Attach(Ptr<DcbNetDevice> device)
{
    DcbChannel::Attach(device);
    const Time delay = GetDelay();
    NS_ABORT_MSG_UNLESS(delay.IsStrictlyPositive(),
                        "DcbRemoteChannel: a link between two MPI ranks needs a positive "
                        "propagation delay (it is the lookahead)");
    // ns-3's distributed engines take the lookahead from the Delay attribute.
    SetAttribute("Delay", TimeValue(delay));
    if (!device->GetObject<MpiReceiver>())
    {
        Ptr<MpiReceiver> receiver = CreateObject<MpiReceiver>();
        receiver->SetReceiveCallback(MakeBoundCallback(&DcbRemoteChannel::ReceiveShipped, device));
        device->AggregateObject(receiver);
    }
}

void
DcbRemoteChannel::Transmit(DcbPacketRef&& frame, const DcbFrameRecord& record, uint32_t bytes,
                           DcbNetDevice* src, Time txTime) const
{
    Ptr<DcbNetDevice> dst = GetPeer(src);
    if (!dst)
    {
        return;
    }
    Ptr<Node> node = dst->GetNode();
    if (node->GetSystemId() == MpiInterface::GetSystemId())
    {
        DcbChannel::Transmit(std::move(frame), record, bytes, src, txTime);
        return;
    }
    // The rank boundary ships bytes only: the record written into them, and its wire-size
    // override as a packet tag (DcbWireSizeTag); the receiving rank parses them again, so
    // distributed runs see what sequential ones see.
    MpiInterface::SendPacket(DcbWireSizeTag::Ship(frame.Release(), record),
                             Simulator::Now() + txTime + GetDelay(), node->GetId(),
                             dst->GetIfIndex());
}

void
DcbRemoteChannel::ReceiveShipped(Ptr<DcbNetDevice> device, Ptr<Packet> shipped)
{
    const DcbFrameRecord carried = DcbWireSizeTag::Land(shipped);
    device->ReceiveFrame(shipped, carried);
}

} // namespace ns3
