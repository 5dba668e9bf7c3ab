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
    m_gate = StepGate();
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
DfabricRingAllreduce::SetStepGate(StepGate gate)
{
    m_gate = gate;
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
    const uint32_t ranks = GetRanks();
    m_outstanding += m_gate.IsNull() ? 0 : ranks; // each hop's gate
    m_halves.assign(m_racks.size(), 2);
    if (m_outstanding == 0)
    {
        Simulator::ScheduleNow(&DfabricRingAllreduce::OnHopHalfDone, this);
        m_outstanding = 1;
        return;
    }
    for (uint32_t r = 0; r < m_racks.size() && m_racks.size() > 1; ++r)
    {
        const DfabricRack& from = m_racks[r];
        const DfabricRack& to = m_racks[(r + 1) % m_racks.size()];
        auto src =
            from.poolMemory.empty() ? std::vector<uint32_t>{from.cnMemory.back()} : from.poolMemory;
        auto dst =
            to.poolMemory.empty() ? std::vector<uint32_t>{to.cnMemory.front()} : to.poolMemory;
        auto half = MakeBoundCallback(&DfabricRingAllreduce::OnInterRackHalf, this,
                                      (r + 1) % uint32_t(m_racks.size()));
        from.pool->Transfer(src, HostModel::DMA_READ, m_chunk, half);
        to.pool->Transfer(dst, HostModel::DMA_WRITE, m_chunk, half);
    }
    // Hops inside a rack pass a reference: their gates open now. Rank k receives from k - 1;
    // the first rank of a rack receives from another rack when there are several.
    for (uint32_t r = 0, rank = 0; r < m_racks.size() && !m_gate.IsNull(); ++r)
    {
        for (uint32_t i = 0; i < m_racks[r].cnMemory.size(); ++i, ++rank)
        {
            if (i > 0 || m_racks.size() == 1)
            {
                m_gate(m_step, rank, m_chunk,
                       MakeCallback(&DfabricRingAllreduce::OnHopHalfDone, this));
            }
        }
    }
}

void
DfabricRingAllreduce::OnInterRackHalf(DfabricRingAllreduce* ring, uint32_t toRack)
{
    if (--ring->m_halves[toRack] == 0 && !ring->m_gate.IsNull())
    {
        uint32_t rank = 0;
        for (uint32_t r = 0; r < toRack; ++r)
        {
            rank += ring->m_racks[r].cnMemory.size();
        }
        ring->m_gate(ring->m_step, rank, ring->m_chunk,
                     MakeCallback(&DfabricRingAllreduce::OnHopHalfDone, ring));
    }
    ring->OnHopHalfDone();
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
