/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dfabric-ring-allreduce.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(DfabricRingAllreduce);

TypeId
DfabricRingAllreduce::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DfabricRingAllreduce")
            .SetParent<Object>()
            .SetGroupName("Host")
            .AddConstructor<DfabricRingAllreduce>()
            .AddTraceSource("StepComplete", "A ring step ended: step index, its duration.",
                            MakeTraceSourceAccessor(&DfabricRingAllreduce::m_stepComplete),
                            "ns3::DfabricRingAllreduce::StepTracedCallback");
    return tid;
}

DfabricRingAllreduce::DfabricRingAllreduce()
    : m_chunk(0)
    , m_step(0)
    , m_steps(0)
    , m_outstanding(0)
{
}

void
DfabricRingAllreduce::DoDispose()
{
    m_racks.clear();
    m_done = Callback<void, Time>();
    Object::DoDispose();
}

void
DfabricRingAllreduce::AddRack(const DfabricRack& rack)
{
    NS_ABORT_MSG_IF(!rack.host || !rack.pool || rack.cnMemory.empty(),
                    "DfabricRingAllreduce: a rack needs a graph, a NIC pool and nodes");
    m_racks.push_back(rack);
}

uint32_t
DfabricRingAllreduce::GetRanks() const
{
    uint32_t n = 0;
    for (const auto& r : m_racks)
    {
        n += r.cnMemory.size();
    }
    return n;
}

void
DfabricRingAllreduce::Start(uint64_t bytes, Callback<void, Time> done)
{
    uint32_t p = GetRanks();
    NS_ABORT_MSG_IF(p < 2, "DfabricRingAllreduce: needs at least two ranks");
    m_chunk = (bytes + p - 1) / p;
    m_steps = 2 * (p - 1);
    m_step = 0;
    m_done = done;
    m_start = Simulator::Now();
    StartStep();
}

void
DfabricRingAllreduce::StartStep()
{
    m_stepStart = Simulator::Now();
    m_outstanding = 0;
    // Count the halves first so that no completion can end the step early.
    for (uint32_t r = 0; r < m_racks.size(); ++r)
    {
        m_outstanding += m_racks.size() > 1 ? 2 : 0; // last rank of r sends to rack r+1
    }
    if (m_outstanding == 0)
    {
        Simulator::ScheduleNow(&DfabricRingAllreduce::OnHopHalfDone, this);
        m_outstanding = 1;
        return;
    }
    for (uint32_t r = 0; r < m_racks.size(); ++r)
    {
        const DfabricRack& from = m_racks[r];
        const DfabricRack& to = m_racks[(r + 1) % m_racks.size()];
        auto src =
            from.poolMemory.empty() ? std::vector<uint32_t>{from.cnMemory.back()} : from.poolMemory;
        auto dst =
            to.poolMemory.empty() ? std::vector<uint32_t>{to.cnMemory.front()} : to.poolMemory;
        auto half = MakeCallback(&DfabricRingAllreduce::OnHopHalfDone, this);
        from.pool->Transfer(src, HostModel::DMA_READ, m_chunk, half);
        to.pool->Transfer(dst, HostModel::DMA_WRITE, m_chunk, half);
    }
}

void
DfabricRingAllreduce::OnHopHalfDone()
{
    if (--m_outstanding > 0)
    {
        return;
    }
    m_stepComplete(m_step, Simulator::Now() - m_stepStart);
    if (++m_step < m_steps)
    {
        StartStep();
        return;
    }
    if (!m_done.IsNull())
    {
        m_done(Simulator::Now() - m_start);
    }
}

} // namespace ns3
