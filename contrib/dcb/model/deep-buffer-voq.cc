#include "deep-buffer-voq.h"

#include "dcb-net-device.h"

#include "ns3/double.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(DeepBufferVoq);

namespace
{
constexpr uint32_t N_CLASSES = 8;
} // namespace

TypeId
DeepBufferVoq::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DeepBufferVoq")
            .SetParent<SonicBufferManager>()
            .SetGroupName("Dcb")
            .AddConstructor<DeepBufferVoq>()
            .AddAttribute("OcbSize",
                          "On-chip packet buffer (SRAM). Default 16 MB, Broadcom Jericho2 "
                          "(Arista 7280R3 buffer notes: HBM is used when the on-chip 16 MB "
                          "memory starts to fill).",
                          QueueSizeValue(QueueSize("16MB")),
                          MakeQueueSizeAccessor(&DeepBufferVoq::m_ocbSize), MakeQueueSizeChecker())
            .AddAttribute("DramSize",
                          "Off-chip packet memory (DRAM/HBM), bytes (an integer because "
                          "ns-3's QueueSize ends at 4 GiB). Default 8 GiB, the HBM "
                          "co-packaged with one Jericho2 (Arista 7280R3 buffer notes).",
                          UintegerValue(8589934592ULL),
                          MakeUintegerAccessor(&DeepBufferVoq::m_dramSize),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("DramBandwidth",
                          "Packet data the off-chip memory can store and deliver per second, in "
                          "the unit of the forwarding capacity (each packet written costs its "
                          "length once). 0 (default): DramBandwidthFraction x the sum of the "
                          "port rates.",
                          DataRateValue(DataRate("0bps")),
                          MakeDataRateAccessor(&DeepBufferVoq::m_dramBandwidth),
                          MakeDataRateChecker())
            .AddAttribute("DramBandwidthFraction",
                          "DRAM bandwidth as a fraction of the forwarding capacity when "
                          "DramBandwidth is 0. Default 0.9, an assumption: Azure NSDI'23 fn. 3 "
                          "says only 'slightly smaller than the forwarding capacity' (spec §6 "
                          "suggests 0.8-0.9).",
                          DoubleValue(0.9), MakeDoubleAccessor(&DeepBufferVoq::m_dramFraction),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("DramWriteBuffer",
                          "Staging buffer in front of the DRAM: the write backlog it absorbs "
                          "before packets needing DRAM are dropped. Default 256 KiB, an "
                          "assumption (no public figure).",
                          QueueSizeValue(QueueSize("262144B")),
                          MakeQueueSizeAccessor(&DeepBufferVoq::m_dramWriteBuffer),
                          MakeQueueSizeChecker())
            .AddAttribute("VoqEvictThreshold",
                          "A VoQ holding more than this is evicted from the on-chip buffer to "
                          "DRAM until it empties. Default 0: every packet is written to DRAM "
                          "(Azure NSDI'23 §7.1: the chassis 'use deep packet buffers of "
                          "off-chip DRAM to store RDMA packets'); a positive value models "
                          "Jericho2's on-chip-first operation (the value is an assumption).",
                          QueueSizeValue(QueueSize("0B")),
                          MakeQueueSizeAccessor(&DeepBufferVoq::m_evictThreshold),
                          MakeQueueSizeChecker())
            .AddAttribute("VoqMaxDelay",
                          "Largest depth of a lossy VoQ, as time at its port's rate. Default "
                          "5 ms, the Jericho default maximum per-queue buffer (Arista 7500R2 "
                          "buffer notes: '5 ms, so 62 MByte' at 100G).",
                          TimeValue(MilliSeconds(5)),
                          MakeTimeAccessor(&DeepBufferVoq::m_voqMaxDelay), MakeTimeChecker())
            .AddTraceSource("OcbBytes", "Bytes held in the on-chip buffer.",
                            MakeTraceSourceAccessor(&DeepBufferVoq::m_ocbBytes),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("DramBytes", "Bytes held in DRAM.",
                            MakeTraceSourceAccessor(&DeepBufferVoq::m_dramBytes),
                            "ns3::TracedValueCallback::Uint64");
    return tid;
}

DeepBufferVoq::DeepBufferVoq() = default;

SonicBufferConfig
DeepBufferVoq::DefaultConfig(uint32_t nPorts) const
{
    return SonicBufferConfig::VoqChassisJ2(nPorts);
}

std::string
DeepBufferVoq::DoSetup()
{
    const std::string why = SonicBufferManager::DoSetup();
    if (!why.empty())
    {
        return why;
    }
    const std::vector<BufferPortInfo>& ports = GetPorts();
    uint64_t capacity = 0;
    m_voqs.assign(ports.size() * N_CLASSES, Voq());
    for (size_t p = 0; p < ports.size(); ++p)
    {
        capacity += ports[p].rate.GetBitRate();
        const uint64_t limit =
            static_cast<uint64_t>(ports[p].rate.GetBitRate() * m_voqMaxDelay.GetSeconds() / 8);
        for (uint32_t c = 0; c < N_CLASSES; ++c)
        {
            m_voqs[p * N_CLASSES + c].limit = limit;
        }
    }
    m_dramRate = m_dramBandwidth.GetBitRate() > 0
                     ? m_dramBandwidth
                     : DataRate(static_cast<uint64_t>(capacity * m_dramFraction));
    if (m_dramRate.GetBitRate() == 0)
    {
        return "DeepBufferVoq: DramBandwidth is 0 and DramBandwidthFraction x port rates is 0 "
               "(give a DRAM bandwidth > 0)";
    }
    m_dramBusyUntil = Time(0);
    m_ocbBytes = 0;
    m_dramBytes = 0;
    m_ocbPeak = m_dramPeak = m_dramWritten = 0;
    return "";
}

bool
DeepBufferVoq::DoAdmit(uint32_t inPort, uint32_t outPort, uint8_t tc, uint32_t bytes,
                       DropReason& reason)
{
    Voq& v = m_voqs[outPort * N_CLASSES + tc];
    if (v.bytes + bytes > v.limit && !IsLosslessPriority(inPort, tc))
    {
        reason = DROP_VOQ_LIMIT;
        return false;
    }
    const bool toDram = v.inDram || v.bytes + bytes > m_evictThreshold.GetValue() ||
                        m_ocbBytes + bytes > m_ocbSize.GetValue();
    Time writeStart;
    if (toDram)
    {
        if (m_dramBytes + bytes > m_dramSize)
        {
            reason = DROP_BUFFER_FULL;
            return false;
        }
        const Time now = Simulator::Now();
        writeStart = std::max(now, m_dramBusyUntil);
        const uint64_t backlog =
            static_cast<uint64_t>((writeStart - now).GetSeconds() * m_dramRate.GetBitRate() / 8);
        if (backlog + bytes > m_dramWriteBuffer.GetValue())
        {
            reason = DROP_DRAM_BANDWIDTH;
            return false;
        }
    }
    if (!SonicBufferManager::DoAdmit(inPort, outPort, tc, bytes, reason))
    {
        return false;
    }
    v.bytes += bytes;
    v.peak = std::max(v.peak, v.bytes);
    if (toDram)
    {
        v.inDram = true;
        m_dramBusyUntil = writeStart + DcbNetDevice::SerializationTime(bytes, m_dramRate);
        m_dramBytes += bytes;
        m_dramWritten += bytes;
        m_dramPeak = std::max<uint64_t>(m_dramPeak, m_dramBytes);
    }
    else
    {
        v.ocbBytes += bytes;
        m_ocbBytes += bytes;
        m_ocbPeak = std::max<uint64_t>(m_ocbPeak, m_ocbBytes);
    }
    return true;
}

void
DeepBufferVoq::DoRelease(uint32_t inPort, uint32_t outPort, uint8_t tc, uint32_t bytes)
{
    SonicBufferManager::DoRelease(inPort, outPort, tc, bytes);
    Voq& v = m_voqs[outPort * N_CLASSES + tc];
    const uint64_t fromOcb = std::min<uint64_t>(v.ocbBytes, bytes);
    const uint64_t fromDram = std::min<uint64_t>(bytes - fromOcb, m_dramBytes);
    v.ocbBytes -= fromOcb;
    m_ocbBytes -= fromOcb;
    m_dramBytes -= fromDram;
    v.bytes -= std::min<uint64_t>(v.bytes, bytes);
    if (v.bytes == 0)
    {
        v.inDram = false;
        v.ocbBytes = 0;
    }
}

DataRate
DeepBufferVoq::GetDramBandwidth() const
{
    return m_dramRate;
}

uint64_t
DeepBufferVoq::GetOcbBytes() const
{
    return m_ocbBytes;
}

uint64_t
DeepBufferVoq::GetDramBytes() const
{
    return m_dramBytes;
}

uint64_t
DeepBufferVoq::GetOcbWatermark() const
{
    return m_ocbPeak;
}

uint64_t
DeepBufferVoq::GetDramWatermark() const
{
    return m_dramPeak;
}

uint64_t
DeepBufferVoq::GetDramWrittenBytes() const
{
    return m_dramWritten;
}

uint64_t
DeepBufferVoq::GetVoqBytes(uint32_t port, uint8_t tc) const
{
    return m_voqs.at(port * N_CLASSES + (tc & 7)).bytes;
}

uint64_t
DeepBufferVoq::GetVoqWatermark(uint32_t port, uint8_t tc) const
{
    return m_voqs.at(port * N_CLASSES + (tc & 7)).peak;
}

bool
DeepBufferVoq::IsVoqInDram(uint32_t port, uint8_t tc) const
{
    return m_voqs.at(port * N_CLASSES + (tc & 7)).inDram;
}

void
DeepBufferVoq::ClearWatermarks()
{
    SonicBufferManager::ClearWatermarks();
    m_ocbPeak = m_ocbBytes;
    m_dramPeak = m_dramBytes;
    for (Voq& v : m_voqs)
    {
        v.peak = v.bytes;
    }
}

void
DeepBufferVoq::DoReportOccupancy(std::vector<BufferOccupancy>& report) const
{
    SonicBufferManager::DoReportOccupancy(report);
    report.push_back(BufferOccupancy{"ocb", "", -1, -1, GetOcbBytes(), GetOcbWatermark()});
    report.push_back(BufferOccupancy{"dram", "", -1, -1, GetDramBytes(), GetDramWatermark()});
}

} // namespace ns3
