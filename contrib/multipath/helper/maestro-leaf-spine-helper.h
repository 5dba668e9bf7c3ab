/*
 * Two leaves and m spines: the Maestro testbed shape (m core paths between leaves).
 */
#ifndef MAESTRO_LEAF_SPINE_HELPER_H
#define MAESTRO_LEAF_SPINE_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/dcb-helper.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup multipath
 * Builds hosts on two leaf switches joined by m spines (m disjoint core paths),
 * installs one RDMA NIC per host (address 10.0.0.1 + i) and ECMP routes. Spine s's
 * two links may have their own propagation delay (paths of different latency).
 * With SetVirtualNics(k) each NIC gets k - 1 IP aliases (Maestro's vNICs, routed
 * like the primary), and PinVirtualPath steers one vNIC pair through one spine.
 */
class MaestroLeafSpineHelper
{
  public:
    /** \param hostLeaf leaf (0 or 1) of each host */
    MaestroLeafSpineHelper(std::vector<uint32_t> hostLeaf, uint32_t spines);

    void SetHostRate(DataRate rate);
    void SetCoreRate(DataRate rate);
    /** Delay of host links, and of spine links unless SetSpineDelays. */
    void SetDelay(Time delay);
    /** One delay per spine (both of its links). */
    void SetSpineDelays(std::vector<Time> delays);
    /** Addresses per NIC: the primary and \p count - 1 aliases (default 1). */
    void SetVirtualNics(uint32_t count);

    /** Build with \p dcb (switch/port attributes) and \p rdma (NIC attributes). */
    void Build(DcbHelper& dcb, const RdmaHelper& rdma);

    /** Cut (false) or restore (true) both links of spine \p s (DcbNetDevice::SetLinkUp). */
    void SetSpineUp(uint32_t s, bool up) const;
    /** Spine that \p link (a MaestroVirtualPath link id of a leaf) leads to. */
    int64_t SpineOfLink(uint64_t link) const;

    const std::vector<Ptr<RdmaNic>>& GetNics() const;
    const NodeContainer& GetSwitches() const;
    static Ipv4Address HostAddress(uint32_t i);
    /** Address of vNIC \p v of host \p i (v = 0: the primary, HostAddress(i)). */
    Ipv4Address VirtualAddress(uint32_t i, uint32_t v) const;
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
    uint32_t m_spines;
    DataRate m_hostRate;
    DataRate m_coreRate;
    Time m_delay;
    std::vector<Time> m_spineDelays;
    uint32_t m_vnics{1};
    NodeContainer m_hosts;
    NodeContainer m_switches; //!< leaves 0..1, then spines
    std::vector<Ptr<RdmaNic>> m_nics;
    std::vector<std::vector<NetDeviceContainer>> m_core; //!< [leaf][spine]
};

} // namespace ns3

#endif /* MAESTRO_LEAF_SPINE_HELPER_H */
