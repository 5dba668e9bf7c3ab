/*
 * A NIC's PCIe write path to host memory at a limited rate, without an intra-host model.
 */
#ifndef RDMA_PCIE_THROTTLE_H
#define RDMA_PCIE_THROTTLE_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

namespace ns3
{

class RdmaNic;

/**
 * \ingroup rdma
 * Limits the rate at which an RdmaNic writes received payload to host memory over PCIe,
 * for a NIC whose node has no HostModel (contrib/host): each received data packet
 * (WRITE, SEND, READ response) holds the receive pipeline (RdmaRxPipeline) for its payload
 * bytes at Rate before the next one is processed. When the wire brings more than Rate, the
 * NIC's receive buffer fills and the NIC pauses its peer with PFC (lossless classes) or
 * drops (lossy classes) exactly as RdmaRxPipeline does for a congested host: the push-back
 * a NIC on a degraded PCIe link (fewer lanes trained, a lower generation, a congested root
 * port) shows to the fabric.
 *
 * What it leaves out: the transmit side's payload reads (the NIC still sends at line rate),
 * PCIe latency (only the throughput is limited) and the TLP overhead (Rate is the rate of
 * payload bytes). A node with a HostModel models the whole path instead
 * (RdmaNic::SetHostModel).
 */
class RdmaPcieThrottle : public Object
{
  public:
    static TypeId GetTypeId();

    /**
     * Throttle \p nic's receive DMA from now on (activates its receive pipeline).
     * \return "" or what is wrong (the NIC has a HostModel, or its pipeline's attributes).
     */
    std::string Install(Ptr<RdmaNic> nic);
    /** Change the rate from the next packet on. */
    void SetRate(DataRate rate);
    DataRate GetRate() const;
    /** The pipeline's service time of a packet of queue pair \p qpn with \p payload bytes. */
    Time GetServiceTime(uint32_t qpn, uint32_t payload) const;

  private:
    DataRate m_rate;
};

} // namespace ns3

#endif /* RDMA_PCIE_THROTTLE_H */
