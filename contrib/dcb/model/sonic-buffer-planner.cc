#include "sonic-buffer-planner.h"

#include "headroom-calculator.h"

#include "ns3/boolean.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

namespace
{
/** Appended to a calculated profile's name when the file already uses that name. */
const char* const CALCULATED_SUFFIX = "_calculated";
} // namespace

SonicBufferPlanner::SonicBufferPlanner(SonicBufferConfig& config,
                                       const std::vector<BufferPortInfo>& ports,
                                       std::vector<std::string>& notes)
    : m_config(config)
    , m_ports(ports)
    , m_notes(notes)
{
}

std::string
SonicBufferPlanner::Plan(bool unlistedLikeFirst, bool cableHeadroom, uint64_t mmuSize)
{
    std::string why = BindPorts(unlistedLikeFirst);
    if (!why.empty())
    {
        return why;
    }
    ApplyCalculatedHeadroom();
    if (cableHeadroom)
    {
        ApplyCableHeadroom();
    }
    return SizePools(mmuSize);
}

std::string
SonicBufferPlanner::BindPorts(bool unlistedLikeFirst)
{
    const auto n = static_cast<uint32_t>(m_ports.size());
    // Bindings for every switch port.
    int32_t first = -1;
    for (size_t p = 0; p < m_config.ports.size(); ++p)
    {
        if (m_config.ports[p].configured)
        {
            first = static_cast<int32_t>(p);
            break;
        }
    }
    if (first < 0)
    {
        return m_config.source + ": no port is configured (BUFFER_PG/BUFFER_QUEUE/PORT_QOS_MAP)";
    }
    if (m_config.ports.size() > n)
    {
        m_notes.push_back(m_config.source + ": ports from index " + std::to_string(n) +
                          " on are configured but absent from this switch; ignored");
    }
    const SonicPortBuffer templ = m_config.ports[first];
    m_config.ports.resize(n);
    for (uint32_t p = 0; p < n; ++p)
    {
        SonicPortBuffer& port = m_config.ports[p];
        if (port.configured)
        {
            continue;
        }
        if (!unlistedLikeFirst)
        {
            return m_config.source + ": switch port " + std::to_string(p) +
                   " is named by no table; configure it or set "
                   "SonicBufferManager::UnlistedPortsLikeFirst";
        }
        const std::string name = "(port " + std::to_string(p) + " like " + templ.name + ")";
        port = templ;
        port.name = name;
    }

    return "";
}

void
SonicBufferPlanner::ApplyCableHeadroom()
{
    Ptr<HeadroomCalculator> calc = CreateObject<HeadroomCalculator>();
    const size_t firstDerived = m_config.profiles.size();
    for (uint32_t p = 0; p < m_config.ports.size() && p < m_ports.size(); ++p)
    {
        SonicPortBuffer& port = m_config.ports[p];
        for (uint32_t prio = 0; prio < port.pgProfile.size(); ++prio)
        {
            const uint8_t pg = port.tcToPg[prio];
            const int32_t pi = port.pgProfile[pg];
            if (!((port.pfcEnable >> prio) & 1) || pi == SonicPortBuffer::NONE)
            {
                continue;
            }
            const SonicBufferProfile base = m_config.profiles[pi];
            const bool shp = m_config.pools[base.pool].xoff > 0;
            calc->SetAttribute("SharedHeadroomPool", BooleanValue(shp));
            DataRate speed;
            double metres = 0;
            PortCable(p, speed, metres);
            const HeadroomCalculator::Result r = calc->Calculate(speed, metres);
            if (r.xoff <= base.xoff)
            {
                continue;
            }
            const std::string name = "pg_lossless_" + std::to_string(speed.GetBitRate() / 1000000) +
                                     "_" + std::to_string(uint64_t(metres + 0.5)) + "m_profile";
            int32_t derived = FindDerived(name, firstDerived);
            if (derived < 0)
            {
                SonicBufferProfile prof = base;
                prof.name = DerivedName(name, firstDerived);
                prof.xoff = r.xoff;
                m_config.profiles.push_back(prof);
                derived = static_cast<int32_t>(m_config.profiles.size() - 1);
            }
            if (shp)
            {
                m_config.pools[base.pool].xoff += m_config.profiles[derived].xoff - base.xoff;
            }
            m_notes.push_back(m_config.source + ": port " + port.name + " PG " +
                              std::to_string(pg) + ": cable headroom xoff " +
                              std::to_string(r.xoff) + " B (" + name + ")");
            port.pgProfile[pg] = derived;
        }
    }
}

int32_t
SonicBufferPlanner::FindDerived(const std::string& name, size_t firstDerived) const
{
    for (size_t i = firstDerived; i < m_config.profiles.size(); ++i)
    {
        if (m_config.profiles[i].name == name ||
            m_config.profiles[i].name == name + CALCULATED_SUFFIX)
        {
            return static_cast<int32_t>(i);
        }
    }
    return -1;
}

std::string
SonicBufferPlanner::DerivedName(const std::string& name, size_t firstDerived) const
{
    // A profile of the file may already carry buffermgrd's name (with its own values):
    // the calculated one then gets a suffix, so that names stay unique.
    for (size_t i = 0; i < firstDerived; ++i)
    {
        if (m_config.profiles[i].name == name)
        {
            return name + CALCULATED_SUFFIX;
        }
    }
    return name;
}

void
SonicBufferPlanner::PortCable(uint32_t p, DataRate& speed, double& metres) const
{
    const SonicPortBuffer& port = m_config.ports[p];
    const BufferPortInfo& info = m_ports.at(p);
    speed = port.speedMbps > 0 ? DataRate(port.speedMbps * 1000000) : info.rate;
    // HeadroomCalculator::CalculateForDelay's conversion, SONiC's 1.98e8 m/s.
    metres = port.cableMetres >= 0 ? port.cableMetres : info.cableDelay.GetSeconds() * 198e6;
}

void
SonicBufferPlanner::ApplyCalculatedHeadroom()
{
    const int32_t pool = m_config.FindPool("ingress_lossless_pool");
    Ptr<HeadroomCalculator> calc;
    const size_t firstDerived = m_config.profiles.size();
    for (uint32_t p = 0; p < m_config.ports.size(); ++p)
    {
        SonicPortBuffer& port = m_config.ports[p];
        if (port.pgDynamic == 0 || pool < 0) // the loader requires the pool with such PGs
        {
            continue;
        }
        if (!calc)
        {
            calc = CreateObject<HeadroomCalculator>();
            calc->SetAttribute("SharedHeadroomPool", BooleanValue(m_config.pools[pool].xoff > 0));
        }
        DataRate speed;
        double metres = 0;
        PortCable(p, speed, metres);
        if (port.mtu > 0)
        {
            calc->SetAttribute("PortMtu", UintegerValue(port.mtu));
        }
        const HeadroomCalculator::Result r = calc->Calculate(speed, metres);
        if (port.mtu > 0)
        {
            calc->SetAttribute("PortMtu", UintegerValue(9100));
        }
        // buffermgrd's name: pg_lossless_<speed>_<cable>[_mtu<mtu>]_profile.
        std::string name = "pg_lossless_" + std::to_string(speed.GetBitRate() / 1000000) + "_" +
                           std::to_string(uint64_t(metres + 0.5)) + "m";
        if (port.mtu > 0 && port.mtu != 9100)
        {
            name += "_mtu" + std::to_string(port.mtu);
        }
        name += "_profile";
        int32_t index = FindDerived(name, firstDerived);
        if (index < 0)
        {
            SonicBufferProfile prof;
            prof.name = DerivedName(name, firstDerived);
            prof.pool = static_cast<uint32_t>(pool);
            prof.size = r.size;
            prof.xon = r.xon;
            prof.xoff = r.xoff;
            prof.dynamic = true;
            prof.dynamicTh = m_config.defaultDynamicTh;
            m_config.profiles.push_back(prof);
            index = static_cast<int32_t>(m_config.profiles.size() - 1);
        }
        for (uint32_t pg = 0; pg < port.pgProfile.size(); ++pg)
        {
            if ((port.pgDynamic >> pg) & 1)
            {
                port.pgProfile[pg] = index;
            }
        }
        m_notes.push_back(m_config.source + ": port " + port.name + ": calculated headroom " +
                          name + " (xon " + std::to_string(r.xon) + " B, xoff " +
                          std::to_string(r.xoff) + " B, size " + std::to_string(r.size) + " B)");
    }
}

std::string
SonicBufferPlanner::SizePools(uint64_t mmuSize)
{
    uint64_t given = 0;
    bool any = false;
    for (const SonicBufferPool& pool : m_config.pools)
    {
        given = pool.sizeGiven ? std::max(given, pool.size) : given;
        any = any || !pool.sizeGiven;
    }
    if (!any)
    {
        return "";
    }
    const uint64_t mmu = mmuSize > 0 ? mmuSize : given;
    // Reserved: every PG's and queue's profile size (a lossless PG's size holds its
    // xon + xoff without a shared headroom pool), and the shared headroom pools.
    uint64_t reserved = 0;
    for (const SonicBufferPool& pool : m_config.pools)
    {
        reserved += pool.xoff;
    }
    for (const SonicPortBuffer& port : m_config.ports)
    {
        for (uint32_t i = 0; i < port.pgProfile.size(); ++i)
        {
            reserved += port.pgProfile[i] == SonicPortBuffer::NONE
                            ? 0
                            : m_config.profiles[port.pgProfile[i]].size;
            reserved += port.queueProfile[i] == SonicPortBuffer::NONE
                            ? 0
                            : m_config.profiles[port.queueProfile[i]].size;
        }
    }
    for (SonicBufferPool& pool : m_config.pools)
    {
        if (pool.sizeGiven)
        {
            continue;
        }
        if (mmu <= reserved)
        {
            return m_config.source + ": " + m_config.Pointer("BUFFER_POOL", pool.name) +
                   "/size: not given (dynamic model), and the buffer to size it from (" +
                   std::to_string(mmu) +
                   " B, SonicBufferManager::MmuSize or the largest pool) "
                   "is not above the " +
                   std::to_string(reserved) + " B reserved";
        }
        pool.size = mmu - reserved;
        m_notes.push_back(m_config.source + ": pool " + pool.name + ": size " +
                          std::to_string(pool.size) + " B = " + std::to_string(mmu) + " - " +
                          std::to_string(reserved) + " B reserved (dynamic model)");
    }
    return "";
}

} // namespace ns3
