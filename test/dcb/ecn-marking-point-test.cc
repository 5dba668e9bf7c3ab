// ECN marking at enqueue vs dequeue on a 2 -> 1 incast, and the WRED average (weight).
#include "dcb-bulk-source.h"

#include "ns3/dcb-helper.h"
#include "ns3/dcb-net-device.h"
#include "ns3/dcb-switch.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/node.h"
#include "ns3/queue-size.h"
#include "ns3/red-ecn-marker.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <memory>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint8_t TC = 3;
constexpr uint64_t K = 100000; // step marking threshold, bytes

struct MarkResult
{
    Time firstCe{-1};
    uint64_t marks{0};
    uint64_t received{0};
};

void
OnReceive(MarkResult* r, Ptr<DcbNetDevice>, Ptr<Packet> p, const EthernetVlanHeader&)
{
    Ipv4Header ip;
    p->PeekHeader(ip);
    r->received++;
    if (ip.GetEcn() == Ipv4Header::ECN_CE && r->firstCe.IsNegative())
    {
        r->firstCe = Simulator::Now();
    }
}

/** Hosts 0 and 1 send 1 MB each at 100 Gb/s to host 2; step marking at K on class 3. */
MarkResult
RunIncast(EcnMarker::MarkingPoint point)
{
    DcbHelper h;
    h.SetEcnMarkerAttribute("Kmin", QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, K)));
    h.SetEcnMarkerAttribute("Kmax", QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, K)));
    h.SetEcnMarkerAttribute("Pmax", DoubleValue(1.0));
    h.SetEcnMarkerAttribute("MarkingPoint", EnumValue(point));
    Ptr<Node> s = CreateObject<Node>();
    std::vector<Ptr<DcbNetDevice>> nics;
    for (uint32_t i = 0; i < 3; ++i)
    {
        nics.push_back(DynamicCast<DcbNetDevice>(h.Install(CreateObject<Node>(), s).Get(0)));
    }
    MarkResult r;
    nics[2]->SetDcbReceiveCallback(MakeBoundCallback(&OnReceive, &r));
    Ptr<DcbSwitch> sw = h.InstallSwitch(s);
    sw->SetAddressRange(BulkSource::Host(0), 3);
    for (uint32_t i = 0; i < 3; ++i)
    {
        sw->SetRoute(BulkSource::Host(i), {i});
    }
    std::vector<std::unique_ptr<BulkSource>> src;
    for (uint32_t i = 0; i < 2; ++i)
    {
        src.emplace_back(new BulkSource(i, 2, 1000000, TC, true));
        nics[i]->SetTxSource(src.back().get());
        Simulator::ScheduleNow(&DcbNetDevice::NotifyTxReady, nics[i]);
    }
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    r.marks = sw->GetEcnMarker(2)->GetMarks(TC);
    for (auto& n : nics)
    {
        n->SetTxSource(nullptr);
    }
    Simulator::Destroy();
    return r;
}

TEST(EcnMarkingPoint, DequeueMarkingSignalsOneQueueingDelayEarlier)
{
    const MarkResult enq = RunIncast(EcnMarker::ENQUEUE);
    const MarkResult deq = RunIncast(EcnMarker::DEQUEUE);
    ASSERT_FALSE(enq.firstCe.IsNegative());
    ASSERT_FALSE(deq.firstCe.IsNegative());
    EXPECT_EQ(enq.received, deq.received);
    EXPECT_GT(enq.marks, 0u);
    EXPECT_GT(deq.marks, 0u);
    // The first packet marked at enqueue waits behind K bytes before it leaves; at
    // dequeue the packet leaving when K bytes are queued is marked: K / C earlier,
    // in wire time (4142-byte frames + 24 B of preamble, FCS and gap).
    const double queueDelay = K * 8.0 / 100e9 * (4142.0 + 24.0) / 4142.0;
    const double earlier = (enq.firstCe - deq.firstCe).GetSeconds();
    EXPECT_NEAR(earlier, queueDelay, 0.5e-6)
        << "enqueue " << enq.firstCe.As(Time::US) << " dequeue " << deq.firstCe.As(Time::US);
    RecordProperty("earlier_us", std::to_string(earlier * 1e6));
}

TEST(EcnMarkingPoint, WredWeightAveragesTheQueue)
{
    // Step at 100,000 B; the queue jumps from 0 to 200,000 B. With weight 9 the
    // average crosses the step after n samples, 200000 (1 - (511/512)^n) > 100000:
    // n = 355. Weight 0 marks the first packet.
    for (uint8_t w : {uint8_t(0), uint8_t(9)})
    {
        Ptr<RedEcnMarker> red = CreateObject<RedEcnMarker>();
        red->SetAttribute("Weight", UintegerValue(w));
        red->SetClassThresholds(TC, K, K, 1.0);
        uint32_t first = 0;
        for (uint32_t n = 1; n <= 1000 && first == 0; ++n)
        {
            if (red->ShouldMark(TC, 2 * K))
            {
                first = n;
            }
        }
        EXPECT_EQ(first, w == 0 ? 1u : 355u) << "weight " << unsigned(w);
    }
}

} // namespace
