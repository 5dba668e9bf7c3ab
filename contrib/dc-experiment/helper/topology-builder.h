/*
 * Builds the network of an experiment: nodes, DCB links and switches, RDMA
 * NICs and routes.
 */
#ifndef TOPOLOGY_BUILDER_H
#define TOPOLOGY_BUILDER_H

#include "ns3/dcb-helper.h"
#include "ns3/dcb-switch.h"
#include "ns3/experiment-config.h"
#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/rdma-nic.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Turns the topology and component sections of an ExperimentConfig into ns-3
 * objects with DcbHelper, RdmaHelper and DcbRoutingHelper.
 *
 * Nodes are created hosts first, then switches, in configuration order, so
 * host i is node i. Host i gets IPv4 address 10.0.0.1 + i (the switches'
 * forwarding tables need a contiguous range). Each host's NIC sits on its only
 * port; each switch is installed after all its links exist.
 */
class TopologyBuilder
{
  public:
    explicit TopologyBuilder(const ExperimentConfig& config);

    /** Create everything. Call once, before Simulator::Run. */
    void Build();
    /**
     * Fix the random streams of the switches (ECN markers) from \p stream.
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    uint32_t GetNHosts() const;
    uint32_t GetNSwitches() const;
    Ptr<Node> GetHost(uint32_t host) const;
    Ptr<RdmaNic> GetNic(uint32_t host) const;
    Ptr<DcbSwitch> GetSwitch(uint32_t sw) const;
    /** \return node \p index of the configuration's numbering (hosts, then switches). */
    Ptr<Node> GetNode(uint32_t index) const;
    const NodeContainer& GetSwitchNodes() const;

    /** \return the address of host \p host: 10.0.0.1 + host. */
    static Ipv4Address GetHostAddress(uint32_t host);

  private:
    /** \return a helper installing switches with \p buffer and the switch/ECN sections. */
    DcbHelper MakeSwitchHelper(const ExperimentComponent& buffer) const;

    const ExperimentConfig& m_config;
    NodeContainer m_hosts;
    NodeContainer m_switchNodes;
    std::vector<Ptr<RdmaNic>> m_nics;
    std::vector<Ptr<DcbSwitch>> m_switches;
};

} // namespace ns3

#endif /* TOPOLOGY_BUILDER_H */
