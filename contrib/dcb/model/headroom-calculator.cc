#include "headroom-calculator.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(HeadroomCalculator);

namespace
{
/** SONiC's propagation velocity in cable, m/s (buffer_headroom_mellanox.lua). */
constexpr double CABLE_METRES_PER_SECOND = 198e6;

uint64_t
Ceil1024(double bytes)
{
    return static_cast<uint64_t>(std::ceil(bytes / 1024.0)) * 1024;
}

/** IEEE 802.3 31B.3.7 pause quanta as peer response, by speed in Mb/s (SONiC Lua table). */
double
PeerResponseQuanta(uint64_t mbps)
{
    switch (mbps)
    {
        case 100:
            return 1;
        case 1000:
            return 2;
        case 10000:
            return 67;
        case 25000:
            return 80;
        case 40000:
            return 118;
        case 50000:
            return 147;
        case 100000:
            return 394;
        case 200000:
            return 453;
        case 400000:
        case 800000:
            return 905;
        default:
            return 0;
    }
}
} // namespace

TypeId
HeadroomCalculator::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HeadroomCalculator")
            .SetParent<Object>()
            .SetGroupName("Dcb")
            .AddConstructor<HeadroomCalculator>()
            .AddAttribute("CellSize",
                          "ASIC buffer cell, bytes. Default 144 (Spectrum-2/3, sonic-buildimage "
                          "ASIC_TABLE); Spectrum-1 96, Spectrum-4/5 192, Tofino-2 176.",
                          UintegerValue(144), MakeUintegerAccessor(&HeadroomCalculator::m_cellSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("PipelineLatency",
                          "ASIC pipeline latency, bytes (xon). Default 19 KB = 19456 B "
                          "(Spectrum ASIC_TABLE pipeline_latency 19).",
                          UintegerValue(19456),
                          MakeUintegerAccessor(&HeadroomCalculator::m_pipelineLatency),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MacPhyDelay",
                          "Bytes held in MAC/PHY. Default 0.8 KB = 819.2 B (ASIC_TABLE "
                          "mac_phy_delay 0.8).",
                          DoubleValue(819.2),
                          MakeDoubleAccessor(&HeadroomCalculator::m_macPhyDelay),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("PeerResponseTime",
                          "Peer response in bytes for speeds missing from the pause-quanta "
                          "table. Default 3.8 KB = 3891.2 B (ASIC_TABLE peer_response_time).",
                          DoubleValue(3891.2),
                          MakeDoubleAccessor(&HeadroomCalculator::m_peerResponseTime),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("PortMtu", "Port MTU, bytes. Default 9100 (SONiC PORT mtu default).",
                          UintegerValue(9100), MakeUintegerAccessor(&HeadroomCalculator::m_portMtu),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LosslessMtu",
                          "MTU of lossless traffic, bytes. Default 1024 (buffers_config.j2 "
                          "LOSSLESS_TRAFFIC_PATTERN mtu).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&HeadroomCalculator::m_losslessMtu),
                          MakeUintegerChecker<uint32_t>(64))
            .AddAttribute("SmallPacketPercentage",
                          "Share of 64-byte packets in lossless traffic, percent. Default 50 "
                          "(LOSSLESS_TRAFFIC_PATTERN small_packet_percentage).",
                          UintegerValue(50),
                          MakeUintegerAccessor(&HeadroomCalculator::m_smallPacketPercentage),
                          MakeUintegerChecker<uint32_t>(0, 100))
            .AddAttribute("GearboxDelay", "Gearbox delay (0 = none, the default).",
                          TimeValue(Time(0)), MakeTimeAccessor(&HeadroomCalculator::m_gearboxDelay),
                          MakeTimeChecker())
            .AddAttribute("SharedHeadroomPool",
                          "Shared headroom pool in use: size = xon and no 2 KB compensation. "
                          "Default false (SONiC HLD: SHP disabled by default).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&HeadroomCalculator::m_sharedHeadroomPool),
                          MakeBooleanChecker());
    return tid;
}

HeadroomCalculator::HeadroomCalculator() = default;

double
HeadroomCalculator::CableBytes(DataRate speed, double cableMetres)
{
    const double mbps = speed.GetBitRate() / 1e6;
    return 2.0 * cableMetres * mbps * 1e9 / CABLE_METRES_PER_SECOND / 8000.0;
}

HeadroomCalculator::Result
HeadroomCalculator::Calculate(DataRate speed, double cableMetres) const
{
    const double cell = m_cellSize;
    const double wcf = std::ceil(cell > 128 ? cell / 64.0 : 2.0 * cell / (1.0 + cell));
    const double spp = m_smallPacketPercentage;
    const double sppBytes = 100.0 * 64.0 / ((spp * 64.0 + (100.0 - spp) * m_losslessMtu) / 100.0);
    const double occ = (100.0 - sppBytes + sppBytes * wcf) / 100.0;
    const uint64_t mbps = speed.GetBitRate() / 1000000;
    const double quanta = PeerResponseQuanta(mbps);
    const double peer = quanta > 0 ? quanta * 512.0 / 8.0 : m_peerResponseTime;
    const double gearbox = mbps * m_gearboxDelay.GetNanoSeconds() / 8192.0;
    const double prop =
        m_portMtu + CableBytes(speed, cableMetres) + 2.0 * gearbox + m_macPhyDelay + peer;
    Result r;
    r.xoff = Ceil1024(m_losslessMtu + prop * occ);
    if (!m_sharedHeadroomPool && m_smallPacketPercentage != 100 &&
        r.xoff + 2048 < Ceil1024(m_losslessMtu + prop * wcf))
    {
        r.xoff += 2048;
    }
    r.xon = Ceil1024(m_pipelineLatency);
    r.size = m_sharedHeadroomPool ? r.xon : r.xon + r.xoff;
    return r;
}

HeadroomCalculator::Result
HeadroomCalculator::CalculateForDelay(DataRate speed, Time oneWayDelay) const
{
    return Calculate(speed, oneWayDelay.GetSeconds() * CABLE_METRES_PER_SECOND);
}

} // namespace ns3
