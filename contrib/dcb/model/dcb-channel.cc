#include "dcb-channel.h"

#include "dcb-net-device.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/event-impl.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <new>

namespace ns3
{

namespace
{

/**
 * A frame's arrival at the peer device: the event object MakeEvent would make, without the
 * Ptr copies (a Ptr<Packet> copied into the event and again into the call writes the
 * Packet's reference count each time) and without malloc: objects come from a free list,
 * most recently freed first (the event just run is handed to the next Schedule while its
 * line is still in cache, as malloc's per-thread cache did, in fewer instructions).
 */
class DcbArrivalEvent final : public EventImpl
{
  public:
    DcbArrivalEvent(DcbNetDevice* dst, DcbPacketRef&& frame, const DcbFrameRecord& record,
                    uint32_t bytes)
        : m_dst(dst)
        , m_frame(std::move(frame))
        , m_bytes(bytes)
        , m_record(record)
    {
    }

    static void* operator new(std::size_t size)
    {
        if (size == sizeof(DcbArrivalEvent) && s_free != nullptr)
        {
            FreeNode* node = s_free;
            s_free = node->next;
            return node;
        }
        return ::operator new(size);
    }

    static void operator delete(void* p, std::size_t size)
    {
        if (p == nullptr)
        {
            return;
        }
        if (size != sizeof(DcbArrivalEvent))
        {
            ::operator delete(p);
            return;
        }
        auto* node = static_cast<FreeNode*>(p);
        node->next = s_free;
        s_free = node;
    }

  protected:
    void Notify() override { m_dst->ReceiveFrameRef(m_frame, m_record, m_bytes); }

  private:
    struct FreeNode
    {
        FreeNode* next;
    };

    static inline FreeNode* s_free{nullptr};

    DcbNetDevice* m_dst;
    DcbPacketRef m_frame;
    uint32_t m_bytes;
    DcbFrameRecord m_record;
};

} // namespace

NS_OBJECT_ENSURE_REGISTERED(DcbChannel);

TypeId
DcbChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcbChannel")
            .SetParent<Channel>()
            .SetGroupName("Dcb")
            .AddConstructor<DcbChannel>()
            .AddAttribute("Delay",
                          "One-way propagation delay, used when Length is 0. Default 1 us: the "
                          "per-link delay of the SRNIC and HPCC fat-tree settings (SRNIC NSDI'23 "
                          "Sec. 6.3).",
                          TimeValue(MicroSeconds(1)), MakeTimeAccessor(&DcbChannel::m_delay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Length",
                          "Cable length in metres; when > 0 the delay is Length x DelayPerMetre "
                          "and Delay is ignored.",
                          DoubleValue(0.0), MakeDoubleAccessor(&DcbChannel::m_lengthMetres),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("DelayPerMetre",
                          "Propagation delay per metre of cable. Default 5 ns/m (light in "
                          "fibre, ~0.67 c; Azure NSDI'23 long-haul links, 5 us/km).",
                          TimeValue(NanoSeconds(5)), MakeTimeAccessor(&DcbChannel::m_delayPerMetre),
                          MakeTimeChecker(Time(0)));
    return tid;
}

DcbChannel::DcbChannel() = default;

void
DcbChannel::Attach(Ptr<DcbNetDevice> device)
{
    NS_ABORT_MSG_IF(m_nDevices >= 2, "DcbChannel: a point-to-point link takes two devices");
    Ptr<Node> node = device->GetNode();
    m_contexts[m_nDevices] = node ? node->GetId() : Simulator::NO_CONTEXT;
    m_devices[m_nDevices++] = device;
}

Time
DcbChannel::GetDelay() const
{
    if (m_lengthMetres > 0)
    {
        return m_delayPerMetre * m_lengthMetres;
    }
    return m_delay;
}

Ptr<DcbNetDevice>
DcbChannel::GetPeer(Ptr<const DcbNetDevice> device) const
{
    if (m_nDevices < 2)
    {
        return nullptr;
    }
    return m_devices[0] == device ? m_devices[1] : m_devices[0];
}

void
DcbChannel::Transmit(DcbPacketRef&& frame, const DcbFrameRecord& record, uint32_t bytes,
                     DcbNetDevice* src, Time txTime) const
{
    if (m_nDevices < 2)
    {
        return;
    }
    // Neither the peer device nor its node is touched here (cache misses at scale):
    // the peer's node id was read at Attach.
    const std::size_t d = PeekPointer(m_devices[0]) == src ? 1 : 0;
    const Ptr<DcbNetDevice>& dst = m_devices[d];
    const uint32_t context =
        m_contexts[d] != Simulator::NO_CONTEXT ? m_contexts[d] : dst->GetNode()->GetId();
    // A raw device pointer in the event: copying the Ptr would write the peer's reference
    // count, a cold line at scale; the devices outlive every event (Simulator::Destroy).
    // The event takes the frame's reference over: the Packet is not touched here.
    Simulator::ScheduleWithContext(
        context, txTime + GetDelay(),
        new DcbArrivalEvent(PeekPointer(dst), std::move(frame), record, bytes));
}

std::size_t
DcbChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
DcbChannel::GetDevice(std::size_t i) const
{
    return i < m_nDevices ? Ptr<NetDevice>(m_devices[i]) : nullptr;
}

void
DcbChannel::DoDispose()
{
    m_devices[0] = nullptr;
    m_devices[1] = nullptr;
    m_nDevices = 0;
    Channel::DoDispose();
}

} // namespace ns3
