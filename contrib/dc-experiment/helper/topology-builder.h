/*
 * Builds the network of an experiment: nodes, DCB links and switches, RDMA
 * NICs and routes, through RdmaFabricBuilder.
 */
#ifndef TOPOLOGY_BUILDER_H
#define TOPOLOGY_BUILDER_H

#include "ns3/dcb-helper.h"
#include "ns3/dcb-switch.h"
#include "ns3/experiment-config.h"
#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/rdma-fabric-builder.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Turns the topology and component sections of an ExperimentConfig into
 * RdmaFabricBuilder calls: its links, one DcbHelper per buffer section and load
 * balancer, one RdmaHelper per congestion control and each host's virtual NICs
 * ("nodes").
 *
 * Nodes are created hosts first, then switches, in configuration order, so
 * host i is node i. Host i gets IPv4 address 10.0.0.1 + i, its aliases those of
 * RdmaFabricBuilder. Each host's NIC sits on its only port; each switch is
 * installed after all its links exist.
 */
class TopologyBuilder
{
  public:
    explicit TopologyBuilder(const ExperimentConfig& config);

    /**
     * For a distributed run: the ns-3 system id (MPI rank) of every node, in the
     * configuration's numbering (FabricPartitioner::Partition). Links between
     * nodes of different ranks become ns3::DcbRemoteChannel. Call before Build.
     */
    void SetSystemIds(std::vector<uint32_t> systemIds);

    /**
     * Create everything. Call once, before Simulator::Run. A switch whose buffer or ECN
     * settings cannot work together on this topology throws ExperimentConfigError:
     * "<file>: <its buffer entry's pointer, or /ecn>: switch <name>: <why>".
     */
    void Build();
    /**
     * Fix the random streams of the switches (ECN markers, then load balancers) from
     * \p stream.
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
    /** \return the fabric: links, addresses of virtual NICs, pinned routes. */
    const RdmaFabricBuilder& GetFabric() const;

    /** \return the address of host \p host: 10.0.0.1 + host. */
    static Ipv4Address GetHostAddress(uint32_t host);

  private:
    /**
     * \return a helper installing switches with \p buffer, the switch/ECN sections and a
     * load balancer of their own from \p balancer (nullptr: ECMP); its refusals located
     * at the experiment file, \p buffer's pointer and the ECN section's
     */
    DcbHelper MakeSwitchHelper(const ExperimentComponent& buffer,
                               const ExperimentComponent* balancer) const;
    /** \return a helper installing NICs with congestion control \p cc and the NIC sections. */
    RdmaHelper MakeNicHelper(const ExperimentComponent& cc) const;

    const ExperimentConfig& m_config;
    RdmaFabricBuilder m_fabric;
    bool m_built{false};
};

} // namespace ns3

#endif /* TOPOLOGY_BUILDER_H */
