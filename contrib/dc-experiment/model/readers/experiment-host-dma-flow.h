/*
 * The "host_dma_flows" section of an experiment file: DMA streams inside hosts'
 * intra-host models (loopback RDMA between VMs, GPUDirect traffic of other GPUs).
 */
#ifndef EXPERIMENT_HOST_DMA_FLOW_H
#define EXPERIMENT_HOST_DMA_FLOW_H

#include "ns3/experiment-component.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * One stream of "host_dma_flows" on one host (doc/dc-experiment.md, "DMA inside hosts"):
 * an ns3::HostDmaFlow between the RnicPort \p rnic and the device \p target of the host
 * model that "nodes" gave \p host, running from \p start until \p stop (or the run's end).
 */
struct ExperimentHostDmaFlow
{
    uint32_t host{0};         //!< host index
    std::string rnic;         //!< RnicPort of the host model
    std::string target;       //!< device of the host model
    Time start;               //!< the stream starts
    Time stop;                //!< it stops; 0: runs until the end of the run
    ExperimentComponent flow; //!< ns3::HostDmaFlow attributes (Kind, ChunkSize, MaxRate)
    std::string pointer;      //!< of the entry that gave it
};

} // namespace ns3

#endif /* EXPERIMENT_HOST_DMA_FLOW_H */
