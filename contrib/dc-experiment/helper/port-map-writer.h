/*
 * ports.csv: each (node, port) of a run's network and its neighbour (node, port), rate
 * and propagation delay.
 */
#ifndef PORT_MAP_WRITER_H
#define PORT_MAP_WRITER_H

#include "experiment-monitor.h"

#include "ns3/experiment-topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Writes ports.csv, one row per port: `node,port,peer_node,peer_port,rate_bps,delay_ns`.
 * Ports are numbered per node from 0 in the order of the topology's links, as
 * TopologyBuilder installs the devices (so a port is its device's interface index, the
 * "port" of queues.csv, pfc.csv, pfc_events.csv and the pcap file names).
 */
class PortMapWriter : public ExperimentMonitor
{
  public:
    static constexpr const char* COLUMNS = "node,port,peer_node,peer_port,rate_bps,delay_ns";

    /** One port. */
    struct Port
    {
        uint32_t node;     //!< hosts 0 .. H-1, then switches
        uint32_t port;     //!< from 0, in the order of the node's links
        uint32_t peerNode; //!< the node at the other end of the link
        uint32_t peerPort;
        uint32_t link; //!< index into the topology's links
    };

    /** \return every port of \p topology, by node and then port. */
    static std::vector<Port> GetPorts(const ExperimentTopology& topology);

    /**
     * Write \p directory/ports.csv and register it in \p readme.
     * \throw std::runtime_error if it cannot be written
     */
    static void Write(const ExperimentTopology& topology, const std::string& directory,
                      RunReadmeWriter& readme);
    /** Write the run's ports.csv. */
    void Write(ExperimentRunContext& context) override;
};

} // namespace ns3

#endif /* PORT_MAP_WRITER_H */
