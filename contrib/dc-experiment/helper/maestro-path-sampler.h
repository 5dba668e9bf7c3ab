/*
 * Per-path throughput of Maestro endpoints, sampled at a fixed interval: paths.csv.
 */
#ifndef MAESTRO_PATH_SAMPLER_H
#define MAESTRO_PATH_SAMPLER_H

#include "experiment-run-context.h"
#include "topology-builder.h"

#include "ns3/event-id.h"
#include "ns3/experiment-topology.h"
#include "ns3/maestro-endpoint.h"
#include "ns3/nstime.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Samples, every interval, the bytes each virtual path of a Maestro endpoint has
 * completed (MaestroPathMonitor bytesCompleted, the chunks acknowledged on that path)
 * and writes the rate of each interval to paths.csv (SOSR'21 Fig. 12d/e: the
 * throughput of every path while paths are enabled or fail). The first sample is one
 * interval after the endpoint's collective starts; sampling stops at the first sample
 * that finds the collective done, so the last row covers its end.
 *
 * Each row names the path by "via": the node its first switch forwards it to (in a
 * two-tier leaf-spine, the spine it crosses), from the path's links
 * (MaestroVirtualPath::links) and the topology's node names.
 */
class MaestroPathSampler
{
  public:
    MaestroPathSampler(const TopologyBuilder& topology, const ExperimentTopology& names);
    ~MaestroPathSampler();

    /**
     * Sample \p endpoint, hop \p hop of collective \p name, every \p interval from
     * \p start + \p interval while \p running() was true at the previous sample.
     */
    void Add(const std::string& name, uint32_t hop, Ptr<MaestroEndpoint> endpoint, Time start,
             Time interval, std::function<bool()> running);

    bool IsActive() const;
    /** Write paths.csv and register it in the README (only when something was added). */
    void Write(ExperimentRunContext& context) const;

    /** Header row of paths.csv. */
    static constexpr const char* COLUMNS = "collective,hop,time_us,path,via,bytes,gbps";

  private:
    struct Source
    {
        std::string name;
        uint32_t hop;
        Ptr<MaestroEndpoint> endpoint;
        Time interval;
        std::function<bool()> running;
        std::vector<uint64_t> last; //!< bytesCompleted per path at the previous sample
        EventId event;
    };

    struct Row
    {
        uint32_t source;
        Time time;
        uint32_t path;
        uint64_t bytes;
    };

    void Sample(uint32_t source);
    /** \return the name of the node path \p vp of \p endpoint's first switch leads to. */
    std::string Via(Ptr<MaestroEndpoint> endpoint, uint32_t vp) const;

    const TopologyBuilder& m_topology;
    const ExperimentTopology& m_names;
    std::vector<Source> m_sources;
    std::vector<Row> m_rows;
};

} // namespace ns3

#endif /* MAESTRO_PATH_SAMPLER_H */
