#include "regional-topology.h"

#include "clos-tier.h"

#include "ns3/json-attribute-converter.h"

#include <cmath>
#include <limits>

namespace ns3
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

namespace
{
constexpr uint64_t MAX_COUNT = 4096;
constexpr uint32_t MAX_NODES = 1u << 20;
constexpr double MAX_KM = 1000.0; // a region: tens to hundreds of km [AZURE 2, 7.1]
} // namespace

uint32_t
RegionalShape::GetNServers() const
{
    return GetNT0() * serversPerRack;
}

uint32_t
RegionalShape::GetNT0() const
{
    return datacenters * clustersPerDc * racksPerCluster;
}

uint32_t
RegionalShape::GetNT1() const
{
    return datacenters * clustersPerDc * t1PerCluster;
}

uint32_t
RegionalShape::GetNT2() const
{
    return datacenters * t2PerDc;
}

double
RegionalShape::GetLongHaulKm(uint32_t dc) const
{
    if (longHaulKm.empty())
    {
        return 0.0;
    }
    return longHaulKm.size() == 1 ? longHaulKm[0] : longHaulKm.at(dc);
}

std::string
RegionalShape::Check() const
{
    for (uint32_t v :
         {datacenters, hubs, t2PerDc, clustersPerDc, t1PerCluster, racksPerCluster, serversPerRack})
    {
        if (v == 0)
        {
            return "every count of a regional topology must be at least 1";
        }
    }
    const uint64_t nodes = uint64_t{GetNServers()} + GetNT0() + GetNT1() + GetNT2() + hubs;
    if (nodes > MAX_NODES)
    {
        return "the region has " + std::to_string(nodes) + " nodes, more than " +
               std::to_string(MAX_NODES);
    }
    if (longHaulKm.size() != 1 && longHaulKm.size() != datacenters)
    {
        return "long_haul_km needs one length or one per datacenter (" +
               std::to_string(datacenters) + "), got " + std::to_string(longHaulKm.size());
    }
    for (double km : longHaulKm)
    {
        if (!(km > 0.0) || km > MAX_KM)
        {
            return "a long-haul link must be in (0, 1000] km";
        }
    }
    return "";
}

Time
RegionalTopology::FibreDelay(double km)
{
    // 5 us/km = 5 ns/m, rounded to the picosecond.
    return PicoSeconds(static_cast<int64_t>(std::llround(km * 5e6)));
}

void
RegionalTopology::Expand(const RegionalShape& s, DataRate hostRate, DataRate fabricRate,
                         DataRate longHaulRate, Time rackDelay, Time t1t2Delay,
                         ExperimentTopology& t)
{
    const uint32_t nServers = s.GetNServers();
    const uint32_t firstT0 = nServers;
    const uint32_t firstT1 = firstT0 + s.GetNT0();
    const uint32_t firstT2 = firstT1 + s.GetNT1();
    const uint32_t firstRh = firstT2 + s.GetNT2();
    t.hosts.clear();
    t.switches.clear();
    t.switchRoles.clear();
    t.links.clear();
    t.hosts.reserve(nServers);
    for (uint32_t d = 0; d < s.datacenters; ++d)
    {
        for (uint32_t c = 0; c < s.clustersPerDc; ++c)
        {
            for (uint32_t r = 0; r < s.racksPerCluster; ++r)
            {
                for (uint32_t h = 0; h < s.serversPerRack; ++h)
                {
                    t.hosts.push_back("dc" + std::to_string(d) + "-c" + std::to_string(c) + "-r" +
                                      std::to_string(r) + "-s" + std::to_string(h));
                }
            }
        }
    }
    const auto cluster = [](uint32_t d, uint32_t c)
    { return "dc" + std::to_string(d) + "-c" + std::to_string(c); };
    for (uint32_t d = 0; d < s.datacenters; ++d)
    {
        for (uint32_t c = 0; c < s.clustersPerDc; ++c)
        {
            for (uint32_t r = 0; r < s.racksPerCluster; ++r)
            {
                t.switches.push_back(cluster(d, c) + "-t0-" + std::to_string(r));
                t.switchRoles.push_back("T0");
            }
        }
    }
    for (uint32_t d = 0; d < s.datacenters; ++d)
    {
        for (uint32_t c = 0; c < s.clustersPerDc; ++c)
        {
            for (uint32_t i = 0; i < s.t1PerCluster; ++i)
            {
                t.switches.push_back(cluster(d, c) + "-t1-" + std::to_string(i));
                t.switchRoles.push_back("T1");
            }
        }
    }
    for (uint32_t d = 0; d < s.datacenters; ++d)
    {
        for (uint32_t i = 0; i < s.t2PerDc; ++i)
        {
            t.switches.push_back("dc" + std::to_string(d) + "-t2-" + std::to_string(i));
            t.switchRoles.push_back("T2");
        }
    }
    for (uint32_t i = 0; i < s.hubs; ++i)
    {
        t.switches.push_back("rh" + std::to_string(i));
        t.switchRoles.push_back("RH");
    }

    // Servers to their rack's T0; T0s to their cluster's T1s; T1s to their datacenter's T2s.
    ClosTier::Link(t, 0, nServers, s.serversPerRack, firstT0, 1, hostRate, rackDelay);
    ClosTier::Link(t, firstT0, s.GetNT0(), s.racksPerCluster, firstT1, s.t1PerCluster, fabricRate,
                   rackDelay);
    ClosTier::Link(t, firstT1, s.GetNT1(), s.t1PerCluster * s.clustersPerDc, firstT2, s.t2PerDc,
                   fabricRate, t1t2Delay);
    for (uint32_t t2 = 0; t2 < s.GetNT2(); ++t2)
    {
        const Time delay = FibreDelay(s.GetLongHaulKm(t2 / s.t2PerDc));
        for (uint32_t i = 0; i < s.hubs; ++i)
        {
            t.links.push_back(ExperimentLink{firstT2 + t2, firstRh + i, longHaulRate, delay});
        }
    }
}

void
RegionalTopology::Parse(const JsonSchemaReader& r, const Json& topo, const std::string& pointer,
                        ExperimentTopology& t, OrderedJson& effective)
{
    r.CheckKeys(topo, pointer,
                {"type", "datacenters", "hubs", "t2_per_dc", "clusters_per_dc", "t1_per_cluster",
                 "racks_per_cluster", "servers_per_rack", "long_haul_km", "host_link_rate",
                 "fabric_link_rate", "long_haul_link_rate", "link_delay", "t1_t2_delay"});
    RegionalShape s;
    const auto count = [&](const char* key, uint64_t fallback)
    { return static_cast<uint32_t>(r.GetUint(topo, pointer, key, fallback, 1, MAX_COUNT)); };
    s.datacenters = count("datacenters", 2);
    s.hubs = count("hubs", 1);
    s.t2PerDc = count("t2_per_dc", 1);
    s.clustersPerDc = count("clusters_per_dc", 1);
    s.t1PerCluster = count("t1_per_cluster", 1);
    s.racksPerCluster = count("racks_per_cluster", 1);
    s.serversPerRack = count("servers_per_rack", 2);

    const std::string kmPointer = JsonSchemaReader::Child(pointer, "long_haul_km");
    const Json* km = JsonSchemaReader::Find(topo, "long_haul_km");
    const auto readKm = [&r](const Json& v, const std::string& at)
    {
        if (!v.is_number())
        {
            r.Fail(at, "expected a length in km (a number), got " + v.dump());
        }
        const double x = v.get<double>();
        if (!(x > 0.0) || x > MAX_KM)
        {
            r.Fail(at, "a long-haul link must be in (0, 1000] km, got " + v.dump());
        }
        return x;
    };
    if (km == nullptr)
    {
        s.longHaulKm = {80.0}; // the lab's 80 km cables [AZURE App. B]
    }
    else if (km->is_array())
    {
        if (km->size() != s.datacenters)
        {
            r.Fail(kmPointer, "needs one length per datacenter (" + std::to_string(s.datacenters) +
                                  "), got " + std::to_string(km->size()));
        }
        for (std::size_t i = 0; i < km->size(); ++i)
        {
            s.longHaulKm.push_back(readKm((*km)[i], JsonSchemaReader::Child(kmPointer, i)));
        }
    }
    else
    {
        s.longHaulKm = {readKm(*km, kmPointer)};
    }
    const std::string problem = s.Check();
    if (!problem.empty())
    {
        r.Fail(pointer, problem);
    }
    // Azure App. B: 40 Gb/s Gen1 NICs; the fabric at the same rate unless given.
    const DataRate hostRate = r.GetRate(topo, pointer, "host_link_rate", "40Gbps");
    const DataRate fabricRate = r.GetRate(topo, pointer, "fabric_link_rate", "40Gbps");
    const DataRate longRate = r.GetRate(topo, pointer, "long_haul_link_rate", "40Gbps");
    // 0.5 us per rack hop gives the ~2 us rack RTT of App. B; T1-T2 "hundreds of
    // meters" [AZURE 7.1]: 300 m = 1.5 us.
    const Time rackDelay = r.GetTime(topo, pointer, "link_delay", "0.5us", Time(0));
    const Time t1t2Delay = r.GetTime(topo, pointer, "t1_t2_delay", "1.5us", Time(0));
    Expand(s, hostRate, fabricRate, longRate, rackDelay, t1t2Delay, t);

    OrderedJson eff;
    eff["type"] = "regional";
    eff["datacenters"] = s.datacenters;
    eff["hubs"] = s.hubs;
    eff["t2_per_dc"] = s.t2PerDc;
    eff["clusters_per_dc"] = s.clustersPerDc;
    eff["t1_per_cluster"] = s.t1PerCluster;
    eff["racks_per_cluster"] = s.racksPerCluster;
    eff["servers_per_rack"] = s.serversPerRack;
    eff["long_haul_km"] =
        s.longHaulKm.size() == 1 ? OrderedJson(s.longHaulKm[0]) : OrderedJson(s.longHaulKm);
    eff["host_link_rate"] = JsonAttributeConverter::FormatDataRate(hostRate);
    eff["fabric_link_rate"] = JsonAttributeConverter::FormatDataRate(fabricRate);
    eff["long_haul_link_rate"] = JsonAttributeConverter::FormatDataRate(longRate);
    eff["link_delay"] = JsonAttributeConverter::FormatTime(rackDelay);
    eff["t1_t2_delay"] = JsonAttributeConverter::FormatTime(t1t2Delay);
    effective = eff;
}

} // namespace ns3
