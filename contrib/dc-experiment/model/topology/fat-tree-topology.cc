#include "fat-tree-topology.h"

#include "clos-tier.h"

#include "ns3/json-attribute-converter.h"

namespace ns3
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

namespace
{
/** Largest host count, as for the other built-in topologies. */
const uint64_t MAX_HOSTS = 65536;
} // namespace

uint32_t
FatTreeShape::GetNHosts() const
{
    return GetNTors() * hostsPerTor;
}

uint32_t
FatTreeShape::GetNTors() const
{
    return pods * torsPerPod;
}

uint32_t
FatTreeShape::GetNAggs() const
{
    return pods * aggsPerPod;
}

std::string
FatTreeShape::Check() const
{
    if (pods == 0 || torsPerPod == 0 || hostsPerTor == 0)
    {
        return "pods, tors_per_pod and hosts_per_tor must be at least 1";
    }
    const uint64_t hosts = uint64_t{pods} * torsPerPod * hostsPerTor;
    if (hosts > MAX_HOSTS)
    {
        return "pods x tors_per_pod x hosts_per_tor = " + std::to_string(hosts) +
               " hosts; at most 65536 are supported";
    }
    if (aggsPerPod == 0 && (pods != 1 || torsPerPod != 1 || cores != 0))
    {
        return "aggs_per_pod = 0 (a single ToR) needs pods = 1, tors_per_pod = 1 and cores = 0";
    }
    if (cores == 0 && pods != 1)
    {
        return "cores = 0 (two tiers) needs pods = 1; several pods are joined by the core tier";
    }
    if (cores > 0 && cores % aggsPerPod != 0)
    {
        return "cores (" + std::to_string(cores) + ") must be a multiple of aggs_per_pod (" +
               std::to_string(aggsPerPod) + "): Agg j of every pod links to the same cores/A cores";
    }
    return "";
}

bool
FatTreeShape::FromSrnicScale(uint32_t servers, FatTreeShape& s)
{
    // SRNIC (NSDI'23) §6.3: (ToR, Agg, Core) = (1,0,0), (4,4,0), (8,8,0), (64,64,16),
    // (128,128,64) for 16 to 4096 servers, 1:1: a ToR's H x 100G down equals its A x 400G up.
    switch (servers)
    {
        case 16:
            s = FatTreeShape{1, 1, 0, 16, 0};
            return true;
        case 64:
            s = FatTreeShape{1, 4, 4, 16, 0};
            return true;
        case 256:
            s = FatTreeShape{1, 8, 8, 32, 0};
            return true;
        case 1024:
            s = FatTreeShape{16, 4, 4, 16, 16};
            return true;
        case 4096:
            s = FatTreeShape{16, 8, 8, 32, 64};
            return true;
        default:
            return false;
    }
}

FatTreeShape
FatTreeShape::FromK(uint32_t k)
{
    return FatTreeShape{k, k / 2, k / 2, k / 2, (k / 2) * (k / 2)};
}

void
FatTreeTopology::Expand(const FatTreeShape& s, DataRate hostRate, DataRate fabricRate, Time delay,
                        ExperimentTopology& t)
{
    const uint32_t nHosts = s.GetNHosts();
    const uint32_t nTors = s.GetNTors();
    const uint32_t nAggs = s.GetNAggs();
    const uint32_t firstTor = nHosts;
    const uint32_t firstAgg = firstTor + nTors;
    const uint32_t firstCore = firstAgg + nAggs;
    t.hosts.clear();
    t.switches.clear();
    t.switchRoles.clear();
    t.links.clear();
    t.hosts.reserve(nHosts);
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        t.hosts.push_back("h" + std::to_string(h));
    }
    for (uint32_t i = 0; i < nTors; ++i)
    {
        t.switches.push_back("tor" + std::to_string(i));
        t.switchRoles.push_back("tor");
    }
    for (uint32_t i = 0; i < nAggs; ++i)
    {
        t.switches.push_back("agg" + std::to_string(i));
        t.switchRoles.push_back("agg");
    }
    for (uint32_t i = 0; i < s.cores; ++i)
    {
        t.switches.push_back("core" + std::to_string(i));
        t.switchRoles.push_back("core");
    }
    ClosTier::Link(t, 0, nHosts, s.hostsPerTor, firstTor, 1, hostRate, delay);
    ClosTier::Link(t, firstTor, nTors, s.torsPerPod, firstAgg, s.aggsPerPod, fabricRate, delay);
    if (s.cores > 0)
    {
        const uint32_t perAgg = s.cores / s.aggsPerPod;
        for (uint32_t agg = 0; agg < nAggs; ++agg)
        {
            const uint32_t j = agg % s.aggsPerPod;
            for (uint32_t c = 0; c < perAgg; ++c)
            {
                t.links.push_back(
                    ExperimentLink{firstAgg + agg, firstCore + j * perAgg + c, fabricRate, delay});
            }
        }
    }
}

void
FatTreeTopology::Parse(const JsonSchemaReader& r, const Json& topo, const std::string& pointer,
                       ExperimentTopology& t, OrderedJson& effective)
{
    const std::vector<std::string> explicitKeys = {"pods", "tors_per_pod", "aggs_per_pod",
                                                   "hosts_per_tor", "cores"};
    std::vector<std::string> keys = {"type",       "host_link_rate", "fabric_link_rate",
                                     "link_delay", "srnic_servers",  "k"};
    keys.insert(keys.end(), explicitKeys.begin(), explicitKeys.end());
    r.CheckKeys(topo, pointer, keys);

    const bool bySrnic = JsonSchemaReader::Find(topo, "srnic_servers") != nullptr;
    const bool byK = JsonSchemaReader::Find(topo, "k") != nullptr;
    bool byShape = false;
    for (const auto& k : explicitKeys)
    {
        byShape = byShape || JsonSchemaReader::Find(topo, k) != nullptr;
    }
    if (int{bySrnic} + int{byK} + int{byShape} != 1)
    {
        r.Fail(pointer, "a fat_tree takes exactly one of \"srnic_servers\", \"k\", or the "
                        "explicit shape (\"pods\", \"tors_per_pod\", \"aggs_per_pod\", "
                        "\"hosts_per_tor\", \"cores\")");
    }
    FatTreeShape shape;
    std::string shapePointer = pointer;
    if (bySrnic)
    {
        const auto n = static_cast<uint32_t>(
            r.GetUint(topo, pointer, "srnic_servers", std::nullopt, 1, MAX_HOSTS));
        shapePointer = JsonSchemaReader::Child(pointer, "srnic_servers");
        if (!FatTreeShape::FromSrnicScale(n, shape))
        {
            r.Fail(shapePointer, "SRNIC's fat-trees have 16, 64, 256, 1024 or 4096 servers, got " +
                                     std::to_string(n));
        }
    }
    else if (byK)
    {
        const auto k = static_cast<uint32_t>(r.GetUint(topo, pointer, "k", std::nullopt, 2, 64));
        shapePointer = JsonSchemaReader::Child(pointer, "k");
        if (k % 2 != 0)
        {
            r.Fail(shapePointer, "a k-ary fat-tree needs an even k, got " + std::to_string(k));
        }
        shape = FatTreeShape::FromK(k);
    }
    else
    {
        shape.pods = static_cast<uint32_t>(r.GetUint(topo, pointer, "pods", 1, 1, 4096));
        shape.torsPerPod =
            static_cast<uint32_t>(r.GetUint(topo, pointer, "tors_per_pod", std::nullopt, 1, 4096));
        shape.aggsPerPod =
            static_cast<uint32_t>(r.GetUint(topo, pointer, "aggs_per_pod", std::nullopt, 0, 4096));
        shape.hostsPerTor =
            static_cast<uint32_t>(r.GetUint(topo, pointer, "hosts_per_tor", std::nullopt, 1, 4096));
        shape.cores = static_cast<uint32_t>(r.GetUint(topo, pointer, "cores", 0, 0, 65536));
    }
    const std::string problem = shape.Check();
    if (!problem.empty())
    {
        r.Fail(shapePointer, problem);
    }
    // SRNIC's scales are 100G hosts under a 400G fabric; other shapes default to one rate.
    const DataRate hostRate = r.GetRate(topo, pointer, "host_link_rate", "100Gbps");
    const DataRate fabricRate =
        r.GetRate(topo, pointer, "fabric_link_rate", bySrnic ? "400Gbps" : "100Gbps");
    const Time delay = r.GetTime(topo, pointer, "link_delay", "1us", Time(0));
    Expand(shape, hostRate, fabricRate, delay, t);

    OrderedJson eff;
    eff["type"] = "fat_tree";
    eff["pods"] = shape.pods;
    eff["tors_per_pod"] = shape.torsPerPod;
    eff["aggs_per_pod"] = shape.aggsPerPod;
    eff["hosts_per_tor"] = shape.hostsPerTor;
    eff["cores"] = shape.cores;
    eff["host_link_rate"] = JsonAttributeConverter::FormatDataRate(hostRate);
    eff["fabric_link_rate"] = JsonAttributeConverter::FormatDataRate(fabricRate);
    eff["link_delay"] = JsonAttributeConverter::FormatTime(delay);
    effective = eff;
}

} // namespace ns3
