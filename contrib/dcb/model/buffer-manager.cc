#include "buffer-manager.h"

#include "ns3/abort.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(BufferManager);

TypeId
BufferManager::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::BufferManager")
            .SetParent<Object>()
            .SetGroupName("Dcb")
            .AddAttribute("LosslessClasses",
                          "Traffic classes protected by PFC, as a bit mask (bit n = class n). "
                          "Default 0x18, classes 3 and 4: SONiC's default PORT_QOS_MAP "
                          "pfc_enable \"3,4\".",
                          UintegerValue(0x18), MakeUintegerAccessor(&BufferManager::m_losslessMask),
                          MakeUintegerChecker<uint8_t>())
            .AddTraceSource("Drop",
                            "A packet was refused: (in port, out port, class, bytes, reason).",
                            MakeTraceSourceAccessor(&BufferManager::m_dropTrace),
                            "ns3::BufferManager::DropTracedCallback");
    return tid;
}

BufferManager::BufferManager() = default;
BufferManager::~BufferManager() = default;

void
BufferManager::DoDispose()
{
    m_pfcCallback = PfcCallback();
    Object::DoDispose();
}

std::string
BufferManager::Setup(const std::vector<BufferPortInfo>& ports)
{
    m_ports = ports;
    return DoSetup();
}

uint32_t
BufferManager::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

const std::vector<BufferPortInfo>&
BufferManager::GetPorts() const
{
    return m_ports;
}

bool
BufferManager::Admit(uint32_t inPort, uint32_t outPort, uint8_t tc, uint32_t bytes)
{
    DropReason reason = DROP_BUFFER_FULL;
    if (DoAdmit(inPort, outPort, tc, bytes, reason))
    {
        return true;
    }
    m_drops[reason]++;
    m_dropTrace(inPort, outPort, tc, bytes, reason);
    return false;
}

void
BufferManager::Release(uint32_t inPort, uint32_t outPort, uint8_t tc, uint32_t bytes)
{
    DoRelease(inPort, outPort, tc, bytes);
}

bool
BufferManager::IsLossless(uint8_t tc) const
{
    return (m_losslessMask >> (tc & 7)) & 1;
}

uint8_t
BufferManager::GetLosslessMask() const
{
    return m_losslessMask;
}

void
BufferManager::SetPfcCallback(PfcCallback cb)
{
    m_pfcCallback = cb;
}

void
BufferManager::NotifyPfc(uint32_t port, uint8_t pg, bool xoff)
{
    if (!m_pfcCallback.IsNull())
    {
        m_pfcCallback(port, pg, xoff);
    }
}

uint64_t
BufferManager::GetDrops(DropReason reason) const
{
    return m_drops[reason];
}

void
BufferManager::ReportOccupancy(std::vector<BufferOccupancy>& report) const
{
    DoReportOccupancy(report);
}

void
BufferManager::DoReportOccupancy(std::vector<BufferOccupancy>& report) const
{
    BufferOccupancy total;
    total.object = "buffer";
    total.bytes = GetOccupancy();
    report.push_back(total);
}

void
BufferManager::ClearWatermarks()
{
}

const char*
BufferManager::DropReasonName(DropReason reason)
{
    switch (reason)
    {
        case DROP_INGRESS_LIMIT:
            return "ingress-limit";
        case DROP_EGRESS_LIMIT:
            return "egress-limit";
        case DROP_HEADROOM_OVERFLOW:
            return "headroom-overflow";
        case DROP_BUFFER_FULL:
            return "buffer-full";
        case DROP_DRAM_BANDWIDTH:
            return "dram-bandwidth";
        case DROP_VOQ_LIMIT:
            return "voq-limit";
        default:
            return "unknown";
    }
}

} // namespace ns3
