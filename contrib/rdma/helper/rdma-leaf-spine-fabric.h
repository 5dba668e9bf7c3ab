/*
 * Leaf-spine shapes over RdmaFabricBuilder: a star, a uniform leaf-spine and
 * Maestro's two leaves joined by m spines.
 */
#ifndef RDMA_LEAF_SPINE_FABRIC_H
#define RDMA_LEAF_SPINE_FABRIC_H

#include "rdma-fabric-builder.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Hosts on leaf switches, every leaf linked to every spine, built by one
 * RdmaFabricBuilder. Switch l < leaves is leaf l, switch leaves + s is spine s.
 * Links: host i's is link i, then leaf l to spine s is link nHosts + l * spines + s.
 * Host links run at the host rate (per host if set), spine links at the core rate;
 * every link has the delay, spine s's links its own if SetSpineDelays.
 *
 * Maestro's testbed (SOSR'21 §5) is two leaves and m spines, m disjoint core
 * paths: PinVirtualPath, SetSpineUp and SpineOfLink address those paths by spine.
 * Virtual NICs, per-host NIC helpers and system ids are set on GetFabric() before Build.
 */
class RdmaLeafSpineFabric
{
  public:
    /** \param hostLeaf leaf of each host (below \p leaves) */
    RdmaLeafSpineFabric(std::vector<uint32_t> hostLeaf, uint32_t leaves, uint32_t spines);

    /** \p hosts hosts on one switch, links of \p rate and \p delay. */
    static RdmaLeafSpineFabric Star(uint32_t hosts, DataRate rate, Time delay);
    /** \p hostsPerLeaf hosts on each leaf (hosts in leaf order), all links of \p rate, \p delay. */
    static RdmaLeafSpineFabric Uniform(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf,
                                       DataRate rate, Time delay);

    /** Rate of every host link (default 40 Gb/s). */
    void SetHostRate(DataRate rate);
    /** Rate of host \p host's link. */
    void SetHostRate(uint32_t host, DataRate rate);
    /** Rate of the spine links (default 40 Gb/s). */
    void SetCoreRate(DataRate rate);
    /** Delay of host links, and of spine links unless SetSpineDelays (default 1 us). */
    void SetDelay(Time delay);
    /** One delay per spine (both of its links on two leaves, all of them in general). */
    void SetSpineDelays(std::vector<Time> delays);

    /**
     * Add the links, build the fabric with \p dcb (switch and port attributes) and
     * \p rdma (NIC attributes), then fix the switches' random streams from 1.
     */
    void Build(const DcbHelper& dcb, const RdmaHelper& rdma);

    /** The builder: before Build to set virtual NICs or NIC helpers, after it to reach nodes. */
    RdmaFabricBuilder& GetFabric();
    const RdmaFabricBuilder& GetFabric() const;
    const std::vector<Ptr<RdmaNic>>& GetNics() const;
    const NodeContainer& GetHosts() const;
    /** \return the switch nodes: leaves, then spines. */
    const NodeContainer& GetSwitches() const;
    /** \return switch \p sw (leaves, then spines). */
    Ptr<DcbSwitch> GetSwitch(uint32_t sw) const;
    /** \return the link between leaf \p leaf and spine \p spine. */
    uint32_t GetCoreLink(uint32_t leaf, uint32_t spine) const;

    /** \return host \p i's primary address, 10.0.0.1 + i. */
    static Ipv4Address HostAddress(uint32_t i);
    /** \return address \p v of host \p i (v = 0: the primary; RdmaFabricBuilder::GetAddress). */
    Ipv4Address VirtualAddress(uint32_t i, uint32_t v) const;

    /** Cut (false) or restore (true) every link of spine \p s (DcbNetDevice::SetLinkUp). */
    void SetSpineUp(uint32_t s, bool up) const;
    /** \return the spine that \p link (a MaestroVirtualPath link id of a leaf) leads to, or -1 */
    int64_t SpineOfLink(uint64_t link) const;
    /**
     * Pin the virtual path from vNIC \p va of host \p a to vNIC \p vb of host \p b
     * through spine \p spine, in both directions (data, and ACKs/CNPs back): a route
     * at each leaf keyed on the (source, destination) address pair, as the SDN rule
     * of SOSR'21 §3.1 (source and destination vNIC, UDP 4791: the pair carries only
     * RoCE here). Hosts on the same leaf cross no spine: nothing is pinned.
     */
    void PinVirtualPath(uint32_t a, uint32_t va, uint32_t b, uint32_t vb, uint32_t spine) const;

  private:
    std::vector<uint32_t> m_hostLeaf;
    uint32_t m_leaves;
    uint32_t m_spines;
    std::vector<DataRate> m_hostRates; //!< by host
    DataRate m_coreRate;
    Time m_delay;
    std::vector<Time> m_spineDelays; //!< empty: m_delay
    RdmaFabricBuilder m_fabric;
};

} // namespace ns3

#endif /* RDMA_LEAF_SPINE_FABRIC_H */
