#include "rdma-rx-pipeline.h"

#include "rdma-nic.h"
#include "rdma-queue-pair.h"

#include "ns3/dcb-net-device.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaRxPipeline");
NS_OBJECT_ENSURE_REGISTERED(RdmaRxPipeline);

TypeId
RdmaRxPipeline::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaRxPipeline")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaRxPipeline>()
            .AddAttribute("BufferSize",
                          "NIC receive buffer shared by all classes, in frame bytes. Default "
                          "1 MB: the NIC buffer in Google's production data (Agarwal et al., "
                          "HotNets'22, 'Understanding host interconnect congestion').",
                          QueueSizeValue(QueueSize("1000000B")),
                          MakeQueueSizeAccessor(&RdmaRxPipeline::m_bufferSize),
                          MakeQueueSizeChecker())
            .AddAttribute("Headroom",
                          "Bytes kept above the XOFF threshold (XOFF when occupancy > "
                          "BufferSize - Headroom) to absorb what arrives while the pause takes "
                          "effect. Default 96928 B: the per-PG lossless headroom (xoff of "
                          "ingress_lossless_profile) of Azure's switches (Bai et al., NSDI'23, "
                          "App. A): two 9216 B frames plus ~6 us at 100 Gb/s.",
                          QueueSizeValue(QueueSize("96928B")),
                          MakeQueueSizeAccessor(&RdmaRxPipeline::m_headroom),
                          MakeQueueSizeChecker())
            .AddAttribute("XonOffset",
                          "XON is sent when the occupancy falls this far below the XOFF "
                          "threshold. Default 18432 B: the xon of SONiC's 100G/5m lossless "
                          "profile (two jumbo frames).",
                          QueueSizeValue(QueueSize("18432B")),
                          MakeQueueSizeAccessor(&RdmaRxPipeline::m_xonOffset),
                          MakeQueueSizeChecker())
            .AddAttribute("LosslessClasses",
                          "Traffic classes protected by PFC at the NIC (bit n = class n). "
                          "Default 0x18, classes 3 and 4, as the switches' BufferManager "
                          "(SONiC pfc_enable \"3,4\").",
                          UintegerValue(0x18),
                          MakeUintegerAccessor(&RdmaRxPipeline::m_losslessMask),
                          MakeUintegerChecker<uint8_t>())
            .AddTraceSource("Occupancy", "Bytes in the receive buffer.",
                            MakeTraceSourceAccessor(&RdmaRxPipeline::m_occupancy),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("Pfc",
                            "The NIC asked its peer to pause (true) or resume (false) a class.",
                            MakeTraceSourceAccessor(&RdmaRxPipeline::m_pfcTrace),
                            "ns3::RdmaRxPipeline::PfcTracedCallback")
            .AddTraceSource("Drop", "A received packet was refused: (packet, class, reason).",
                            MakeTraceSourceAccessor(&RdmaRxPipeline::m_dropTrace),
                            "ns3::RdmaRxPipeline::DropTracedCallback");
    return tid;
}

RdmaRxPipeline::RdmaRxPipeline()
    : m_targets(RdmaNic::FIRST_QPN)
{
}

RdmaRxPipeline::~RdmaRxPipeline() = default;

void
RdmaRxPipeline::DoDispose()
{
    m_processEvent.Cancel();
    m_buffer.clear();
    m_placing.clear();
    m_delays.clear();
    m_device = nullptr;
    m_host = nullptr;
    Object::DoDispose();
}

std::string
RdmaRxPipeline::CheckConfig() const
{
    const uint64_t size = m_bufferSize.GetValue();
    if (m_bufferSize.GetUnit() != QueueSizeUnit::BYTES ||
        m_headroom.GetUnit() != QueueSizeUnit::BYTES ||
        m_xonOffset.GetUnit() != QueueSizeUnit::BYTES)
    {
        return "BufferSize, Headroom and XonOffset must be given in bytes (e.g. \"96928B\")";
    }
    if (m_headroom.GetValue() >= size)
    {
        return "Headroom (" + std::to_string(m_headroom.GetValue()) +
               " B) must be smaller than BufferSize (" + std::to_string(size) + " B)";
    }
    if (m_xonOffset.GetValue() >= size - m_headroom.GetValue())
    {
        return "XonOffset (" + std::to_string(m_xonOffset.GetValue()) +
               " B) must be smaller than the XOFF threshold BufferSize - Headroom (" +
               std::to_string(size - m_headroom.GetValue()) + " B)";
    }
    return "";
}

void
RdmaRxPipeline::SetDevice(Ptr<DcbNetDevice> device)
{
    m_device = device;
}

void
RdmaRxPipeline::SetHostModel(Ptr<HostModel> host, uint32_t rnic, uint32_t target)
{
    m_host = host;
    m_rnic = rnic;
    m_targets.SetDefault(target);
}

void
RdmaRxPipeline::SetQueuePairTarget(uint32_t qpn, uint32_t target)
{
    m_targets.Set(qpn, target);
}

Ptr<HostModel>
RdmaRxPipeline::GetHostModel() const
{
    return m_host;
}

void
RdmaRxPipeline::AddServiceDelay(ServiceDelayCallback delay)
{
    m_delays.push_back(delay);
}

bool
RdmaRxPipeline::IsActive() const
{
    return m_host || !m_delays.empty();
}

uint64_t
RdmaRxPipeline::GetOccupancy() const
{
    return m_occupancy.Get();
}

uint64_t
RdmaRxPipeline::GetXoffThreshold() const
{
    const uint64_t size = m_bufferSize.GetValue();
    return size > m_headroom.GetValue() ? size - m_headroom.GetValue() : 0;
}

uint64_t
RdmaRxPipeline::GetXonThreshold() const
{
    const uint64_t xoff = GetXoffThreshold();
    return xoff > m_xonOffset.GetValue() ? xoff - m_xonOffset.GetValue() : 0;
}

bool
RdmaRxPipeline::IsXoff() const
{
    return m_xoff;
}

Time
RdmaRxPipeline::GetPausedTime() const
{
    return m_counters.pausedTime + (m_xoff ? Simulator::Now() - m_xoffSince : Seconds(0));
}

const RdmaRxCounters&
RdmaRxPipeline::GetCounters() const
{
    return m_counters;
}

void
RdmaRxPipeline::Enqueue(Ptr<RdmaQueuePair> qp, Ptr<Packet> packet, bool ce, uint32_t payload,
                        uint32_t frameBytes, uint8_t cls)
{
    const bool lossless = (m_losslessMask >> (cls & 7)) & 1;
    const uint64_t after = m_occupancy.Get() + frameBytes;
    if (!lossless && after > GetXoffThreshold())
    {
        m_counters.droppedLossy++;
        m_dropTrace(packet, cls, DROP_LOSSY_FULL);
        return;
    }
    if (lossless && after > m_bufferSize.GetValue())
    {
        m_counters.droppedHeadroom++;
        m_dropTrace(packet, cls, DROP_HEADROOM_OVERFLOW);
        return;
    }
    m_buffer.push_back({qp, packet, payload, frameBytes, ce});
    m_occupancy = after;
    m_counters.packets++;
    m_counters.bytes += frameBytes;
    m_counters.maxOccupancy = std::max(m_counters.maxOccupancy, after);
    if (!m_xoff && after > GetXoffThreshold())
    {
        SetXoff(true);
    }
    TryProcess();
}

void
RdmaRxPipeline::TryProcess()
{
    // Zero-delay packets are processed in this loop; a delayed one waits for its event.
    while (!m_processing && m_processed < m_buffer.size())
    {
        const Item& item = m_buffer[m_processed];
        Time delay = Seconds(0);
        for (const auto& d : m_delays)
        {
            delay += d(item.qp->GetQpn(), item.payload);
        }
        if (delay.IsStrictlyPositive())
        {
            m_processing = true;
            m_processEvent = Simulator::Schedule(delay, &RdmaRxPipeline::OnProcessed, this);
            return;
        }
        m_processed++;
        TryDma();
    }
}

void
RdmaRxPipeline::OnProcessed()
{
    m_processing = false;
    m_processed++;
    TryDma();
    TryProcess();
}

void
RdmaRxPipeline::TryDma()
{
    while (!m_dmaBusy && m_processed > 0)
    {
        Item& item = m_buffer.front();
        if (!m_host)
        {
            // No host model: the buffer drains as soon as the packet is processed.
            Item done = std::move(item);
            m_buffer.pop_front();
            m_processed--;
            m_occupancy = m_occupancy.Get() - done.frameBytes;
            if (m_xoff && m_occupancy.Get() <= GetXonThreshold())
            {
                SetXoff(false);
            }
            Deliver(done);
            continue;
        }
        m_dmaBusy = true;
        m_counters.dmaWrites++;
        m_counters.dmaWriteBytes += item.payload;
        m_host->RequestDma(m_rnic, m_targets.Get(item.qp->GetQpn()), HostModel::DMA_WRITE,
                           item.payload, MakeCallback(&RdmaRxPipeline::OnPlaced, this),
                           MakeCallback(&RdmaRxPipeline::OnTransferred, this));
    }
}

void
RdmaRxPipeline::OnTransferred()
{
    // Posted write: the buffer space is free once the bytes are on their way to memory.
    Item& front = m_buffer.front();
    m_occupancy = m_occupancy.Get() - front.frameBytes;
    m_placing.push_back(std::move(front));
    m_buffer.pop_front();
    m_processed--;
    m_dmaBusy = false;
    if (m_xoff && m_occupancy.Get() <= GetXonThreshold())
    {
        SetXoff(false);
    }
    TryDma();
}

void
RdmaRxPipeline::OnPlaced(Time /* latency */)
{
    // PCIe keeps posted writes in order: the oldest write is the one that landed.
    if (m_placing.empty())
    {
        return; // disposed meanwhile
    }
    Item item = std::move(m_placing.front());
    m_placing.pop_front();
    Deliver(item);
}

void
RdmaRxPipeline::Deliver(Item& item)
{
    item.qp->Receive(item.packet, item.ce);
}

void
RdmaRxPipeline::SetXoff(bool xoff)
{
    m_xoff = xoff;
    if (xoff)
    {
        m_counters.xoffEvents++;
        m_xoffSince = Simulator::Now();
    }
    else
    {
        m_counters.pausedTime += Simulator::Now() - m_xoffSince;
    }
    for (uint8_t cls = 0; cls < 8; ++cls)
    {
        if ((m_losslessMask >> cls) & 1)
        {
            if (m_device)
            {
                m_device->SetPfcXoff(cls, xoff);
            }
            m_pfcTrace(cls, xoff);
        }
    }
}

} // namespace ns3
