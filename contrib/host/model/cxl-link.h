/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CXL_LINK_H
#define CXL_LINK_H

#include "host-resource.h"

namespace ns3
{

/**
 * \ingroup host
 * A CXL link (an edge of the intra-host or rack graph): a CXL port on a PCIe PHY carrying
 * CXL.mem/CXL.io flits. Its capacity per direction is
 *
 *   capacity = LaneRate x Lanes x FlitEfficiency
 *
 * With the defaults (CXL 3.0 on the PCIe 6.0 PHY, 64 Gb/s per lane, 256-byte flits of which
 * 240 bytes carry slots) an x16 link gives 960 Gb/s = 120 GB/s per direction, the CXL 3.0
 * figure of DFabric Table 1 (its abstract's 256 GB/s counts both directions of the raw rate).
 * The latency a hop adds sits in the switches and memory devices, not in the link.
 */
class CxlLink : public HostResource
{
  public:
    static TypeId GetTypeId();
    CxlLink();

    /// \return false (and change nothing) unless lanes is 1, 2, 4, 8 or 16
    bool SetLanes(uint32_t lanes);
    uint32_t GetLanes() const;

  private:
    DataRate DoGetCapacity() const override;
    Sharing DoGetSharing() const override;
    void SetLaneRate(DataRate rate);
    DataRate GetLaneRate() const;
    void SetFlitEfficiency(double efficiency);
    double GetFlitEfficiency() const;

    DataRate m_laneRate;
    uint32_t m_lanes;
    double m_flitEfficiency;
};

} // namespace ns3

#endif /* CXL_LINK_H */
