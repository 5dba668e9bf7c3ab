/*
 * An Azure-style region (Azure NSDI'23, Fig. 2): racks of servers under T0s,
 * clusters of T0s under T1s, datacenters of clusters under T2s, and regional
 * hubs (RH) joining the datacenters over long-haul links.
 */
#ifndef REGIONAL_TOPOLOGY_H
#define REGIONAL_TOPOLOGY_H

#include "experiment-topology.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The shape of a region. Every server links to its rack's T0; every T0 to
 * every T1 of its cluster; every T1 to every T2 of its datacenter; every T2 to
 * every regional hub over a long-haul link of longHaulKm[d] kilometres
 * (propagation 5 us/km, light in fibre). T0 and T1 are pizza boxes, T2 and RH
 * deep-buffer chassis; the switch roles (ExperimentTopology::switchRoles) are
 * "T0", "T1", "T2" and "RH", so "buffer_switches" can give the chassis their buffer.
 *
 * Names: servers dc<d>-c<c>-r<r>-s<s>; switches dc<d>-c<c>-t0-<r>,
 * dc<d>-c<c>-t1-<i>, dc<d>-t2-<i>, rh<i>. Nodes are numbered servers first in
 * that (d, c, r, s) order, then T0s, T1s, T2s and hubs.
 */
struct RegionalShape
{
    uint32_t datacenters = 2;       //!< datacenters in the region
    uint32_t hubs = 1;              //!< regional hubs (RH)
    uint32_t t2PerDc = 1;           //!< T2 switches per datacenter
    uint32_t clustersPerDc = 1;     //!< clusters (T1 groups) per datacenter
    uint32_t t1PerCluster = 1;      //!< T1 switches per cluster
    uint32_t racksPerCluster = 1;   //!< racks (T0s) per cluster
    uint32_t serversPerRack = 2;    //!< servers per rack
    std::vector<double> longHaulKm; //!< T2-RH cable per datacenter (one value: all)

    uint32_t GetNServers() const;
    uint32_t GetNT0() const;
    uint32_t GetNT1() const;
    uint32_t GetNT2() const;
    /** \return the T2-RH cable length of datacenter \p dc in km. */
    double GetLongHaulKm(uint32_t dc) const;
    /** \return an empty string when the shape can be wired, else the reason. */
    std::string Check() const;
};

/**
 * \ingroup dc-experiment
 * Expands regional shapes into ExperimentTopology links.
 */
class RegionalTopology
{
  public:
    /** Propagation in fibre, 5 us per km (Azure App. B: 80 km cables, ~1.77 ms RTT). */
    static Time FibreDelay(double km);

    /**
     * Fill \p t with the links of \p shape: server-T0 and T0-T1 links at
     * \p hostRate / \p fabricRate with \p rackDelay, T1-T2 links at \p fabricRate
     * with \p t1t2Delay, T2-RH links at \p longHaulRate with FibreDelay(km).
     */
    static void Expand(const RegionalShape& shape, DataRate hostRate, DataRate fabricRate,
                       DataRate longHaulRate, Time rackDelay, Time t1t2Delay,
                       ExperimentTopology& t);

    /**
     * Read a "regional" topology object: datacenters, hubs, t2_per_dc,
     * clusters_per_dc, t1_per_cluster, racks_per_cluster, servers_per_rack,
     * long_haul_km (number or one per datacenter), host_link_rate,
     * fabric_link_rate, long_haul_link_rate, link_delay, t1_t2_delay.
     * \throw ExperimentConfigError
     */
    static void Parse(const JsonSchemaReader& reader, const nlohmann::json& topo,
                      const std::string& pointer, ExperimentTopology& t,
                      nlohmann::ordered_json& effective);
};

} // namespace ns3

#endif /* REGIONAL_TOPOLOGY_H */
