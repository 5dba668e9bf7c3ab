#include "ideal-fct-calculator.h"

#include "ns3/dcb-net-device.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <tuple>

namespace ns3
{

IdealFctCalculator::IdealFctCalculator(const ExperimentTopology& topology, uint32_t headerBytes)
    : m_topology(topology)
    , m_headerBytes(headerBytes)
    , m_adjacency(topology.GetNNodes())
{
    for (const auto& l : topology.links)
    {
        m_adjacency[l.a].push_back(Adjacent{l.b, l.rate, l.delay});
        m_adjacency[l.b].push_back(Adjacent{l.a, l.rate, l.delay});
    }
}

uint64_t
IdealFctCalculator::GetWireBytes(uint64_t bytes, uint32_t mtu, uint32_t trailerBytes) const
{
    const uint64_t packets = std::max<uint64_t>(1, (bytes + mtu - 1) / mtu);
    return bytes + packets * (m_headerBytes + trailerBytes);
}

DataRate
IdealFctCalculator::GetBottleneckRate(uint32_t srcHost, uint32_t dstHost) const
{
    // Hosts have exactly one link (checked when the configuration is loaded).
    const DataRate a = m_adjacency[srcHost].front().rate;
    const DataRate b = m_adjacency[dstHost].front().rate;
    return a < b ? a : b;
}

Time
IdealFctCalculator::GetBaseRtt(uint32_t srcHost, uint32_t dstHost, uint32_t lastPayload,
                               uint32_t trailerBytes) const
{
    const uint32_t nHosts = static_cast<uint32_t>(m_topology.hosts.size());
    const uint32_t packetBytes = lastPayload + m_headerBytes + trailerBytes;
    // Dijkstra on (hops, time) from src's switch; time is 2 x delay plus the
    // store-and-forward serialization of each link after the first.
    using Cost = std::pair<uint32_t, int64_t>;
    const Cost infinite{std::numeric_limits<uint32_t>::max(), 0};
    std::vector<Cost> best(m_topology.GetNNodes(), infinite);
    using Entry = std::tuple<uint32_t, int64_t, uint32_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
    const Adjacent& first = m_adjacency[srcHost].front();
    best[first.peer] = Cost{1, 2 * first.delay.GetPicoSeconds()};
    queue.emplace(1, best[first.peer].second, first.peer);
    while (!queue.empty())
    {
        const auto [hops, ps, node] = queue.top();
        queue.pop();
        if (Cost{hops, ps} != best[node] || node == dstHost)
        {
            continue;
        }
        for (const Adjacent& a : m_adjacency[node])
        {
            if (a.peer < nHosts && a.peer != dstHost)
            {
                continue; // hosts do not forward
            }
            const Cost c{hops + 1, ps + 2 * a.delay.GetPicoSeconds() +
                                       a.rate.CalculateBytesTxTime(packetBytes).GetPicoSeconds()};
            if (c < best[a.peer])
            {
                best[a.peer] = c;
                queue.emplace(c.first, c.second, a.peer);
            }
        }
    }
    return PicoSeconds(best[dstHost].second);
}

Time
IdealFctCalculator::GetIdealFct(uint32_t srcHost, uint32_t dstHost, uint64_t bytes, uint32_t mtu,
                                uint32_t trailerBytes) const
{
    const uint64_t packets = std::max<uint64_t>(1, (bytes + mtu - 1) / mtu);
    const auto lastPayload = static_cast<uint32_t>(bytes - (packets - 1) * mtu);
    // DataRate::CalculateBytesTxTime takes 32-bit bytes and counts their bits in 32
    // bits, so it wraps from 512 MiB on; larger flows (message streams) use the
    // 128-bit integer serialization time. Below, ns-3.37's computation written out: before
    // 3.37 it takes Seconds(bits), which overflows at picosecond resolution from ~1.15 MB on.
    const uint64_t wireBytes = GetWireBytes(bytes, mtu, trailerBytes);
    const DataRate rate = GetBottleneckRate(srcHost, dstHost);
    const Time transmit = wireBytes * 8 <= std::numeric_limits<uint32_t>::max()
                              ? Seconds(int64x64_t(wireBytes * 8) / int64x64_t(rate.GetBitRate()))
                              : DcbNetDevice::SerializationTime(wireBytes, rate);
    return transmit + GetBaseRtt(srcHost, dstHost, lastPayload, trailerBytes);
}

} // namespace ns3
