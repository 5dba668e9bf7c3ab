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

    /** Build with \p dcb (switch/port attributes) and \p rdma (NIC attributes). */
    void Build(DcbHelper& dcb, const RdmaHelper& rdma);

    /** Cut (false) or restore (true) both links of spine \p s (DcbNetDevice::SetLinkUp). */
    void SetSpineUp(uint32_t s, bool up) const;
    /** Spine that \p link (a MaestroVirtualPath link id of a leaf) leads to. */
    int64_t SpineOfLink(uint64_t link) const;

    const std::vector<Ptr<RdmaNic>>& GetNics() const;
    const NodeContainer& GetSwitches() const;
    static Ipv4Address HostAddress(uint32_t i);

  private:
    std::vector<uint32_t> m_hostLeaf;
    uint32_t m_spines;
    DataRate m_hostRate;
    DataRate m_coreRate;
    Time m_delay;
    std::vector<Time> m_spineDelays;
    NodeContainer m_hosts;
    NodeContainer m_switches; //!< leaves 0..1, then spines
    std::vector<Ptr<RdmaNic>> m_nics;
    std::vector<std::vector<NetDeviceContainer>> m_core; //!< [leaf][spine]
};

} // namespace ns3

#endif /* MAESTRO_LEAF_SPINE_HELPER_H */
