// DcbPacketRef: owns exactly one reference to its Packet; moves hand it over without a
// reference-count change; Release gives it to a Ptr without a change; the Packet lives
// while any owner holds it and is freed when the last one lets go. And a frame that
// crosses the fabric as a DcbPacketRef (channel arrival event, switch, egress queue)
// arrives at the far host with the same bytes and leaves no reference behind.
#include "ns3/dcb-channel.h"
#include "ns3/dcb-net-device.h"
#include "ns3/dcb-packet-ref.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <boost/circular_buffer.hpp>
#include <cstdint>
#include <gtest/gtest.h>
#include <utility>
#include <vector>

namespace ns3
{
namespace
{

TEST(DcbPacketRefTest, HoldsOneReferenceAndMovesWithoutCountChanges)
{
    Ptr<Packet> p = Create<Packet>(100);
    EXPECT_EQ(p->GetReferenceCount(), 1u);
    {
        DcbPacketRef a(p);
        EXPECT_EQ(p->GetReferenceCount(), 2u);
        EXPECT_EQ(a.Peek(), PeekPointer(p));
        DcbPacketRef b(std::move(a));
        EXPECT_FALSE(a);
        EXPECT_TRUE(b);
        EXPECT_EQ(p->GetReferenceCount(), 2u);
        DcbPacketRef c;
        c = std::move(b);
        EXPECT_EQ(p->GetReferenceCount(), 2u);
        {
            Ptr<Packet> copy = c.Get(); // a second reference
            EXPECT_EQ(p->GetReferenceCount(), 3u);
        }
        EXPECT_EQ(p->GetReferenceCount(), 2u);
        Ptr<Packet> released = c.Release();
        EXPECT_FALSE(c);
        EXPECT_EQ(p->GetReferenceCount(), 2u); // handed over, not copied
        EXPECT_EQ(released, p);
    }
    EXPECT_EQ(p->GetReferenceCount(), 1u);
}

TEST(DcbPacketRefTest, MoveAssignmentReleasesTheOldPacket)
{
    Ptr<Packet> p = Create<Packet>(10);
    Ptr<Packet> q = Create<Packet>(20);
    DcbPacketRef a(p);
    DcbPacketRef b(q);
    a = std::move(b);
    EXPECT_EQ(p->GetReferenceCount(), 1u);
    EXPECT_EQ(q->GetReferenceCount(), 2u);
    a.Reset();
    EXPECT_EQ(q->GetReferenceCount(), 1u);
    EXPECT_FALSE(a);
    EXPECT_EQ(DcbPacketRef(Ptr<Packet>()).Peek(), nullptr);
}

TEST(DcbPacketRefTest, RingOfRefsGrowsAndKeepsOrder)
{
    // The queue slots of DcbNetDevice: a ring that doubles when full, moving its items.
    std::vector<Ptr<Packet>> packets;
    boost::circular_buffer<DcbPacketRef> ring(2);
    for (uint32_t i = 0; i < 40; ++i)
    {
        packets.push_back(Create<Packet>(i + 1));
        if (ring.full())
        {
            ring.set_capacity(2 * ring.capacity());
        }
        ring.push_back(DcbPacketRef(packets.back()));
        if (i % 3 == 2)
        {
            DcbPacketRef head = std::move(ring.front());
            ring.pop_front();
            EXPECT_EQ(head.Peek()->GetReferenceCount(), 2u);
        }
    }
    uint32_t expectedSize = 40 - static_cast<uint32_t>(ring.size()) + 1;
    for (DcbPacketRef& r : ring)
    {
        EXPECT_EQ(r.Peek()->GetSize(), expectedSize++);
        EXPECT_EQ(r.Peek()->GetReferenceCount(), 2u);
    }
    ring.clear();
    for (const Ptr<Packet>& p : packets)
    {
        EXPECT_EQ(p->GetReferenceCount(), 1u);
    }
}

void
Collect(std::vector<Ptr<Packet>>* out, Ptr<DcbNetDevice>, Ptr<Packet> frame, const DcbFrameRecord&)
{
    out->push_back(frame);
}

class DcbPacketRefLinkTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }
};

TEST_F(DcbPacketRefLinkTest, FrameCrossesALinkAndNoReferenceIsLeft)
{
    Ptr<Node> na = CreateObject<Node>();
    Ptr<Node> nb = CreateObject<Node>();
    Ptr<DcbNetDevice> a = CreateObject<DcbNetDevice>();
    Ptr<DcbNetDevice> b = CreateObject<DcbNetDevice>();
    na->AddDevice(a);
    nb->AddDevice(b);
    Ptr<DcbChannel> ch = CreateObject<DcbChannel>();
    a->Attach(ch);
    b->Attach(ch);
    std::vector<Ptr<Packet>> received;
    b->SetDcbFrameReceiveCallback(MakeBoundCallback(&Collect, &received));
    Ptr<Packet> sent = Create<Packet>(200);
    sent->AddHeader(EthernetVlanHeader());
    const uint32_t size = sent->GetSize();
    for (int i = 0; i < 3; ++i)
    {
        a->Enqueue(sent->Copy(), 3, 0);
    }
    Simulator::Run();
    ASSERT_EQ(received.size(), 3u);
    for (const Ptr<Packet>& p : received)
    {
        EXPECT_EQ(p->GetSize(), size);
        EXPECT_EQ(p->GetReferenceCount(), 1u); // only ours: the fabric let go
    }
    EXPECT_EQ(a->GetCounters(3).txPackets, 3u);
    EXPECT_EQ(a->GetCounters(3).txBytes, 3u * size);
}

} // namespace
} // namespace ns3
