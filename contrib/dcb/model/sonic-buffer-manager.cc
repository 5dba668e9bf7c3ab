#include "sonic-buffer-manager.h"

#include "sonic-buffer-planner.h"
#include "sonic-config-loader.h"

#include "ns3/boolean.h"
#include "ns3/config-error.h"
#include "ns3/enum.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <map>
#include <sstream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SonicBufferManager);

namespace
{
constexpr uint32_t N_PRIO = 8;
constexpr uint64_t UNLIMITED = std::numeric_limits<uint64_t>::max();
} // namespace

TypeId
SonicBufferManager::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SonicBufferManager")
            .SetParent<BufferManager>()
            .SetGroupName("Dcb")
            .AddConstructor<SonicBufferManager>()
            .AddAttribute("ConfigFile",
                          "SONiC config_db JSON with the buffer tables (SonicConfigLoader); "
                          "several files comma-separated are merged in order. "
                          "Empty (default): Azure NSDI'23 Listing 1 (24 MB pizza box) with "
                          "SONiC's default PG/queue bindings on every port.",
                          StringValue(""), MakeStringAccessor(&SonicBufferManager::m_configFile),
                          MakeStringChecker())
            .AddAttribute(
                "PortNaming",
                "How config_db port names map to switch ports when reading ConfigFile "
                "without PortNames. Default EthernetOrder: the ports the file names, in the "
                "order of N in EthernetN, are switch ports 0, 1, 2, ... (any lane count or "
                "breakout); EthernetDiv4: N/4; EthernetIndex: N.",
                EnumValue(ETHERNET_ORDER), MakeEnumAccessor(&SonicBufferManager::m_portNaming),
                MakeEnumChecker(ETHERNET_ORDER, "EthernetOrder", ETHERNET_DIV4, "EthernetDiv4",
                                ETHERNET_INDEX, "EthernetIndex"))
            .AddAttribute("PortNames",
                          "config_db port names of switch ports 0, 1, 2, ..., comma-separated "
                          "(e.g. \"Ethernet8,Ethernet0\"); entries of other ports are ignored. "
                          "Empty (default): PortNaming decides.",
                          StringValue(""), MakeStringAccessor(&SonicBufferManager::m_portNames),
                          MakeStringChecker())
            .AddAttribute("MmuSize",
                          "Total buffer, bytes, from which the dynamic buffer model sizes the "
                          "pools that ConfigFile gives no size: size = MmuSize - reserved bytes "
                          "of all PGs and queues - shared headroom pools (SONiC "
                          "reclaim-reserved-buffer HLD: 'total memory minus the accumulative "
                          "reserved buffers'). 0 (default): the largest pool size the file "
                          "gives (Mellanox configs size egress_lossless_pool to the whole MMU).",
                          UintegerValue(0), MakeUintegerAccessor(&SonicBufferManager::m_mmuSize),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("CellSize",
                          "Accounting unit of the buffer, bytes: a packet occupies "
                          "ceil(len / cell) cells. Default 208 B, Broadcom Tomahawk-2 "
                          "(sonic-mgmt qos_params.th2.yaml); Listing 1's sizes are multiples of "
                          "it (1248 = 6, 96928 = 466 cells). 1 = byte accounting.",
                          UintegerValue(208), MakeUintegerAccessor(&SonicBufferManager::m_cellSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("HeadroomStickyWhilePaused",
                          "While a PG is paused all its arrivals use headroom (Azure §6.2 "
                          "wording, default true); false: charge shared whenever the packet "
                          "fits under the threshold (HPCC switch-mmu variant, spec §1.5).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SonicBufferManager::m_headroomSticky),
                          MakeBooleanChecker())
            .AddAttribute("UnlistedPortsLikeFirst",
                          "Switch ports that the configuration does not name take the bindings "
                          "of its first configured port (SONiC renders the same entries for "
                          "every port). Default false: such a configuration is rejected.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&SonicBufferManager::m_unlistedLikeFirst),
                          MakeBooleanChecker())
            .AddAttribute("CableHeadroom",
                          "Size each lossless PG's headroom for its port's speed and cable with "
                          "HeadroomCalculator (SONiC buffermgrd dynamic mode): a PG whose "
                          "profile xoff is below the calculated one gets a derived profile "
                          "pg_lossless_<Mb/s>_<m>m_profile, and the extra bytes are added to "
                          "its pool's shared headroom pool. Default false: profiles as "
                          "configured (SONiC static mode).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&SonicBufferManager::m_cableHeadroom),
                          MakeBooleanChecker())
            .AddTraceSource("HeadroomOverflow",
                            "A lossless packet found its PG headroom or the shared headroom "
                            "pool full: (port, pg, bytes).",
                            MakeTraceSourceAccessor(&SonicBufferManager::m_headroomOverflowTrace),
                            "ns3::SonicBufferManager::HeadroomOverflowCallback")
            .AddTraceSource("HeadroomBytes",
                            "PFC headroom in use, bytes, summed over all PGs and pools.",
                            MakeTraceSourceAccessor(&SonicBufferManager::m_headroomInUse),
                            "ns3::TracedValueCallback::Uint64")
            .AddTraceSource("PgPause",
                            "An ingress PG entered (true) or left (false) the paused state.",
                            MakeTraceSourceAccessor(&SonicBufferManager::m_pgPauseTrace),
                            "ns3::SonicBufferManager::PgPauseCallback");
    return tid;
}

SonicBufferManager::SonicBufferManager() = default;

void
SonicBufferManager::DoDispose()
{
    m_pgs.clear();
    m_queues.clear();
    BufferManager::DoDispose();
}

void
SonicBufferManager::SetConfig(const SonicBufferConfig& config)
{
    m_config = config;
    m_haveConfig = true;
    m_nPorts = 0; // profile pointers refer to m_config: Setup again
    m_pgs.clear();
    m_queues.clear();
}

const SonicBufferConfig&
SonicBufferManager::GetConfig() const
{
    return m_config;
}

const std::vector<std::string>&
SonicBufferManager::GetLoadNotes() const
{
    return m_notes;
}

std::string
SonicBufferManager::DoSetup()
{
    const uint32_t n = GetNPorts();
    if (!m_haveConfig)
    {
        if (m_configFile.empty())
        {
            m_config = DefaultConfig(n);
        }
        else
        {
            SonicConfigLoader loader;
            loader.SetEthernetDivisor(m_portNaming == ETHERNET_DIV4    ? 4
                                      : m_portNaming == ETHERNET_INDEX ? 1
                                                                       : 0);
            if (!m_portNames.empty())
            {
                std::map<std::string, uint32_t> map;
                std::stringstream names(m_portNames);
                std::string name;
                while (std::getline(names, name, ','))
                {
                    if (!map.emplace(name, static_cast<uint32_t>(map.size())).second)
                    {
                        return "SonicBufferManager::PortNames: port '" + name + "' given twice";
                    }
                }
                loader.SetPortMap(map);
            }
            try
            {
                m_config = loader.Read(m_configFile);
            }
            catch (const ConfigError& e)
            {
                // BufferManager::Setup's contract (shared by every buffer manager) returns
                // the reason as text: the located error's own text, file and pointer first.
                return e.what();
            }
            m_notes = loader.GetNotes();
        }
        m_haveConfig = true;
    }
    try
    {
        m_config.Check();
    }
    catch (const ConfigError& e)
    {
        return e.what();
    }
    const std::string why = SonicBufferPlanner(m_config, GetPorts(), m_notes)
                                .Plan(m_unlistedLikeFirst, m_cableHeadroom, m_mmuSize);
    if (!why.empty())
    {
        return why;
    }
    m_pools.assign(m_config.pools.size(), PoolState());
    m_poolIsBoth.assign(m_config.pools.size(), 0);
    for (size_t i = 0; i < m_config.pools.size(); ++i)
    {
        m_poolIsBoth[i] = m_config.pools[i].type == SonicBufferPool::Type::BOTH;
    }
    m_pgs.assign(n * N_PRIO, PgState());
    m_queues.assign(n * N_PRIO, QueueState());
    m_tcToPg.assign(n * N_PRIO, 0);
    m_lossless.assign(n, 0);
    m_unaccounted = 0;
    m_headroomInUse = 0;
    for (uint32_t p = 0; p < n; ++p)
    {
        const SonicPortBuffer& port = m_config.ports[p];
        m_lossless[p] = port.pfcEnable;
        for (uint32_t i = 0; i < N_PRIO; ++i)
        {
            m_tcToPg[p * N_PRIO + i] = port.tcToPg[i];
            if (port.pgProfile[i] != SonicPortBuffer::NONE)
            {
                m_pgs[p * N_PRIO + i].profile = &m_config.profiles[port.pgProfile[i]];
            }
            if (port.queueProfile[i] != SonicPortBuffer::NONE)
            {
                m_queues[p * N_PRIO + i].profile = &m_config.profiles[port.queueProfile[i]];
            }
            if ((port.pfcEnable >> i) & 1)
            {
                m_pgs[p * N_PRIO + port.tcToPg[i]].losslessPrios |= uint8_t(1u << i);
            }
        }
    }
    return "";
}

SonicBufferConfig
SonicBufferManager::DefaultConfig(uint32_t nPorts) const
{
    return SonicBufferConfig::AzureListing1(nPorts);
}

uint64_t
SonicBufferManager::Cells(uint32_t bytes) const
{
    return (uint64_t(bytes) + m_cellSize - 1) / m_cellSize * m_cellSize;
}

uint64_t
SonicBufferManager::Threshold(const SonicBufferProfile& profile) const
{
    if (!profile.dynamic)
    {
        return profile.staticTh == 0 ? UNLIMITED : profile.staticTh;
    }
    const SonicBufferPool& pool = m_config.pools[profile.pool];
    const uint64_t used = m_pools[profile.pool].shared;
    const uint64_t free = pool.size > used ? pool.size - used : 0;
    // alpha = 2^dynamic_th with the SAI bounds (spec §1.3), exact in integers.
    if (profile.dynamicTh <= -8)
    {
        return 0;
    }
    if (profile.dynamicTh >= 7)
    {
        return UNLIMITED;
    }
    return profile.dynamicTh < 0 ? free >> (-profile.dynamicTh) : free << profile.dynamicTh;
}

void
SonicBufferManager::SetPaused(uint32_t port, uint8_t pg, PgState& state, bool paused)
{
    state.paused = paused;
    m_pgPauseTrace(port, pg, paused);
    for (uint8_t prio = 0; prio < N_PRIO; ++prio)
    {
        if ((state.losslessPrios >> prio) & 1)
        {
            NotifyPfc(port, prio, paused);
        }
    }
}

bool
SonicBufferManager::DoAdmit(uint32_t inPort, uint32_t outPort, uint8_t tc, uint32_t bytes,
                            DropReason& reason)
{
    const uint64_t len = Cells(bytes);
    const uint8_t pg = m_tcToPg[inPort * N_PRIO + tc];
    PgState& in = m_pgs[inPort * N_PRIO + pg];
    QueueState& out = m_queues[outPort * N_PRIO + tc];
    const bool lossless = (m_lossless[inPort] >> tc) & 1;

    // Egress admission (decided first: nothing is charged unless both pass).
    enum Where : uint8_t
    {
        NONE,
        RESERVED,
        SHARED,
        HEADROOM
    };
    Where egress = NONE;
    if (out.profile)
    {
        if (out.reserved + len <= out.profile->size)
        {
            egress = RESERVED;
        }
        else if (out.shared + len <= Threshold(*out.profile))
        {
            egress = SHARED;
        }
        else
        {
            reason = DROP_EGRESS_LIMIT;
            return false;
        }
    }

    // Ingress admission.
    Where ingress = NONE;
    if (in.profile)
    {
        const SonicBufferProfile& prof = *in.profile;
        if (in.reserved + len <= prof.size)
        {
            ingress = RESERVED;
        }
        else if ((!in.paused || !m_headroomSticky || !lossless) &&
                 in.shared + len <= Threshold(prof))
        {
            ingress = SHARED;
        }
        else if (!lossless)
        {
            reason = DROP_INGRESS_LIMIT;
            return false;
        }
        else
        {
            if (!in.paused)
            {
                SetPaused(inPort, pg, in, true);
            }
            const SonicBufferPool& pool = m_config.pools[prof.pool];
            const bool pgRoom = in.headroom + len <= prof.xoff;
            const bool shpRoom = pool.xoff == 0 || m_pools[prof.pool].headroom + len <= pool.xoff;
            if (!pgRoom || !shpRoom)
            {
                reason = DROP_HEADROOM_OVERFLOW;
                m_headroomOverflowTrace(inPort, pg, bytes);
                return false;
            }
            ingress = HEADROOM;
        }
    }

    // Commit.
    if (egress == RESERVED)
    {
        out.reserved += len;
    }
    else if (egress == SHARED)
    {
        out.shared += len;
        // A pool of type both is one buffer for ingress and egress accounting: a
        // packet the ingress side charged to it is not counted a second time.
        if (!EgressChargedByIngress(in, *out.profile))
        {
            PoolState& ps = m_pools[out.profile->pool];
            ps.shared += len;
            ps.sharedPeak = std::max(ps.sharedPeak, ps.shared);
        }
    }
    out.peak = std::max(out.peak, out.reserved + out.shared);

    switch (ingress)
    {
        case NONE:
            m_unaccounted += len;
            break;
        case RESERVED:
            in.reserved += len;
            break;
        case SHARED:
        {
            in.shared += len;
            in.sharedPeak = std::max(in.sharedPeak, in.shared);
            PoolState& ps = m_pools[in.profile->pool];
            ps.shared += len;
            ps.sharedPeak = std::max(ps.sharedPeak, ps.shared);
            // A lossless PG that reached its (now lower) threshold pauses (spec §1.5).
            if (lossless && !in.paused && in.shared >= Threshold(*in.profile))
            {
                SetPaused(inPort, pg, in, true);
            }
            break;
        }
        case HEADROOM:
        {
            in.headroom += len;
            in.headroomPeak = std::max(in.headroomPeak, in.headroom);
            PoolState& ps = m_pools[in.profile->pool];
            ps.headroom += len;
            ps.headroomPeak = std::max(ps.headroomPeak, ps.headroom);
            m_headroomInUse += len;
            break;
        }
    }
    return true;
}

void
SonicBufferManager::DoRelease(uint32_t inPort, uint32_t outPort, uint8_t tc, uint32_t bytes)
{
    const uint64_t len = Cells(bytes);
    const uint8_t pg = m_tcToPg[inPort * N_PRIO + tc];
    PgState& in = m_pgs[inPort * N_PRIO + pg];
    QueueState& out = m_queues[outPort * N_PRIO + tc];

    if (out.profile)
    {
        const uint64_t fromShared = std::min(out.shared, len);
        out.shared -= fromShared;
        if (!EgressChargedByIngress(in, *out.profile))
        {
            m_pools[out.profile->pool].shared -= fromShared;
        }
        out.reserved -= std::min(out.reserved, len - fromShared);
    }

    if (!in.profile)
    {
        m_unaccounted -= std::min(m_unaccounted, len);
        return;
    }
    // Headroom first, then shared, then reserved (spec §1.5).
    PoolState& ps = m_pools[in.profile->pool];
    uint64_t left = len;
    const uint64_t fromHeadroom = std::min(in.headroom, left);
    in.headroom -= fromHeadroom;
    ps.headroom -= fromHeadroom;
    if (fromHeadroom > 0)
    {
        m_headroomInUse -= fromHeadroom;
    }
    left -= fromHeadroom;
    const uint64_t fromShared = std::min(in.shared, left);
    in.shared -= fromShared;
    ps.shared -= fromShared;
    left -= fromShared;
    in.reserved -= std::min(in.reserved, left);

    if (in.paused && in.headroom == 0)
    {
        // SAI XON rule: usage <= max(xon, (size + T) - xon_offset).
        const SonicBufferProfile& prof = *in.profile;
        const uint64_t t = Threshold(prof);
        const uint64_t limit = t == UNLIMITED ? UNLIMITED : prof.size + t;
        const uint64_t resumeAt =
            std::max<uint64_t>(prof.xon, limit > prof.xonOffset ? limit - prof.xonOffset : 0);
        if (in.reserved + in.shared <= resumeAt)
        {
            SetPaused(inPort, pg, in, false);
        }
    }
}

uint64_t
SonicBufferManager::GetOccupancy() const
{
    uint64_t total = m_unaccounted;
    for (const PgState& s : m_pgs)
    {
        total += s.reserved + s.shared + s.headroom;
    }
    return total;
}

uint64_t
SonicBufferManager::GetIngressThreshold(uint32_t port, uint8_t pg) const
{
    const PgState& s = m_pgs.at(port * N_PRIO + pg);
    return s.profile ? Threshold(*s.profile) : UNLIMITED;
}

uint64_t
SonicBufferManager::GetEgressThreshold(uint32_t port, uint8_t queue) const
{
    const QueueState& s = m_queues.at(port * N_PRIO + queue);
    return s.profile ? Threshold(*s.profile) : UNLIMITED;
}

uint64_t
SonicBufferManager::GetPoolSharedBytes(uint32_t pool) const
{
    return m_pools.at(pool).shared;
}

uint64_t
SonicBufferManager::GetPoolHeadroomBytes(uint32_t pool) const
{
    return m_pools.at(pool).headroom;
}

uint64_t
SonicBufferManager::GetPgReservedBytes(uint32_t port, uint8_t pg) const
{
    return m_pgs.at(port * N_PRIO + pg).reserved;
}

uint64_t
SonicBufferManager::GetPgSharedBytes(uint32_t port, uint8_t pg) const
{
    return m_pgs.at(port * N_PRIO + pg).shared;
}

uint64_t
SonicBufferManager::GetPgHeadroomBytes(uint32_t port, uint8_t pg) const
{
    return m_pgs.at(port * N_PRIO + pg).headroom;
}

uint64_t
SonicBufferManager::GetQueueBytes(uint32_t port, uint8_t queue) const
{
    const QueueState& s = m_queues.at(port * N_PRIO + queue);
    return s.reserved + s.shared;
}

bool
SonicBufferManager::IsPaused(uint32_t port, uint8_t pg) const
{
    return m_pgs.at(port * N_PRIO + pg).paused;
}

bool
SonicBufferManager::IsLosslessPriority(uint32_t port, uint8_t prio) const
{
    return (m_lossless.at(port) >> (prio & 7)) & 1;
}

uint64_t
SonicBufferManager::GetPoolSharedWatermark(uint32_t pool) const
{
    return m_pools.at(pool).sharedPeak;
}

uint64_t
SonicBufferManager::GetPoolHeadroomWatermark(uint32_t pool) const
{
    return m_pools.at(pool).headroomPeak;
}

uint64_t
SonicBufferManager::GetPgSharedWatermark(uint32_t port, uint8_t pg) const
{
    return m_pgs.at(port * N_PRIO + pg).sharedPeak;
}

uint64_t
SonicBufferManager::GetPgHeadroomWatermark(uint32_t port, uint8_t pg) const
{
    return m_pgs.at(port * N_PRIO + pg).headroomPeak;
}

uint64_t
SonicBufferManager::GetQueueWatermark(uint32_t port, uint8_t queue) const
{
    return m_queues.at(port * N_PRIO + queue).peak;
}

void
SonicBufferManager::ClearWatermarks()
{
    for (PoolState& s : m_pools)
    {
        s.sharedPeak = s.shared;
        s.headroomPeak = s.headroom;
    }
    for (PgState& s : m_pgs)
    {
        s.sharedPeak = s.shared;
        s.headroomPeak = s.headroom;
    }
    for (QueueState& s : m_queues)
    {
        s.peak = s.reserved + s.shared;
    }
}

void
SonicBufferManager::DoReportOccupancy(std::vector<BufferOccupancy>& report) const
{
    auto add = [&report](const char* object, const std::string& name, int32_t port, int32_t index,
                         uint64_t bytes, uint64_t watermark) {
        report.push_back(BufferOccupancy{object, name, port, index, bytes, watermark});
    };
    for (uint32_t p = 0; p < m_config.pools.size(); ++p)
    {
        add("pool_shared", m_config.pools[p].name, -1, -1, GetPoolSharedBytes(p),
            GetPoolSharedWatermark(p));
        if (m_config.pools[p].xoff > 0)
        {
            add("pool_headroom", m_config.pools[p].name, -1, -1, GetPoolHeadroomBytes(p),
                GetPoolHeadroomWatermark(p));
        }
    }
    const std::string none;
    for (uint32_t p = 0; p < GetNPorts(); ++p)
    {
        const auto port = static_cast<int32_t>(p);
        for (uint8_t i = 0; i < N_PRIO; ++i)
        {
            const uint64_t shared = GetPgSharedWatermark(p, i);
            if (shared > 0)
            {
                add("pg_shared", none, port, i, GetPgSharedBytes(p, i), shared);
            }
            const uint64_t headroom = GetPgHeadroomWatermark(p, i);
            if (headroom > 0)
            {
                add("pg_headroom", none, port, i, GetPgHeadroomBytes(p, i), headroom);
            }
            const uint64_t queue = GetQueueWatermark(p, i);
            if (queue > 0)
            {
                add("queue", none, port, i, GetQueueBytes(p, i), queue);
            }
        }
    }
}

} // namespace ns3
