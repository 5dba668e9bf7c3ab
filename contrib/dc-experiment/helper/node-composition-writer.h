/*
 * nodes.csv: what the "nodes" section gave each host, and its NIC's cache and DMA
 * counters.
 */
#ifndef NODE_COMPOSITION_WRITER_H
#define NODE_COMPOSITION_WRITER_H

#include "experiment-monitor.h"

namespace ns3
{

/**
 * \ingroup dc-experiment
 * When the experiment has a "nodes" section (composed by NodeComposer), writes
 * nodes.csv after the run: one row per host with its NIC profile, host model and NIC
 * cache (empty: the experiment's defaults), its NIC's on-chip cache hits and misses
 * (QPC, MTT, WQE) and the bytes read to fill the misses (empty without a cache
 * model); with a host model, the bytes the NIC read (send payload, WQEs and cache
 * fills) and wrote (received payload) by DMA through it, and the WQE part of the
 * bytes read.
 */
class NodeCompositionWriter : public ExperimentMonitor
{
  public:
    /** Header row of nodes.csv. */
    static constexpr const char* COLUMNS =
        "node,nic_profile,host_model,nic_cache,qpc_hits,qpc_misses,mtt_hits,mtt_misses,"
        "wqe_hits,wqe_misses,cache_fill_bytes,pcie_read_bytes,pcie_write_bytes,wqe_read_bytes";

    /**
     * Write nodes.csv and register it (with a "nodes" section only).
     * \throw std::runtime_error if it cannot be written
     */
    void Write(ExperimentRunContext& context) override;
};

} // namespace ns3

#endif /* NODE_COMPOSITION_WRITER_H */
