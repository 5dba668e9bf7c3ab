/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef VERB_PCIE_COST_H
#define VERB_PCIE_COST_H

#include "ns3/data-rate.h"
#include "ns3/object.h"

namespace ns3
{

/**
 * \ingroup host
 * PCIe and wire bytes one RDMA WRITE/SEND of a given payload costs (Husky, NSDI'23,
 * section 3.4 and appendix A):
 *
 *   payload <= MaxInlineSize: the payload rides in the doorbell MMIO with the WQE:
 *     pcie = DoorbellBytes + TlpOverhead
 *   otherwise: pcie = payload + ceil(payload / MaxPayloadSize) x TlpOverhead
 *                     + WqeBytes + TlpOverhead + DoorbellBytes + TlpOverhead
 *   wire = payload + ceil(payload / Mtu) x HeaderBytes
 *
 * With the defaults a 29-byte WRITE costs 189 PCIe bytes and 127 wire bytes, so saturating a
 * 100 Gb/s wire needs 148.8 Gb/s of PCIe (Husky appendix A). A tenant's PCIe demand is its
 * wire rate x pcie / wire; that is the rate its DMA stream asks of the HostModel's PCIe link.
 */
class VerbPcieCost : public Object
{
  public:
    static TypeId GetTypeId();
    VerbPcieCost();

    uint64_t GetPcieBytes(uint64_t payload) const;
    uint64_t GetWireBytes(uint64_t payload) const;
    /// \return the PCIe rate a tenant needs to send messages of payload at wire rate wire.
    DataRate GetPcieRate(uint64_t payload, DataRate wire) const;

  private:
    uint32_t m_mps;
    uint32_t m_tlp;
    uint32_t m_wqe;
    uint32_t m_doorbell;
    uint32_t m_maxInline;
    uint32_t m_mtu;
    uint32_t m_headers;
};

} // namespace ns3

#endif /* VERB_PCIE_COST_H */
