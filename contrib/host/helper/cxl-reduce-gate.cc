/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cxl-reduce-gate.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CxlReduceGate);

TypeId
CxlReduceGate::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CxlReduceGate")
            .SetParent<Object>()
            .SetGroupName("Host")
            .AddConstructor<CxlReduceGate>()
            .AddAttribute("AllgatherLoads",
                          "Load the received segment in the allgather steps too (a receiver "
                          "that copies the result out of the pool). Default false: DFabric "
                          "forwards the result by reference inside a rack (section 4.3) and by "
                          "NIC DMA between racks (section 4.4).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&CxlReduceGate::m_allgatherLoads),
                          MakeBooleanChecker());
    return tid;
}

CxlReduceGate::CxlReduceGate()
    : m_allgatherLoads(false)
{
}

void
CxlReduceGate::DoDispose()
{
    m_ranks.clear();
    Object::DoDispose();
}

void
CxlReduceGate::AddRank(Ptr<CpuLoadStoreSource> cpu, const std::vector<uint32_t>& memories)
{
    NS_ABORT_MSG_IF(!cpu || memories.empty(),
                    "CxlReduceGate: a rank needs a load source and at least one memory");
    m_ranks.push_back({cpu, memories});
}

uint32_t
CxlReduceGate::AddRacks(const std::vector<DfabricRack>& racks)
{
    uint32_t loading = 0;
    for (const DfabricRack& rack : racks)
    {
        for (uint32_t i = 0; i < rack.cnMemory.size(); ++i)
        {
            if (i >= rack.cnCpu.size())
            {
                m_ranks.push_back({nullptr, {}});
                continue;
            }
            auto source = CreateObject<CpuLoadStoreSource>();
            source->Setup(rack.host, rack.cnCpu[i]);
            AddRank(source, rack.poolMemory.empty() ? std::vector<uint32_t>{rack.cnMemory[i]}
                                                    : rack.poolMemory);
            ++loading;
        }
    }
    return loading;
}

uint32_t
CxlReduceGate::GetRanks() const
{
    return m_ranks.size();
}

void
CxlReduceGate::Gate(uint32_t step, uint32_t rank, uint64_t bytes, Callback<void> done)
{
    NS_ABORT_MSG_UNLESS(rank < m_ranks.size(),
                        "CxlReduceGate: rank " << rank << " of " << m_ranks.size() << " added");
    const Rank& r = m_ranks[rank];
    const bool reduceScatter = step + 1 < m_ranks.size();
    if (!r.cpu || (!reduceScatter && !m_allgatherLoads))
    {
        done();
        return;
    }
    r.cpu->Load(r.memories[(step + rank) % r.memories.size()], bytes, done);
}

Callback<void, uint32_t, uint32_t, uint64_t, Callback<void>>
CxlReduceGate::GetCallback()
{
    return MakeCallback(&CxlReduceGate::Gate, this);
}

} // namespace ns3
