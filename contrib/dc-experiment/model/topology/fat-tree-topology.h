/*
 * Fat-tree topologies: SRNIC's five scales, k-ary fat-trees and a general
 * (pods, ToRs, Aggs, Cores) shape.
 */
#ifndef FAT_TREE_TOPOLOGY_H
#define FAT_TREE_TOPOLOGY_H

#include "experiment-topology.h"

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The shape of a (up to) three-tier Clos fat-tree.
 *
 * Wiring (see doc/dc-experiment.md, "Fat-tree"): hosts h(t*H) .. h(t*H+H-1)
 * on ToR t; ToR t of pod p = t / T links to every Agg of pod p (Aggs
 * p*A .. p*A+A-1); Agg j (position j = index mod A within its pod) links to
 * the C/A cores j*(C/A) .. (j+1)*(C/A)-1, so each core has one link to every
 * pod. A = 0 means a single ToR (one switch); C = 0 means one pod and no core tier.
 */
struct FatTreeShape
{
    uint32_t pods = 1;        //!< P
    uint32_t torsPerPod = 1;  //!< T
    uint32_t aggsPerPod = 0;  //!< A (0: one-switch "fat-tree")
    uint32_t hostsPerTor = 1; //!< H
    uint32_t cores = 0;       //!< C (0: two tiers, one pod)

    uint32_t GetNHosts() const;
    uint32_t GetNTors() const;
    uint32_t GetNAggs() const;
    /**
     * \return an empty string when the shape can be wired as above, else the
     * reason it cannot (for the configuration error).
     */
    std::string Check() const;

    /** SRNIC §6.3: servers 16, 64, 256, 1024 or 4096; \return false for another count. */
    static bool FromSrnicScale(uint32_t servers, FatTreeShape& shape);
    /** The k-ary fat-tree (Al-Fares et al., SIGCOMM 2008): k pods of k/2 ToRs and k/2 Aggs, k/2
     * hosts per ToR, (k/2)^2 cores; k even. */
    static FatTreeShape FromK(uint32_t k);
};

/**
 * \ingroup dc-experiment
 * Expands fat-tree shapes into ExperimentTopology links.
 */
class FatTreeTopology
{
  public:
    /**
     * Fill \p t (hosts h0.., switches tor0.., agg0.., core0..) with the links of \p shape.
     * Host links run at \p hostRate, ToR-Agg and Agg-Core links at \p fabricRate,
     * every link has \p delay. Switches are numbered ToRs, then Aggs, then cores.
     */
    static void Expand(const FatTreeShape& shape, DataRate hostRate, DataRate fabricRate,
                       Time delay, ExperimentTopology& t);

    /**
     * Read a "fat_tree" topology object: one of "srnic_servers", "k", or the
     * explicit "pods", "tors_per_pod", "aggs_per_pod", "hosts_per_tor", "cores".
     * \param[out] effective the explicit form with every default filled in
     * \throw ExperimentConfigError
     */
    static void Parse(const JsonSchemaReader& reader, const nlohmann::json& topo,
                      const std::string& pointer, ExperimentTopology& t,
                      nlohmann::ordered_json& effective);
};

} // namespace ns3

#endif /* FAT_TREE_TOPOLOGY_H */
