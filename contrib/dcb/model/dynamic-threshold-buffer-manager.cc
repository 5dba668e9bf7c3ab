#include "dynamic-threshold-buffer-manager.h"

#include "ns3/abort.h"
#include "ns3/double.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(DynamicThresholdBufferManager);

namespace
{
constexpr uint32_t N_PG = 8;
/** Bytes of a PFC frame on the wire: 64-byte frame + preamble/SFD + IFG. */
constexpr uint64_t PFC_WIRE_BYTES = 64 + 20;
/** Wire overhead of a data frame (preamble/SFD 8, FCS 4, IFG 12). */
constexpr uint64_t FRAME_WIRE_OVERHEAD = 24;
} // namespace

TypeId
DynamicThresholdBufferManager::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DynamicThresholdBufferManager")
            .SetParent<BufferManager>()
            .SetGroupName("Dcb")
            .AddConstructor<DynamicThresholdBufferManager>()
            .AddAttribute("BufferSize",
                          "Physical shared packet buffer of the switch. Default 16 MB: "
                          "Broadcom Tomahawk (32 x 100GbE, 16 MB on-chip buffer), the class of "
                          "shallow-buffer ToR the DCQCN/HPCC studies assume.",
                          QueueSizeValue(QueueSize("16MB")),
                          MakeQueueSizeAccessor(&DynamicThresholdBufferManager::m_bufferSize),
                          MakeQueueSizeChecker())
            .AddAttribute("Headroom",
                          "Reserved PFC headroom per (port, lossless PG). 0 = size each port "
                          "for its link: 2 x rate x delay + two maximum frames + a PFC frame "
                          "(IEEE 802.1Qbb headroom components; spec 2.4).",
                          QueueSizeValue(QueueSize("0B")),
                          MakeQueueSizeAccessor(&DynamicThresholdBufferManager::m_headroom),
                          MakeQueueSizeChecker())
            .AddAttribute("Alpha",
                          "Dynamic-threshold factor of lossless ingress PGs. Default 1/8: "
                          "SONiC dynamic_th -3 in Azure's Listing 1 (NSDI'23 App. A).",
                          DoubleValue(0.125),
                          MakeDoubleAccessor(&DynamicThresholdBufferManager::m_alpha),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("LossyAlpha",
                          "Dynamic-threshold factor of lossy egress queues. Default 1/2: "
                          "SONiC dynamic_th -1 of Azure's egress lossy profile (App. A).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&DynamicThresholdBufferManager::m_lossyAlpha),
                          MakeDoubleChecker<double>(0.0))
            .AddAttribute("Xon",
                          "XON floor: a paused PG resumes once at most max(Xon, threshold - "
                          "XonOffset). Default 1248 B (Azure App. A; Broadcom TH2 6 cells).",
                          QueueSizeValue(QueueSize("1248B")),
                          MakeQueueSizeAccessor(&DynamicThresholdBufferManager::m_xon),
                          MakeQueueSizeChecker())
            .AddAttribute("XonOffset",
                          "XON hysteresis below the dynamic threshold. Default 2496 B (Azure "
                          "App. A; Broadcom TH2 12 cells).",
                          QueueSizeValue(QueueSize("2496B")),
                          MakeQueueSizeAccessor(&DynamicThresholdBufferManager::m_xonOffset),
                          MakeQueueSizeChecker());
    return tid;
}

DynamicThresholdBufferManager::DynamicThresholdBufferManager() = default;

std::string
DynamicThresholdBufferManager::DoSetup()
{
    const auto& ports = GetPorts();
    const uint32_t n = static_cast<uint32_t>(ports.size());
    uint32_t losslessPgs = 0;
    for (uint8_t pg = 0; pg < N_PG; ++pg)
    {
        losslessPgs += IsLossless(pg) ? 1 : 0;
    }
    m_headroomSize.assign(n, 0);
    uint64_t reserved = 0;
    for (uint32_t p = 0; p < n; ++p)
    {
        uint64_t h = m_headroom.GetValue();
        if (h == 0)
        {
            const double bytesPerSecond = ports[p].rate.GetBitRate() / 8.0;
            const uint64_t wire =
                static_cast<uint64_t>(2.0 * bytesPerSecond * ports[p].cableDelay.GetSeconds());
            h = wire + 2 * (ports[p].mtu + FRAME_WIRE_OVERHEAD) + PFC_WIRE_BYTES;
        }
        m_headroomSize[p] = h;
        reserved += h * losslessPgs;
    }
    const uint64_t total = m_bufferSize.GetValue();
    if (reserved >= total)
    {
        std::ostringstream why;
        why << "BufferSize " << total << " B cannot hold the PFC headroom of " << n << " ports x "
            << losslessPgs << " lossless PGs (" << reserved
            << " B); raise BufferSize above that or lower Headroom/LosslessClasses";
        return why.str();
    }
    m_sharedPool = total - reserved;
    m_sharedUsed = 0;
    m_headroomUsed = 0;
    m_ingressShared.assign(n * N_PG, 0);
    m_ingressHeadroom.assign(n * N_PG, 0);
    m_paused.assign(n * N_PG, 0);
    m_egressBytes.assign(n * N_PG, 0);
    return "";
}

uint64_t
DynamicThresholdBufferManager::Threshold(double alpha) const
{
    const uint64_t free = m_sharedPool > m_sharedUsed ? m_sharedPool - m_sharedUsed : 0;
    return static_cast<uint64_t>(alpha * static_cast<double>(free));
}

bool
DynamicThresholdBufferManager::DoAdmit(uint32_t inPort, uint32_t outPort, uint8_t tc,
                                       uint32_t bytes, DropReason& reason)
{
    const uint32_t in = inPort * N_PG + tc;
    const uint32_t out = outPort * N_PG + tc;
    if (IsLossless(tc))
    {
        if (!m_paused[in] && m_ingressShared[in] + bytes <= Threshold(m_alpha))
        {
            m_ingressShared[in] += bytes;
            m_sharedUsed += bytes;
            m_egressBytes[out] += bytes;
            if (m_ingressShared[in] >= Threshold(m_alpha))
            {
                m_paused[in] = 1;
                NotifyPfc(inPort, tc, true);
            }
            return true;
        }
        if (!m_paused[in])
        {
            m_paused[in] = 1;
            NotifyPfc(inPort, tc, true);
        }
        if (m_ingressHeadroom[in] + bytes <= m_headroomSize[inPort])
        {
            m_ingressHeadroom[in] += bytes;
            m_headroomUsed += bytes;
            m_egressBytes[out] += bytes;
            return true;
        }
        reason = DROP_HEADROOM_OVERFLOW;
        return false;
    }
    if (m_egressBytes[out] + bytes > Threshold(m_lossyAlpha))
    {
        reason = DROP_EGRESS_LIMIT;
        return false;
    }
    m_egressBytes[out] += bytes;
    m_sharedUsed += bytes;
    return true;
}

void
DynamicThresholdBufferManager::DoRelease(uint32_t inPort, uint32_t outPort, uint8_t tc,
                                         uint32_t bytes)
{
    const uint32_t in = inPort * N_PG + tc;
    const uint32_t out = outPort * N_PG + tc;
    m_egressBytes[out] -= bytes;
    if (!IsLossless(tc))
    {
        m_sharedUsed -= bytes;
        return;
    }
    // Headroom is released first, then shared (spec 1.5).
    const uint64_t fromHeadroom = std::min<uint64_t>(m_ingressHeadroom[in], bytes);
    m_ingressHeadroom[in] -= fromHeadroom;
    m_headroomUsed -= fromHeadroom;
    const uint64_t fromShared = bytes - fromHeadroom;
    m_ingressShared[in] -= fromShared;
    m_sharedUsed -= fromShared;
    if (m_paused[in] && m_ingressHeadroom[in] == 0)
    {
        const uint64_t threshold = Threshold(m_alpha);
        const uint64_t offset = m_xonOffset.GetValue();
        const uint64_t resumeAt =
            std::max<uint64_t>(m_xon.GetValue(), threshold > offset ? threshold - offset : 0);
        if (m_ingressShared[in] <= resumeAt)
        {
            m_paused[in] = 0;
            NotifyPfc(inPort, tc, false);
        }
    }
}

uint64_t
DynamicThresholdBufferManager::GetOccupancy() const
{
    return m_sharedUsed + m_headroomUsed;
}

uint64_t
DynamicThresholdBufferManager::GetSharedPoolSize() const
{
    return m_sharedPool;
}

uint64_t
DynamicThresholdBufferManager::GetSharedUsed() const
{
    return m_sharedUsed;
}

uint64_t
DynamicThresholdBufferManager::GetIngressThreshold() const
{
    return Threshold(m_alpha);
}

uint64_t
DynamicThresholdBufferManager::GetHeadroomSize(uint32_t port) const
{
    return m_headroomSize.at(port);
}

uint64_t
DynamicThresholdBufferManager::GetIngressSharedBytes(uint32_t port, uint8_t pg) const
{
    return m_ingressShared.at(port * N_PG + pg);
}

uint64_t
DynamicThresholdBufferManager::GetHeadroomBytes(uint32_t port, uint8_t pg) const
{
    return m_ingressHeadroom.at(port * N_PG + pg);
}

uint64_t
DynamicThresholdBufferManager::GetEgressBytes(uint32_t port, uint8_t tc) const
{
    return m_egressBytes.at(port * N_PG + tc);
}

bool
DynamicThresholdBufferManager::IsPaused(uint32_t port, uint8_t pg) const
{
    return m_paused.at(port * N_PG + pg) != 0;
}

} // namespace ns3
