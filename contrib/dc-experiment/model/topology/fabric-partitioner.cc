#include "fabric-partitioner.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <queue>

namespace ns3
{

bool
FabricPartitioner::ParseMode(const std::string& name, Mode& mode)
{
    if (name == "pod")
    {
        mode = Mode::Pod;
        return true;
    }
    if (name == "rack")
    {
        mode = Mode::Rack;
        return true;
    }
    return false;
}

std::vector<uint32_t>
FabricPartitioner::GetTiers(const ExperimentTopology& topo)
{
    const uint32_t n = topo.GetNNodes();
    std::vector<std::vector<uint32_t>> adjacent(n);
    for (const ExperimentLink& l : topo.links)
    {
        adjacent[l.a].push_back(l.b);
        adjacent[l.b].push_back(l.a);
    }
    constexpr uint32_t UNREACHED = std::numeric_limits<uint32_t>::max();
    std::vector<uint32_t> tier(n, UNREACHED);
    std::queue<uint32_t> frontier;
    for (uint32_t h = 0; h < topo.hosts.size(); ++h)
    {
        tier[h] = 0;
        frontier.push(h);
    }
    while (!frontier.empty())
    {
        const uint32_t v = frontier.front();
        frontier.pop();
        for (uint32_t w : adjacent[v])
        {
            if (tier[w] == UNREACHED)
            {
                tier[w] = tier[v] + 1;
                frontier.push(w);
            }
        }
    }
    // A node no host reaches (the topology reader rejects these) counts as top tier.
    const uint32_t top = *std::max_element(
        tier.begin(), tier.end(),
        [](uint32_t a, uint32_t b) { return (a == UNREACHED ? 0 : a) < (b == UNREACHED ? 0 : b); });
    std::replace(tier.begin(), tier.end(), UNREACHED, top);
    return tier;
}

std::vector<uint32_t>
FabricPartitioner::Partition(const ExperimentTopology& topo, uint32_t nPartitions, Mode mode,
                             const JsonSchemaReader& reader, const std::string& pointer)
{
    const uint32_t n = topo.GetNNodes();
    if (nPartitions <= 1)
    {
        return std::vector<uint32_t>(n, 0);
    }
    const std::vector<uint32_t> tier = GetTiers(topo);
    const uint32_t top = *std::max_element(tier.begin(), tier.end());
    const uint32_t cut = mode == Mode::Pod ? top : std::min<uint32_t>(2, top);

    // Groups: connected components of the nodes below the cut tier (union-find).
    std::vector<uint32_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&parent](uint32_t v)
    {
        while (parent[v] != v)
        {
            parent[v] = parent[parent[v]];
            v = parent[v];
        }
        return v;
    };
    for (const ExperimentLink& l : topo.links)
    {
        if (tier[l.a] < cut && tier[l.b] < cut)
        {
            const uint32_t ra = find(l.a);
            const uint32_t rb = find(l.b);
            // The lower root wins, so a group's root is its lowest node.
            parent[std::max(ra, rb)] = std::min(ra, rb);
        }
    }
    constexpr uint32_t NONE = std::numeric_limits<uint32_t>::max();
    std::vector<uint32_t> groupOfRoot(n, NONE);
    std::vector<uint32_t> groupHosts;
    std::vector<uint32_t> cutNodes;
    for (uint32_t v = 0; v < n; ++v)
    {
        if (tier[v] >= cut)
        {
            cutNodes.push_back(v);
            continue;
        }
        const uint32_t r = find(v);
        if (groupOfRoot[r] == NONE)
        {
            groupOfRoot[r] = static_cast<uint32_t>(groupHosts.size());
            groupHosts.push_back(0);
        }
        groupHosts[groupOfRoot[r]] += tier[v] == 0 ? 1 : 0;
    }
    const auto nGroups = static_cast<uint32_t>(groupHosts.size());
    if (nGroups < nPartitions)
    {
        reader.Fail(pointer,
                    std::to_string(nPartitions) + " partitions, but the network has only " +
                        std::to_string(nGroups) + (mode == Mode::Pod ? " pods" : " racks") +
                        " (groups below tier " + std::to_string(cut) + ")" +
                        (mode == Mode::Pod ? "; try --partition=rack or fewer ranks"
                                           : "; use fewer ranks"));
    }

    // Contiguous blocks of groups, balanced by host count (each partition gets at least one).
    std::vector<uint32_t> partitionOfGroup(nGroups);
    const uint64_t totalHosts = std::accumulate(groupHosts.begin(), groupHosts.end(), uint64_t{0});
    uint64_t before = 0;
    for (uint32_t g = 0; g < nGroups; ++g)
    {
        uint32_t p = totalHosts > 0 ? static_cast<uint32_t>(before * nPartitions / totalHosts)
                                    : static_cast<uint32_t>(uint64_t{g} * nPartitions / nGroups);
        // Never leave a partition empty: no gaps, and the groups left cover the partitions left.
        p = std::max(p, nPartitions - std::min(nPartitions, nGroups - g));
        p = std::min(p, g == 0 ? 0 : partitionOfGroup[g - 1] + 1);
        p = std::max(p, g == 0 ? 0 : partitionOfGroup[g - 1]);
        partitionOfGroup[g] = p;
        before += groupHosts[g];
    }
    std::vector<uint32_t> partition(n);
    for (uint32_t v = 0; v < n; ++v)
    {
        if (tier[v] < cut)
        {
            partition[v] = partitionOfGroup[groupOfRoot[find(v)]];
        }
    }
    for (std::size_t i = 0; i < cutNodes.size(); ++i)
    {
        partition[cutNodes[i]] = static_cast<uint32_t>(i * nPartitions / cutNodes.size());
    }

    for (std::size_t i = 0; i < topo.links.size(); ++i)
    {
        const ExperimentLink& l = topo.links[i];
        if (partition[l.a] != partition[l.b] && !l.delay.IsStrictlyPositive())
        {
            reader.Fail(pointer, "link " + std::to_string(i) + " (" + topo.GetNodeName(l.a) +
                                     " - " + topo.GetNodeName(l.b) +
                                     ") joins two partitions and has no propagation delay; a "
                                     "distributed run needs a positive delay on such links (it "
                                     "is the lookahead)");
        }
    }
    return partition;
}

} // namespace ns3
