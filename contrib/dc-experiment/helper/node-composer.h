/*
 * Applies the "nodes" section of an experiment to the built hosts.
 */
#ifndef NODE_COMPOSER_H
#define NODE_COMPOSER_H

#include "experiment-composer.h"

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
 * (FetchQpScheduler::SetHostModel). NodeCompositionWriter reports what each host got
 * (nodes.csv).
 */
class NodeComposer : public ExperimentComposer
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
    void Compose(ExperimentRunContext& context) override;

  private:
    const ExperimentConfig& m_config;
    const TopologyBuilder& m_topology;
};

} // namespace ns3

#endif /* NODE_COMPOSER_H */
