/*
 * SONiC's PFC headroom formula (buffermgrd dynamic mode, Mellanox/VS Lua
 * plugin; spec-buffers-pfc-dcqcn.md §1.8, §8 checks 7 and 17).
 */
#ifndef HEADROOM_CALCULATOR_H
#define HEADROOM_CALCULATOR_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

namespace ns3
{

/**
 * \ingroup dcb
 * Headroom of one lossless PG (all bytes):
 *
 *     wcf   = ceil(cell > 128 ? cell/64 : 2·cell/(1+cell))
 *     sppB  = 100·64 / ((spp·64 + (100−spp)·losslessMtu)/100)
 *     occ   = (100 − sppB + sppB·wcf)/100
 *     cable = 2 · L_m · speed_Mbps · 1e9 / 198e6 / 8000
 *     prop  = portMtu + cable + 2·gearbox + macPhy + peerResponse
 *     xoff  = ceil_1024(losslessMtu + prop·occ), + 2048 without SHP when
 *             that is still below ceil_1024(losslessMtu + prop·wcf)
 *     xon   = ceil_1024(pipelineLatency);  size = SHP ? xon : xon + xoff
 *
 * peerResponse = IEEE 802.3 31B.3.7 pause quanta × 64 B for the listed
 * speeds, else PeerResponseTime. Defaults are Spectrum-2/3 (cell 144 B,
 * pipeline 19 KB); Spectrum-1 is CellSize 96.
 */
class HeadroomCalculator : public Object
{
  public:
    /** One PG's profile values. */
    struct Result
    {
        uint64_t xon{0};
        uint64_t xoff{0};
        uint64_t size{0};
    };

    static TypeId GetTypeId();
    HeadroomCalculator();

    /** Headroom for a port of \p speed with \p cableMetres of cable. */
    Result Calculate(DataRate speed, double cableMetres) const;
    /**
     * Same with the cable given by its one-way delay, converted at SONiC's
     * 1.98e8 m/s (so the cable term is 2 × delay × rate exactly).
     */
    Result CalculateForDelay(DataRate speed, Time oneWayDelay) const;
    /** \return the round-trip cable term alone, bytes (check 17). */
    static double CableBytes(DataRate speed, double cableMetres);

  private:
    uint32_t m_cellSize;
    uint32_t m_pipelineLatency;
    double m_macPhyDelay;
    double m_peerResponseTime;
    uint32_t m_portMtu;
    uint32_t m_losslessMtu;
    uint32_t m_smallPacketPercentage;
    Time m_gearboxDelay;
    bool m_sharedHeadroomPool;
};

} // namespace ns3

#endif /* HEADROOM_CALCULATOR_H */
