#include "flow-set-workload.h"

#include <random>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FlowSetWorkload);

TypeId
FlowSetWorkload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FlowSetWorkload")
                            .SetParent<WorkloadGenerator>()
                            .SetGroupName("DcExperiment")
                            .AddConstructor<FlowSetWorkload>();
    return tid;
}

void
FlowSetWorkload::AddIncast(const ExperimentFlow& flow, std::vector<uint32_t> senders, uint32_t dst)
{
    m_sets.push_back(FlowSet{flow, false, std::move(senders), dst, 0});
}

void
FlowSetWorkload::AddPermutation(const ExperimentFlow& flow, uint64_t index)
{
    m_sets.push_back(FlowSet{flow, true, {}, 0, index});
}

std::vector<ExperimentFlow>
FlowSetWorkload::Generate(const ExperimentTopology& topology)
{
    const auto nHosts = static_cast<uint32_t>(topology.hosts.size());
    std::vector<ExperimentFlow> flows;
    for (const FlowSet& set : m_sets)
    {
        if (!set.permutation)
        {
            for (uint32_t src : set.senders)
            {
                ExperimentFlow f = set.flow;
                f.src = src;
                f.dst = set.dst;
                flows.push_back(f);
            }
            continue;
        }
        std::vector<uint32_t> perm(nHosts);
        for (uint32_t h = 0; h < nHosts; ++h)
        {
            perm[h] = h;
        }
        std::mt19937_64 rng(uint64_t{GetSeed()} * 1000003ULL + set.index);
        for (uint32_t k = nHosts - 1; k > 0; --k)
        {
            const auto j = static_cast<uint32_t>(rng() % k);
            std::swap(perm[k], perm[j]);
        }
        for (uint32_t h = 0; h < nHosts; ++h)
        {
            ExperimentFlow f = set.flow;
            f.src = h;
            f.dst = perm[h];
            flows.push_back(f);
        }
    }
    return flows;
}

} // namespace ns3
