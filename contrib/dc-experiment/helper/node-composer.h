/*
 * Applies the "nodes" section of an experiment to the built hosts and writes
 * nodes.csv.
 */
#ifndef NODE_COMPOSER_H
#define NODE_COMPOSER_H

#include "experiment-monitor.h"

#include "ns3/experiment-config.h"
#include "ns3/host-model.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Gives each host what the "nodes" section says (NodeComposition): the NIC
 * profile's transport (congestion control, loss recovery and QP attributes
 * forked for each of the NIC's QPs), the NIC's on-chip memory (QP scheduler and
 * RnicCacheModel) and the intra-host model, attached with RdmaNic::SetHostModel so
 * that received payload is written and sent payload read by DMA through it. When a
 * host has both, the fetch scheduler's cache-miss fills cross the host model too
 * (FetchQpScheduler::SetHostModel).
 */
class NodeComposer : public ExperimentMonitor
{
  public:
    NodeComposer(const ExperimentConfig& config, const TopologyBuilder& topology);

    /** \return true when the experiment has a "nodes" section. */
    bool IsActive() const;

    /** Refuses a "nodes" section in a distributed run. */
    void CheckConfig(const ExperimentRunContext& context) override;
    /**
     * Apply the composition (after TopologyBuilder::Build, before any QP exists).
     * \throw ExperimentConfigError when a host model cannot be attached
     */
    void Prepare(ExperimentRunContext& context) override;

    /** When active, write nodes.csv (one row per host) and register it. */
    void Write(ExperimentRunContext& context) override;

    /** Header row of nodes.csv. */
    static constexpr const char* COLUMNS =
        "node,nic_profile,host_model,nic_cache,qpc_hits,qpc_misses,mtt_hits,mtt_misses,"
        "wqe_hits,wqe_misses,cache_fill_bytes,pcie_read_bytes,pcie_write_bytes,wqe_read_bytes";

  private:
    const ExperimentConfig& m_config;
    const TopologyBuilder& m_topology;
    std::vector<Ptr<HostModel>> m_hostModels; //!< by host; null without a host model
};

} // namespace ns3

#endif /* NODE_COMPOSER_H */
