#include "sonic-buffer-config.h"

#include "ns3/config-error.h"

#include <cmath>
#include <sstream>

namespace ns3
{

SonicPortBuffer::SonicPortBuffer()
{
    pgProfile.fill(NONE);
    queueProfile.fill(NONE);
    queueWred.fill(NONE);
    queueScheduler.fill(NONE);
}

namespace
{
template <typename T>
int32_t
FindByName(const std::vector<T>& items, const std::string& name)
{
    for (size_t i = 0; i < items.size(); ++i)
    {
        if (items[i].name == name)
        {
            return static_cast<int32_t>(i);
        }
    }
    return -1;
}

bool
IsIngress(SonicBufferPool::Type t)
{
    return t != SonicBufferPool::Type::EGRESS;
}

bool
IsEgress(SonicBufferPool::Type t)
{
    return t != SonicBufferPool::Type::INGRESS;
}
} // namespace

int32_t
SonicBufferConfig::FindPool(const std::string& name) const
{
    return FindByName(pools, name);
}

int32_t
SonicBufferConfig::FindProfile(const std::string& name) const
{
    return FindByName(profiles, name);
}

int32_t
SonicBufferConfig::FindWredProfile(const std::string& name) const
{
    return FindByName(wredProfiles, name);
}

std::string
SonicBufferConfig::Pointer(const std::string& table, const std::string& key) const
{
    // RFC 6901: '~' -> "~0", '/' -> "~1".
    std::string escaped;
    for (char c : flatKeys ? table + "|" + key : key)
    {
        escaped += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
    }
    return flatKeys ? "/" + escaped : "/" + table + "/" + escaped;
}

const std::array<uint8_t, 64>*
SonicBufferConfig::DscpToTc(uint32_t port) const
{
    if (port < ports.size() && ports[port].hasDscpToTc)
    {
        return &ports[port].dscpToTc;
    }
    return hasGlobalDscpToTc ? &globalDscpToTc : nullptr;
}

double
SonicBufferConfig::AlphaFromDynamicTh(int32_t dynamicTh)
{
    if (dynamicTh <= -8)
    {
        return 0.0;
    }
    if (dynamicTh >= 7)
    {
        return std::numeric_limits<double>::infinity();
    }
    return std::ldexp(1.0, dynamicTh);
}

void
SonicBufferConfig::Check() const
{
    std::ostringstream why;
    for (const auto& prof : profiles)
    {
        if (prof.pool >= pools.size())
        {
            why << "names a pool that BUFFER_POOL does not define";
            throw ConfigError(source, Pointer("BUFFER_PROFILE", prof.name) + "/pool", why.str());
        }
    }
    for (const auto& prof : profiles)
    {
        // SAI_BUFFER_PROFILE_ATTR_SHARED_DYNAMIC_TH is an int8, but alpha = 2^n is
        // 0 from n = -8 down and unlimited from n = 7 up (spec §1.3): a value
        // outside [-8, 7] names no other threshold, it is a mistake.
        if (prof.dynamic && (prof.dynamicTh < -8 || prof.dynamicTh > 7))
        {
            why << prof.dynamicTh
                << " is outside [-8, 7] (alpha = 2^dynamic_th: -8 and below is 0, 7 and above "
                   "is unlimited)";
            throw ConfigError(source, Pointer("BUFFER_PROFILE", prof.name) + "/dynamic_th",
                              why.str());
        }
    }
    for (const auto& pool : pools)
    {
        if (pool.xoff > 0 && !IsIngress(pool.type))
        {
            why << "a shared headroom pool is valid only on an ingress pool";
            throw ConfigError(source, Pointer("BUFFER_POOL", pool.name) + "/xoff", why.str());
        }
    }
    std::vector<uint8_t> ingressUsed(pools.size(), 0);
    std::vector<uint8_t> lossyEgressUsed(pools.size(), 0);
    bool anyLossless = false;
    for (const auto& port : ports)
    {
        anyLossless = anyLossless || port.pfcEnable != 0;
        for (uint32_t pg = 0; pg < 8; ++pg)
        {
            const int32_t pi = port.pgProfile[pg];
            if (pi == SonicPortBuffer::NONE)
            {
                continue;
            }
            const SonicBufferProfile& prof = profiles.at(pi);
            if (!IsIngress(pools[prof.pool].type))
            {
                why << "profile '" << prof.name << "' is on egress pool '" << pools[prof.pool].name
                    << "'; a priority group needs an ingress pool";
                throw ConfigError(source, Pointer("BUFFER_PG", port.pgKey[pg]) + "/profile",
                                  why.str());
            }
            ingressUsed[prof.pool] = 1;
        }
        for (uint32_t prio = 0; prio < 8; ++prio)
        {
            if (!((port.pfcEnable >> prio) & 1))
            {
                continue;
            }
            const uint8_t pg = port.tcToPg[prio];
            const int32_t pi = port.pgProfile[pg];
            if ((port.pgDynamic >> pg) & 1)
            {
                continue; // headroom calculated at setup (dynamic model)
            }
            if (pi == SonicPortBuffer::NONE)
            {
                why << "priority " << prio << " is lossless but PG " << unsigned(pg)
                    << " has no BUFFER_PG profile (a lossless PG needs xoff headroom)";
                throw ConfigError(source, Pointer("PORT_QOS_MAP", port.name) + "/pfc_enable",
                                  why.str());
            }
            if (profiles[pi].xoff == 0)
            {
                why << "lossless PG " << unsigned(pg) << " (pfc_enable priority " << prio
                    << ") uses profile '" << profiles[pi].name
                    << "', which has no xoff (headroom) > 0";
                throw ConfigError(source, Pointer("BUFFER_PG", port.pgKey[pg]) + "/profile",
                                  why.str());
            }
        }
        for (uint32_t q = 0; q < 8; ++q)
        {
            const int32_t pi = port.queueProfile[q];
            if (pi == SonicPortBuffer::NONE)
            {
                continue;
            }
            const SonicBufferProfile& prof = profiles.at(pi);
            if (!IsEgress(pools[prof.pool].type))
            {
                why << "profile '" << prof.name << "' is on ingress pool '" << pools[prof.pool].name
                    << "'; a queue needs an egress pool";
                throw ConfigError(source,
                                  Pointer("BUFFER_QUEUE", port.name + "|" + std::to_string(q)) +
                                      "/profile",
                                  why.str());
            }
            if (!((port.pfcEnable >> q) & 1) &&
                pools[prof.pool].type != SonicBufferPool::Type::BOTH)
            {
                lossyEgressUsed[prof.pool] = 1;
            }
        }
    }
    // SAI: a pool's shared size is its size less the reserved sizes of the PGs and
    // queues on it (SAI_BUFFER_POOL_ATTR_SHARED_SIZE); a pool smaller than those
    // reservations cannot hold them.
    std::vector<uint64_t> reserved(pools.size(), 0);
    std::vector<std::string> example(pools.size());
    auto reserve = [&](int32_t pi, const std::string& key)
    {
        if (pi == SonicPortBuffer::NONE || profiles[pi].size == 0)
        {
            return;
        }
        reserved[profiles[pi].pool] += profiles[pi].size;
        if (example[profiles[pi].pool].empty())
        {
            example[profiles[pi].pool] = key + " (profile '" + profiles[pi].name + "', size " +
                                         std::to_string(profiles[pi].size) + " B)";
        }
    };
    for (const auto& port : ports)
    {
        for (uint32_t i = 0; i < 8; ++i)
        {
            reserve(port.pgProfile[i], "BUFFER_PG|" + port.pgKey[i]);
            reserve(port.queueProfile[i], "BUFFER_QUEUE|" + port.name + "|" + std::to_string(i));
        }
    }
    for (size_t p = 0; p < pools.size(); ++p)
    {
        // A pool without a size (the dynamic model) is sized at set-up from what is left.
        if (pools[p].sizeGiven && reserved[p] > pools[p].size)
        {
            why << "" << pools[p].size << " B is smaller than the " << reserved[p]
                << " B its priority groups and queues reserve (profile sizes summed over the "
                   "ports, e.g. "
                << example[p] << ")";
            throw ConfigError(source, Pointer("BUFFER_POOL", pools[p].name) + "/size", why.str());
        }
    }
    // Azure §6.2: egress_lossy_pool <= ingress pool, "because lossy packets
    // should not use any of the PFC headroom buffer at ingress" (there is no PFC
    // headroom when no priority is lossless; a pool without size is sized at setup).
    for (size_t e = 0; e < pools.size() && anyLossless; ++e)
    {
        if (!lossyEgressUsed[e] || !pools[e].sizeGiven)
        {
            continue;
        }
        for (size_t i = 0; i < pools.size(); ++i)
        {
            if (ingressUsed[i] && pools[i].sizeGiven && pools[e].size > pools[i].size)
            {
                why << "" << pools[e].size
                    << " B serves lossy queues but is larger than ingress pool '" << pools[i].name
                    << "' (" << pools[i].size << " B); lossy traffic would reach the PFC headroom";
                throw ConfigError(source, Pointer("BUFFER_POOL", pools[e].name) + "/size",
                                  why.str());
            }
        }
    }
}

SonicBufferConfig
SonicBufferConfig::AzureListing1(uint32_t nPorts)
{
    SonicBufferConfig c;
    c.source = "(built-in Azure NSDI'23 Listing 1)";
    c.pools = {
        {"ingress_pool", SonicBufferPool::Type::INGRESS, true, 18000000, 6000000},
        {"egress_lossy_pool", SonicBufferPool::Type::EGRESS, true, 14000000, 0},
        {"egress_lossless_pool", SonicBufferPool::Type::EGRESS, false, 24000000, 0},
    };
    SonicBufferProfile inLossless;
    inLossless.name = "ingress_lossless_profile";
    inLossless.pool = 0;
    inLossless.size = 1248;
    inLossless.dynamic = true;
    inLossless.dynamicTh = -3;
    inLossless.xoff = 96928;
    inLossless.xon = 1248;
    inLossless.xonOffset = 2496;
    SonicBufferProfile inLossy;
    inLossy.name = "ingress_lossy_profile";
    inLossy.pool = 0;
    inLossy.dynamic = false;
    inLossy.staticTh = 24000000;
    SonicBufferProfile outLossless;
    outLossless.name = "egress_lossless_profile";
    outLossless.pool = 2;
    outLossless.dynamic = false;
    outLossless.staticTh = 24000000;
    SonicBufferProfile outLossy;
    outLossy.name = "egress_lossy_profile";
    outLossy.pool = 1;
    outLossy.size = 1664;
    outLossy.dynamic = true;
    outLossy.dynamicTh = -1;
    c.profiles = {inLossless, inLossy, outLossless, outLossy};
    c.ports.resize(nPorts);
    for (uint32_t p = 0; p < nPorts; ++p)
    {
        SonicPortBuffer& port = c.ports[p];
        port.name = "Ethernet" + std::to_string(4 * p);
        port.configured = true;
        port.pgProfile[0] = 1;
        port.pgProfile[3] = 0;
        port.pgProfile[4] = 0;
        port.pgKey[0] = port.name + "|0";
        port.pgKey[3] = port.pgKey[4] = port.name + "|3-4";
        for (uint32_t q : {0u, 1u, 2u, 5u, 6u})
        {
            port.queueProfile[q] = 3;
        }
        port.queueProfile[3] = port.queueProfile[4] = 2;
        port.pfcEnable = 0x18;
    }
    return c;
}

SonicBufferConfig
SonicBufferConfig::VoqChassisJ2(uint32_t nPorts)
{
    SonicBufferConfig c;
    c.source = "(built-in Jericho2 VoQ chassis)";
    c.switchType = "voq";
    c.pools = {
        {"ingress_lossless_pool", SonicBufferPool::Type::BOTH, true, 6441610000ULL, 1582033305ULL}};
    SonicBufferProfile inLossless;
    inLossless.name = "pg_lossless_400000_2000m_profile";
    inLossless.dynamicTh = -5;
    inLossless.xon = 2560;
    inLossless.xoff = 1445888;
    inLossless.xonOffset = 1454025;
    SonicBufferProfile inLossy;
    inLossy.name = "ingress_lossy_profile";
    inLossy.dynamicTh = 0;
    SonicBufferProfile outLossless;
    outLossless.name = "egress_lossless_profile";
    outLossless.dynamicTh = -1;
    SonicBufferProfile outLossy;
    outLossy.name = "egress_lossy_profile";
    outLossy.dynamicTh = -4;
    c.profiles = {inLossless, inLossy, outLossless, outLossy};
    SonicWredProfile wred;
    wred.name = "AZURE_LOSSLESS";
    wred.greenEnable = true;
    wred.greenMin = 2000000;
    wred.greenMax = 10000000;
    wred.greenDropProbability = 0.05;
    wred.ecnMarking = true;
    c.wredProfiles = {wred};
    c.ports.resize(nPorts);
    for (uint32_t p = 0; p < nPorts; ++p)
    {
        SonicPortBuffer& port = c.ports[p];
        port.name = "Ethernet" + std::to_string(4 * p);
        port.configured = true;
        port.pgProfile[0] = 1;
        port.pgProfile[3] = port.pgProfile[4] = 0;
        port.pgKey[0] = port.name + "|0";
        port.pgKey[3] = port.pgKey[4] = port.name + "|3-4";
        for (uint32_t q : {0u, 1u, 2u, 5u, 6u})
        {
            port.queueProfile[q] = 3;
        }
        port.queueProfile[3] = port.queueProfile[4] = 2;
        port.queueWred[3] = port.queueWred[4] = 0;
        port.pfcEnable = 0x18;
    }
    return c;
}

} // namespace ns3
