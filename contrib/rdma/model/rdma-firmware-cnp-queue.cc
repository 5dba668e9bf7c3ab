/*
 * Firmware CNP generation capacity of a Gen1 NIC. Specification:
 * design/spec-buffers-pfc-dcqcn.md section 4 (NpCnpCapacity); Azure NSDI'23
 * section 7.2.
 */
#include "rdma-firmware-cnp-queue.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaFirmwareCnpQueue");
NS_OBJECT_ENSURE_REGISTERED(RdmaFirmwareCnpQueue);

TypeId
RdmaFirmwareCnpQueue::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaFirmwareCnpQueue")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaFirmwareCnpQueue>()
            .AddTraceSource("Drop",
                            "A CNP request was lost: the firmware was busy and its request "
                            "FIFO full (qpn).",
                            MakeTraceSourceAccessor(&RdmaFirmwareCnpQueue::m_dropTrace),
                            "ns3::RdmaFirmwareCnpQueue::DropTracedCallback");
    return tid;
}

RdmaFirmwareCnpQueue::RdmaFirmwareCnpQueue() = default;

RdmaFirmwareCnpQueue::~RdmaFirmwareCnpQueue() = default;

void
RdmaFirmwareCnpQueue::DoDispose()
{
    m_doneEvent.Cancel();
    m_emit = EmitCallback();
    m_ring.clear();
    m_count = 0;
    Object::DoDispose();
}

void
RdmaFirmwareCnpQueue::Configure(Time serviceTime, uint32_t queueSlots, EmitCallback emit)
{
    NS_ABORT_MSG_UNLESS(serviceTime.IsStrictlyPositive(),
                        "RdmaFirmwareCnpQueue: service time must be > 0, got " << serviceTime);
    NS_ABORT_MSG_IF(m_busy || m_count > 0,
                    "RdmaFirmwareCnpQueue: reconfigured while CNP requests are pending");
    m_serviceTime = serviceTime;
    m_ring.assign(queueSlots, 0);
    m_head = 0;
    m_emit = emit;
}

void
RdmaFirmwareCnpQueue::Submit(uint32_t qpn)
{
    m_counters.requests++;
    if (!m_busy)
    {
        Serve(qpn);
        return;
    }
    if (m_count == m_ring.size())
    {
        m_counters.dropped++;
        NS_LOG_LOGIC("CNP of QP " << qpn << " lost: firmware FIFO full");
        m_dropTrace(qpn);
        return;
    }
    const std::size_t tail = (m_head + m_count) % m_ring.size();
    m_ring[tail] = qpn;
    m_count++;
    m_counters.delayed++;
    if (m_count > m_counters.peakBacklog)
    {
        m_counters.peakBacklog = m_count;
    }
}

void
RdmaFirmwareCnpQueue::Serve(uint32_t qpn)
{
    m_busy = true;
    m_counters.generated++;
    m_doneEvent = Simulator::Schedule(m_serviceTime, &RdmaFirmwareCnpQueue::ServiceDone, this);
    m_emit(qpn);
}

void
RdmaFirmwareCnpQueue::ServiceDone()
{
    m_busy = false;
    if (m_count == 0)
    {
        return;
    }
    const uint32_t qpn = m_ring[m_head];
    m_head = static_cast<uint32_t>((m_head + 1) % m_ring.size());
    m_count--;
    Serve(qpn);
}

Time
RdmaFirmwareCnpQueue::GetServiceTime() const
{
    return m_serviceTime;
}

uint32_t
RdmaFirmwareCnpQueue::GetQueueSlots() const
{
    return static_cast<uint32_t>(m_ring.size());
}

uint32_t
RdmaFirmwareCnpQueue::GetBacklog() const
{
    return m_count;
}

bool
RdmaFirmwareCnpQueue::IsWaiting(uint32_t qpn) const
{
    for (uint32_t i = 0; i < m_count; ++i)
    {
        if (m_ring[(m_head + i) % m_ring.size()] == qpn)
        {
            return true;
        }
    }
    return false;
}

const RdmaFirmwareCnpQueue::Counters&
RdmaFirmwareCnpQueue::GetCounters() const
{
    return m_counters;
}

} // namespace ns3
