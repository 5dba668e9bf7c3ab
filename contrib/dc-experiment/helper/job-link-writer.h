/*
 * job_links.csv: the bytes each directed link carried during each iteration of a job.
 */
#ifndef JOB_LINK_WRITER_H
#define JOB_LINK_WRITER_H

#include "port-map-writer.h"

#include "ns3/dcb-net-device.h"
#include "ns3/link-rate-timeline.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class TopologyBuilder;

/**
 * \ingroup dc-experiment
 * The per-link traffic of the "jobs" iterations: a snapshot of every port's transmit
 * counters (DcbClassCounters::txPackets and txBytes summed over the eight classes) when an
 * iteration starts and when it ends, and the difference written to job_links.csv, one row
 * per iteration and directed link (a port, named as in ports.csv) that transmitted in it:
 * `job,iteration,node,port,peer_node,peer_port,frames,bytes,utilisation`.
 *
 * bytes are whole frames as the port's counters hold them (Ethernet and 802.1Q headers
 * through the ICRC; PFC frames, FCS, preamble and inter-frame gap not included: a frame
 * costs DcbNetDevice::WireOverhead bytes more on the wire), all traffic the port sent in
 * the window, the job's and any other; utilisation = bytes × 8 / the bits the link could
 * carry in the iteration at the rates in force (LinkRateTimeline: its rate × the iteration's
 * time, or, where a link_rate or host_rate fault changed it during the iteration, the
 * integral of its rate over the iteration). The snapshots are taken at the iterations'
 * start and end events: nothing is done per frame.
 */
class JobLinkWriter
{
  public:
    static constexpr const char* COLUMNS =
        "job,iteration,node,port,peer_node,peer_port,frames,bytes,utilisation";

    /** Every port's transmit counters at one instant, in PortMapWriter::GetPorts' order. */
    struct Snapshot
    {
        Time at; //!< when it was taken
        std::vector<uint64_t> frames;
        std::vector<uint64_t> bytes;
    };

    /**
     * Find the port devices of \p builder's network; the links' rates over the run are
     * \p topology's, changed by \p faults' rate faults. \p topology must outlive the writer.
     */
    void Setup(const ExperimentTopology& topology, const TopologyBuilder& builder,
               const FaultPlan& faults);

    /** \return the counters now. */
    Snapshot Take() const;

    /**
     * Keep, for iteration \p iteration of job \p job, the traffic of every port since
     * \p start (the iteration's snapshot at its start) over the iteration's \p time (from
     * the snapshot's time).
     */
    void AddIteration(uint32_t job, uint32_t iteration, const Snapshot& start, Time time);

    /**
     * Write \p path, one row per iteration added and port that transmitted, jobs named by
     * \p names, by job, iteration and then port.
     * \throw std::runtime_error if it cannot be written
     */
    void Write(const std::string& path, const std::vector<std::string>& names) const;

  private:
    /** One port's traffic in one iteration. */
    struct Row
    {
        uint32_t job;
        uint32_t iteration;
        uint32_t port; //!< index into m_ports
        uint64_t frames;
        uint64_t bytes;
        double capacity; //!< bits the link could carry in the iteration
    };

    const ExperimentTopology* m_topology{nullptr};
    std::vector<PortMapWriter::Port> m_ports;
    std::vector<Ptr<DcbNetDevice>> m_devices; //!< of m_ports
    LinkRateTimeline m_rates;
    std::vector<Row> m_rows;
};

} // namespace ns3

#endif /* JOB_LINK_WRITER_H */
