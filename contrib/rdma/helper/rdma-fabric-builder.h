/*
 * The one fabric builder: hosts with RDMA NICs, DCB switches and links, routes.
 */
#ifndef RDMA_FABRIC_BUILDER_H
#define RDMA_FABRIC_BUILDER_H

#include "rdma-helper.h"

#include "ns3/data-rate.h"
#include "ns3/dcb-helper.h"
#include "ns3/dcb-switch.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/rdma-nic.h"
#include "ns3/sonic-buffer-config.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Builds a fabric from a graph: nHosts hosts and nSwitches switches, links with
 * their own rate and delay, one RDMA NIC per host and destination routes
 * (DcbRoutingHelper). The experiment runner (TopologyBuilder), Maestro's
 * two-leaf testbed and the tests' fabrics (RdmaLeafSpineFabric) all build through it.
 *
 * Node index i < nHosts is host i, nHosts + s is switch s. Nodes are created hosts
 * first, then switches, so host i is ns-3 node i when the fabric is built first.
 * Build installs, in this order: the links (in AddLink order, each with its rate and
 * delay or cable length), the switches (after all their links exist; each switch's
 * SONiC buffer edit applied right after it), the NICs (host h's on its only port,
 * address 10.0.0.1 + h) and their virtual-NIC aliases, then routes to every address.
 *
 * Virtual NICs (Maestro's vNICs, SOSR'21 §3.1): a host with k virtual NICs has
 * k - 1 IP aliases on its NIC (RdmaNic::AddAddress), routed like the primary.
 * Alias v of host h is 10.0.0.1 + v * nHosts + h: every alias lies above every
 * primary, so no two hosts' addresses collide, and v = 0 is the primary.
 */
class RdmaFabricBuilder
{
  public:
    /** Most addresses per NIC (the primary and 63 aliases). */
    static constexpr uint32_t MAX_VIRTUAL_NICS = 64;

    RdmaFabricBuilder(uint32_t nHosts, uint32_t nSwitches);

    /**
     * For a distributed run: the ns-3 system id (MPI rank) of every node, by node
     * index. A link between nodes of different ranks becomes ns3::DcbRemoteChannel,
     * the others ns3::DcbChannel. Call before Build.
     */
    void SetSystemIds(std::vector<uint32_t> systemIds);
    /**
     * Link node \p a to node \p b (node indices, see the class) at \p rate with
     * propagation \p delay. A host has exactly one link.
     * \return the link's index (links are numbered in the order added)
     */
    uint32_t AddLink(uint32_t a, uint32_t b, DataRate rate, Time delay);
    /**
     * Make link \p link a cable of \p metres (above 0): its channel's Length
     * attribute, so that its delay is metres x DcbChannel::DelayPerMetre (5 ns/m by
     * default) and AddLink's delay is ignored. Switches size their buffers from the
     * resulting delay (SonicBufferManager::CableHeadroom, SONiC CABLE_LENGTH), e.g. an
     * 80 km long-haul link (Azure NSDI'23 §6). Call before Build.
     */
    void SetLinkLength(uint32_t link, double metres);
    /** Addresses of host \p host's NIC: the primary and \p count - 1 aliases (1..64). */
    void SetVirtualNics(uint32_t host, uint32_t count);
    /** SetVirtualNics(h, \p count) for every host. */
    void SetVirtualNics(uint32_t count);
    /** Install switch \p sw with \p helper (a copy) rather than Build's switch helper. */
    void SetSwitchHelper(uint32_t sw, const DcbHelper& helper);
    /** Install host \p host's NIC with \p helper (a copy) rather than Build's NIC helper. */
    void SetNicHelper(uint32_t host, const RdmaHelper& helper);
    /**
     * Name the switches, one name per switch, for the refusals of their helpers: a switch
     * that DcbHelper::InstallSwitch refuses (e.g. a buffer smaller than the PFC headroom
     * it must reserve) makes Build throw that ConfigError, located where the switch's
     * helper says its settings came from (DcbHelper::SetSource) and naming the switch:
     * "switch <name>: ...". Without names switch s is named by its index, "switch <s>".
     * Call before Build.
     */
    void SetSwitchNames(std::vector<std::string> names);
    /** An edit of a switch's SONiC buffer configuration (pools, profiles, ports). */
    using SonicBufferEdit = std::function<void(SonicBufferConfig& config)>;
    /**
     * Reconfigure switch \p sw's buffer once it is installed and before any NIC is:
     * Build hands its SonicBufferManager's configuration (ConfigFile's or the default,
     * with the CableHeadroom profiles derived) to \p edit and applies the result
     * (DcbHelper::ApplySonicConfig: set up again, QoS and WRED reprogrammed), as an
     * operator edits config_db and reloads it. The switch must run a
     * SonicBufferManager (or DeepBufferVoq); a refusal (none, or a buffer the
     * edited configuration cannot set up) is a ConfigError as InstallSwitch's
     * (SetSwitchNames). Call before Build.
     */
    void SetSwitchBufferEdit(uint32_t sw, SonicBufferEdit edit);

    /**
     * Create everything (see the class). \p links gives every link's device and
     * channel attributes (each link's DataRate and Delay are its own), \p switches
     * the switches' and \p nics the NICs', unless SetSwitchHelper / SetNicHelper
     * name another. Call once. A switch its helper refuses throws ConfigError
     * (SetSwitchNames).
     */
    void Build(const DcbHelper& links, const DcbHelper& switches, const RdmaHelper& nics);
    /** Build(\p dcb, \p dcb, \p rdma). */
    void Build(const DcbHelper& dcb, const RdmaHelper& rdma);
    /**
     * Fix the random streams of the switches (ECN markers) from \p stream.
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * At switch \p sw, send the packets from \p src to \p dst out of its port on
     * link \p link, ahead of ECMP (DcbSwitch::SetPinnedRoute).
     */
    void PinRoute(uint32_t sw, Ipv4Address src, Ipv4Address dst, uint32_t link) const;
    /** Take link \p link down (false) or up (true) at both ends (DcbNetDevice::SetLinkUp). */
    void SetLinkUp(uint32_t link, bool up) const;
    /** \return the link whose end is \p device, or -1 */
    int64_t FindLink(Ptr<const NetDevice> device) const;

    uint32_t GetNHosts() const;
    uint32_t GetNSwitches() const;
    uint32_t GetNLinks() const;
    Ptr<Node> GetHost(uint32_t host) const;
    Ptr<RdmaNic> GetNic(uint32_t host) const;
    const std::vector<Ptr<RdmaNic>>& GetNics() const;
    Ptr<DcbSwitch> GetSwitch(uint32_t sw) const;
    /** \return node \p index (hosts, then switches). */
    Ptr<Node> GetNode(uint32_t index) const;
    const NodeContainer& GetHostNodes() const;
    const NodeContainer& GetSwitchNodes() const;
    /** \return link \p link's devices: node a's, then node b's. */
    const NetDeviceContainer& GetLinkDevices(uint32_t link) const;
    uint32_t GetVirtualNics(uint32_t host) const;

    /** \return the address of host \p host: 10.0.0.1 + host. */
    static Ipv4Address GetHostAddress(uint32_t host);
    /** \return address \p v of host \p host (v = 0: the primary; see the class). */
    Ipv4Address GetAddress(uint32_t host, uint32_t v) const;
    /** \return the host holding \p address (primary or alias), or -1 */
    int64_t FindHost(Ipv4Address address) const;

  private:
    struct Link
    {
        uint32_t a;
        uint32_t b;
        DataRate rate;
        Time delay;
        double length{0}; //!< cable metres; 0: the delay
    };

    uint32_t m_nHosts;
    uint32_t m_nSwitches;
    std::vector<uint32_t> m_systemIds; //!< empty: every node on system 0
    std::vector<Link> m_links;
    std::vector<uint32_t> m_vnics;              //!< by host
    std::vector<DcbHelper> m_switchHelpers;     //!< SetSwitchHelper's copies
    std::vector<int32_t> m_switchHelperOf;      //!< by switch: index, or -1
    std::vector<RdmaHelper> m_nicHelpers;       //!< SetNicHelper's copies
    std::vector<int32_t> m_nicHelperOf;         //!< by host: index, or -1
    std::vector<std::string> m_switchNames;     //!< SetSwitchNames'; empty: the indices
    std::vector<SonicBufferEdit> m_bufferEdits; //!< by switch: empty, or the edit
    NodeContainer m_hosts;
    NodeContainer m_switchNodes;
    std::vector<NetDeviceContainer> m_linkDevices; //!< by link
    std::vector<Ptr<RdmaNic>> m_nics;
    std::vector<Ptr<DcbSwitch>> m_switches;
};

} // namespace ns3

#endif /* RDMA_FABRIC_BUILDER_H */
