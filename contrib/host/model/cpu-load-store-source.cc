/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cpu-load-store-source.h"

#include "cpu-socket.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CpuLoadStoreSource);

TypeId
CpuLoadStoreSource::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CpuLoadStoreSource")
            .SetParent<Object>()
            .SetGroupName("Host")
            .AddConstructor<CpuLoadStoreSource>()
            .AddTraceSource("AccessComplete",
                            "A load or store request completed: access, target, bytes, time "
                            "from its start to its end.",
                            MakeTraceSourceAccessor(&CpuLoadStoreSource::m_complete),
                            "ns3::CpuLoadStoreSource::AccessTracedCallback");
    return tid;
}

CpuLoadStoreSource::CpuLoadStoreSource()
    : m_cpu(HostModel::NONE)
{
}

void
CpuLoadStoreSource::DoDispose()
{
    m_queue.clear();
    m_host = nullptr;
    Object::DoDispose();
}

void
CpuLoadStoreSource::Setup(Ptr<HostModel> host, uint32_t cpu)
{
    NS_ABORT_MSG_IF(!host || cpu >= host->GetResourceCount() ||
                        !DynamicCast<CpuSocket>(host->GetResource(cpu)),
                    "CpuLoadStoreSource: resource " << cpu << " is not a CpuSocket");
    m_host = host;
    m_cpu = cpu;
}

uint32_t
CpuLoadStoreSource::GetCpu() const
{
    return m_cpu;
}

uint32_t
CpuLoadStoreSource::GetPending() const
{
    return m_queue.size();
}

void
CpuLoadStoreSource::Load(uint32_t target, uint64_t bytes, Callback<void> done)
{
    Enqueue(LOAD, target, bytes, done);
}

void
CpuLoadStoreSource::Store(uint32_t target, uint64_t bytes, Callback<void> done)
{
    Enqueue(STORE, target, bytes, done);
}

void
CpuLoadStoreSource::Enqueue(Access access, uint32_t target, uint64_t bytes, Callback<void> done)
{
    NS_ABORT_MSG_IF(!m_host, "CpuLoadStoreSource: Setup first");
    m_queue.push_back({access, target, bytes, done});
    if (m_queue.size() == 1)
    {
        StartNext();
    }
}

void
CpuLoadStoreSource::StartNext()
{
    const Request& r = m_queue.front();
    m_started = Simulator::Now();
    m_host->RequestDma(m_cpu, r.target,
                       r.access == LOAD ? HostModel::DMA_READ : HostModel::DMA_WRITE, r.bytes,
                       MakeCallback(&CpuLoadStoreSource::OnComplete, this));
}

void
CpuLoadStoreSource::OnComplete(Time /* latency */)
{
    Request r = m_queue.front();
    m_queue.pop_front();
    m_complete(r.access, r.target, r.bytes, Simulator::Now() - m_started);
    if (!m_queue.empty())
    {
        StartNext();
    }
    if (!r.done.IsNull())
    {
        r.done();
    }
}

} // namespace ns3
