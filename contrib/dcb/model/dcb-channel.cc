#include "dcb-channel.h"

#include "dcb-net-device.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

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
DcbChannel::Transmit(Ptr<Packet> frame, const DcbFrameRecord& record, Ptr<DcbNetDevice> src,
                     Time txTime) const
{
    if (m_nDevices < 2)
    {
        return;
    }
    // Neither the peer device nor its node is touched here (cache misses at scale):
    // the peer's node id was read at Attach.
    const std::size_t d = m_devices[0] == src ? 1 : 0;
    const Ptr<DcbNetDevice>& dst = m_devices[d];
    const uint32_t context =
        m_contexts[d] != Simulator::NO_CONTEXT ? m_contexts[d] : dst->GetNode()->GetId();
    // A raw device pointer in the event: copying the Ptr would write the peer's reference
    // count, a cold line at scale; the devices outlive every event (Simulator::Destroy).
    Simulator::ScheduleWithContext(context, txTime + GetDelay(), &DcbNetDevice::ReceiveFrame,
                                   PeekPointer(dst), frame, record);
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
