/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PCIE_LINK_H
#define PCIE_LINK_H

#include "host-resource.h"

namespace ns3
{

/**
 * \ingroup host
 * A PCIe link of a given generation and width. Its capacity is the DMA payload rate of
 * MaxPayloadSize-sized memory-write TLPs, per direction:
 *
 *   raw      = GT/s(gen) x lanes x encoding (8b/10b for Gen1-2, 128b/130b for Gen3-5)
 *   physical = raw x (1 - 4/1538)                       (SKP ordered sets)
 *   payload  = physical x MPS / (MPS + TlpOverhead + DllpOverhead)
 *
 * With the defaults (MPS 256 B, 24 B TLP framing+header, 24 B of ACK/UpdateFC DLLPs per TLP)
 * Gen3 x8 gives 52.9 Gb/s and Gen4 x16 211.7 Gb/s (see doc/host.md). Lanes and generation
 * can be changed at run time (a link trained down) and the owning HostModel re-shares.
 */
class PcieLink : public HostResource
{
  public:
    static TypeId GetTypeId();
    PcieLink();

    /// \return false (and change nothing) unless 1 <= generation <= 5
    bool SetGeneration(uint32_t generation);
    uint32_t GetGeneration() const;
    /// \return false (and change nothing) unless lanes is 1, 2, 4, 8, 12, 16 or 32
    bool SetLanes(uint32_t lanes);
    uint32_t GetLanes() const;
    /// \return false unless mps is a power of two in [128, 4096]
    bool SetMaxPayloadSize(uint32_t mps);
    uint32_t GetMaxPayloadSize() const;
    /// Degrade (or restore) the trained width and speed in one change.
    void Retrain(uint32_t generation, uint32_t lanes);

    /// \return the raw signalling rate after line encoding, before any protocol overhead.
    DataRate GetRawRate() const;

  private:
    DataRate DoGetCapacity() const override;
    Sharing DoGetSharing() const override;

    uint32_t m_generation;
    uint32_t m_lanes;
    uint32_t m_mps;
    uint32_t m_tlpOverhead;
    uint32_t m_dllpOverhead;
};

} // namespace ns3

#endif /* PCIE_LINK_H */
