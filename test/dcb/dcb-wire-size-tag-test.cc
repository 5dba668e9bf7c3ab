// DcbWireSizeTag: how DcbRemoteChannel carries a frame's wire-size override (RdmaNic Framing
// HpccSim) between MPI ranks. Tested without MPI: MpiInterface::SendPacket ships
// Packet::Serialize's bytes and the receiving rank rebuilds the packet from them, which is
// done here by hand; the frame's bytes and its override survive, and the receiving device
// counts the override as a device on the sending rank would.
#include "udp-frame.h"

#include "ns3/dcb-frame-record.h"
#include "ns3/dcb-helper.h"
#include "ns3/dcb-net-device.h"
#include "ns3/dcb-wire-size-tag.h"
#include "ns3/ipv4-header.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <vector>

namespace ns3
{
namespace
{

std::vector<uint8_t>
Bytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    return b;
}

/** A 1000-byte RoCEv2-port frame of class 3 and its record, changed by a hop (TTL, CE). */
struct Hopped
{
    Ptr<Packet> frame;
    DcbFrameRecord record;
};

Hopped
HoppedFrame(uint16_t wireBytes)
{
    Hopped h;
    h.frame = UdpFrame(Ipv4Address("10.0.0.1"), Ipv4Address("10.0.1.2"), 49152, 3, 1000, true);
    h.record = DcbFrameRecord::Parse(h.frame);
    h.record.ttl -= 1;
    h.record.ecn = Ipv4Header::ECN_CE;
    h.record.flags |= DcbFrameRecord::DIRTY;
    h.record.wireBytes = wireBytes;
    return h;
}

/** What the receiving rank gets: the packet rebuilt from its serialized form. */
Ptr<Packet>
AcrossRanks(Ptr<const Packet> shipped)
{
    std::vector<uint8_t> buffer(shipped->GetSerializedSize());
    EXPECT_TRUE(shipped->Serialize(buffer.data(), buffer.size()));
    return Create<Packet>(buffer.data(), buffer.size(), true);
}

TEST(DcbWireSizeTag, TheFrameAndItsWireSizeCrossTheBoundary)
{
    for (const uint16_t wireBytes : {uint16_t{0}, uint16_t{1048}, uint16_t{0xffff}})
    {
        Hopped h = HoppedFrame(wireBytes);
        // The bytes a sequential run's receiver would materialize.
        Ptr<Packet> expected = h.frame->Copy();
        DcbFrameRecord current = h.record;
        current.Materialize(expected);
        const uint32_t size = h.frame->GetSize();

        Ptr<Packet> received = AcrossRanks(DcbWireSizeTag::Ship(h.frame, h.record));
        const DcbFrameRecord landed = DcbWireSizeTag::Land(received);
        EXPECT_EQ(Bytes(received), Bytes(expected)) << wireBytes;
        EXPECT_EQ(landed.wireBytes, wireBytes);
        EXPECT_FALSE(landed.IsParsed()); // the receiving device parses it, keeping the size
        DcbWireSizeTag left;
        EXPECT_FALSE(received->PeekPacketTag(left)); // taken off: no device sees it
        const DcbFrameRecord parsed = DcbFrameRecord::Parse(received, landed);
        EXPECT_EQ(parsed.wireBytes, wireBytes);
        EXPECT_EQ(parsed.ttl, h.record.ttl);
        EXPECT_EQ(parsed.ecn, Ipv4Header::ECN_CE);
        EXPECT_EQ(parsed.CountedBytes(*received), wireBytes != 0 ? wireBytes : size);
    }
}

TEST(DcbWireSizeTag, TheReceivingDeviceCountsTheOverride)
{
    // What the receiving rank's MpiReceiver does with a shipped frame (DcbRemoteChannel):
    // Land, then the device's channel entry point.
    Ptr<Node> a = CreateObject<Node>();
    Ptr<Node> b = CreateObject<Node>();
    DcbHelper dcb;
    Ptr<DcbNetDevice> db = DynamicCast<DcbNetDevice>(dcb.Install(a, b).Get(1));
    Hopped h = HoppedFrame(1048);
    Ptr<Packet> received = AcrossRanks(DcbWireSizeTag::Ship(h.frame, h.record));
    db->ReceiveFrame(received, DcbWireSizeTag::Land(received));
    EXPECT_EQ(db->GetCounters(3).rxPackets, 1u);
    EXPECT_EQ(db->GetCounters(3).rxBytes, 1048u); // not the frame's real size
    Simulator::Destroy();
}

} // namespace
} // namespace ns3
