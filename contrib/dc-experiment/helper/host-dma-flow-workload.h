/*
 * Runs the "host_dma_flows" section of an experiment: DMA streams inside the hosts'
 * intra-host models, and writes host_dma_flows.csv.
 */
#ifndef HOST_DMA_FLOW_WORKLOAD_H
#define HOST_DMA_FLOW_WORKLOAD_H

#include "experiment-workload.h"
#include "topology-builder.h"

#include "ns3/experiment-config.h"
#include "ns3/host-dma-flow.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The DMA streams of an experiment (ExperimentConfig::GetHostDmaFlows): one
 * ns3::HostDmaFlow per host and entry on the host model "nodes" attached to the host
 * (NodeComposer, a composer: Compose), started at its "start" and stopped at its "stop"
 * or the run's end. The stream shares the host graph max-min fairly with the NIC's own
 * DMA (received payload written, sent payload read), so a loopback stream takes PCIe
 * bandwidth from what the NIC receives, whose receive buffer then fills and pauses the
 * ToR with PFC (Azure NSDI'23 §8.3).
 *
 * host_dma_flows.csv: one row per stream, its bytes moved and mean rate over the time it
 * ran. summary.json gets "host_dma_flows" with the same numbers.
 *
 * As an ExperimentWorkload it creates the streams at Start and reports them (Write,
 * AddToSummary). The streams are background load: the workload is always done, so it
 * never holds the run open (they run to their stop or the run's end).
 */
class HostDmaFlowWorkload : public ExperimentWorkload
{
  public:
    HostDmaFlowWorkload(const ExperimentConfig& config, const TopologyBuilder& topology);

    /** \return true when the experiment has DMA streams. */
    bool IsActive() const;

    /** \throw ExperimentConfigError in a distributed run */
    void CheckConfig(const ExperimentRunContext& context) override;
    /** Create the streams on the hosts' models and schedule their starts and stops. */
    void Start(ExperimentRunContext& context) override;
    /** \return true: the streams never hold the run open. */
    bool IsDone() const override;
    /** Write host_dma_flows.csv and register it (with streams only). */
    void Write(ExperimentRunContext& context) override;
    /** "host_dma_flows": per stream, host, bytes moved and Gb/s. */
    void AddToSummary(const ExperimentRunContext& context,
                      nlohmann::ordered_json& summary) const override;

    /** Header row of host_dma_flows.csv. */
    static constexpr const char* COLUMNS =
        "stream,host,rnic,target,kind,start_us,end_us,bytes,gbps";

  private:
    /** \return when stream \p i stopped: its "stop", or \p end if it ran until then. */
    Time EndOf(uint32_t i, Time end) const;
    /** \return its mean rate from its start to EndOf (Gb/s). */
    double RateOf(uint32_t i, Time end) const;

    const ExperimentConfig& m_config;
    const TopologyBuilder& m_topology;
    std::vector<Ptr<HostDmaFlow>> m_flows; //!< by stream (ExperimentConfig order)
};

} // namespace ns3

#endif /* HOST_DMA_FLOW_WORKLOAD_H */
