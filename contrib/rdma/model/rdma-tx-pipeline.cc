#include "rdma-tx-pipeline.h"

#include "rdma-nic.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaTxPipeline");
NS_OBJECT_ENSURE_REGISTERED(RdmaTxPipeline);

TypeId
RdmaTxPipeline::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaTxPipeline")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaTxPipeline>()
            .AddAttribute("ReadAhead",
                          "Frame bytes read from the host ahead of the wire (issued or landed, "
                          "not yet sent). Default 65536 B (assumption): above the default "
                          "outstanding-read budget of 34,816 B, so the budget, not this buffer, "
                          "limits the read rate.",
                          QueueSizeValue(QueueSize("65536B")),
                          MakeQueueSizeAccessor(&RdmaTxPipeline::m_readAhead),
                          MakeQueueSizeChecker())
            .AddAttribute("WqeBytes",
                          "Bytes of the send WQE read from host memory for each work request "
                          "the QP scheduler did not read itself. Default 64 B: one WQE basic "
                          "block, the size SRNIC (NSDI'23, section 3) gives a WQE (\"64 B*8\" "
                          "for 8 WQEs). 0: WQEs are not read.",
                          UintegerValue(64), MakeUintegerAccessor(&RdmaTxPipeline::m_wqeBytes),
                          MakeUintegerChecker<uint32_t>(0, 4096));
    return tid;
}

RdmaTxPipeline::RdmaTxPipeline()
    : m_wqeBytes(64)
    , m_targets(RdmaNic::FIRST_QPN)
{
}

RdmaTxPipeline::~RdmaTxPipeline() = default;

void
RdmaTxPipeline::DoDispose()
{
    m_reading.clear();
    m_ready.clear();
    m_host = nullptr;
    m_nic = nullptr;
    Object::DoDispose();
}

void
RdmaTxPipeline::Setup(RdmaNic* nic, Ptr<HostModel> host, uint32_t rnic, uint32_t target)
{
    m_nic = nic;
    m_host = host;
    m_rnic = rnic;
    m_memory = target;
    m_targets.SetDefault(target);
}

void
RdmaTxPipeline::SetQueuePairTarget(uint32_t qpn, uint32_t target)
{
    m_targets.Set(qpn, target);
}

bool
RdmaTxPipeline::IsActive() const
{
    return m_host != nullptr;
}

const RdmaTxCounters&
RdmaTxPipeline::GetCounters() const
{
    return m_counters;
}

bool
RdmaTxPipeline::HoldsFrames() const
{
    return m_transferring || !m_ready.empty() || !m_reading.empty();
}

Ptr<Packet>
RdmaTxPipeline::PullFrame(uint8_t pausedMask, uint8_t& tc, DcbFrameRecord& record)
{
    Fetch(pausedMask);
    for (auto it = m_ready.begin(); it != m_ready.end(); ++it)
    {
        if (!((pausedMask >> it->tc) & 1))
        {
            Ptr<Packet> frame = it->frame;
            tc = it->tc;
            record = it->record;
            m_bytes -= it->bytes;
            m_ready.erase(it);
            m_counters.frames++;
            Fetch(pausedMask);
            return frame;
        }
    }
    return nullptr;
}

void
RdmaTxPipeline::Fetch(uint8_t pausedMask)
{
    if (m_fetching)
    {
        return; // re-entered from a zero-byte DMA's callback
    }
    m_fetching = true;
    while (!m_transferring && m_bytes < m_readAhead.GetValue())
    {
        uint8_t tc = 0;
        uint32_t qpn = 0;
        uint32_t payload = 0;
        bool readsWqe = false;
        DcbFrameRecord record;
        Ptr<Packet> frame = m_nic->DequeueFrame(pausedMask, tc, &qpn, &payload, &readsWqe, &record);
        if (!frame)
        {
            break;
        }
        if (readsWqe && m_wqeBytes > 0)
        {
            m_counters.wqeReads++;
            m_counters.wqeReadBytes += m_wqeBytes;
            m_host->RequestDma(m_rnic, m_memory, HostModel::DMA_READ, m_wqeBytes,
                               MakeNullCallback<void, Time>());
        }
        const uint32_t bytes = frame->GetSize();
        m_bytes += bytes;
        if (payload == 0)
        {
            // Nothing to read: it follows the frames before it.
            (m_reading.empty() ? m_ready : m_reading).push_back({frame, bytes, tc, false, record});
            continue;
        }
        m_reading.push_back({frame, bytes, tc, true, record});
        m_transferring = true;
        m_counters.dmaReads++;
        m_counters.dmaReadBytes += payload;
        m_host->RequestDma(m_rnic, m_targets.Get(qpn), HostModel::DMA_READ, payload,
                           MakeCallback(&RdmaTxPipeline::OnRead, this),
                           MakeCallback(&RdmaTxPipeline::OnTransferred, this));
    }
    m_fetching = false;
}

void
RdmaTxPipeline::Kick()
{
    if (m_nic && m_nic->GetDevice())
    {
        Fetch(m_nic->GetDevice()->GetPausedMask());
    }
}

void
RdmaTxPipeline::OnTransferred()
{
    m_transferring = false;
    Kick();
}

void
RdmaTxPipeline::OnRead(Time /* latency */)
{
    // Completions return in request order: the oldest read has landed, and with it every
    // payload-less frame queued behind it up to the next read.
    if (m_reading.empty() || !m_nic)
    {
        return;
    }
    m_ready.push_back(m_reading.front());
    m_reading.pop_front();
    while (!m_reading.empty() && !m_reading.front().needsRead)
    {
        m_ready.push_back(m_reading.front());
        m_reading.pop_front();
    }
    m_nic->GetDevice()->NotifyTxReady();
}

} // namespace ns3
