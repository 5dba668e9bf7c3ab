#include "maestro-path-sampler.h"

#include "ns3/channel.h"
#include "ns3/dcb-net-device.h"
#include "ns3/dcb-switch.h"
#include "ns3/node-list.h"
#include "ns3/output-micros.h"
#include "ns3/simulator.h"

#include <cstdio>
#include <fstream>

namespace ns3
{

MaestroPathSampler::MaestroPathSampler(const TopologyBuilder& topology,
                                       const ExperimentTopology& names)
    : m_topology(topology)
    , m_names(names)
{
}

MaestroPathSampler::~MaestroPathSampler()
{
    for (Source& s : m_sources)
    {
        s.event.Cancel();
    }
}

void
MaestroPathSampler::Add(const std::string& name, uint32_t hop, Ptr<MaestroEndpoint> endpoint,
                        Time start, Time interval, std::function<bool()> running)
{
    const uint32_t index = static_cast<uint32_t>(m_sources.size());
    m_sources.push_back(Source{name, hop, endpoint, interval, std::move(running), {}, EventId()});
    m_sources.back().event =
        Simulator::Schedule(start + interval, &MaestroPathSampler::Sample, this, index);
}

bool
MaestroPathSampler::IsActive() const
{
    return !m_sources.empty();
}

void
MaestroPathSampler::Sample(uint32_t index)
{
    Source& s = m_sources[index];
    Ptr<MaestroPathMonitor> monitor = s.endpoint->GetPathMonitor();
    const uint32_t n = monitor->GetNPaths();
    s.last.resize(n, 0);
    for (uint32_t vp = 0; vp < n; ++vp)
    {
        const uint64_t bytes = monitor->Get(vp).bytesCompleted;
        m_rows.push_back(Row{index, Simulator::Now(), vp, bytes - s.last[vp]});
        s.last[vp] = bytes;
    }
    if (s.running())
    {
        s.event = Simulator::Schedule(s.interval, &MaestroPathSampler::Sample, this, index);
    }
}

std::string
MaestroPathSampler::Via(Ptr<MaestroEndpoint> endpoint, uint32_t vp) const
{
    Ptr<MaestroQpManager> qpm = endpoint->GetQpManager();
    if (vp >= qpm->GetNPaths() || qpm->GetPath(vp).links.empty())
    {
        return "";
    }
    const uint64_t link = qpm->GetPath(vp).links[0];
    Ptr<Node> node = NodeList::GetNode(static_cast<uint32_t>(link >> 32));
    Ptr<DcbNetDevice> port =
        node->GetObject<DcbSwitch>()->GetPort(static_cast<uint32_t>(link & 0xffffffff));
    Ptr<Channel> channel = port->GetChannel();
    for (std::size_t d = 0; channel && d < channel->GetNDevices(); ++d)
    {
        Ptr<NetDevice> peer = channel->GetDevice(d);
        if (peer == port)
        {
            continue;
        }
        for (uint32_t i = 0; i < m_names.GetNNodes(); ++i)
        {
            if (m_topology.GetNode(i) == peer->GetNode())
            {
                return m_names.GetNodeName(i);
            }
        }
    }
    return "";
}

void
MaestroPathSampler::Write(ExperimentRunContext& context) const
{
    if (!IsActive())
    {
        return;
    }
    const std::string path = context.OutputPath("paths.csv");
    std::ofstream out(path, std::ios::binary);
    out << COLUMNS << '\n';
    std::vector<std::vector<std::string>> via(m_sources.size());
    for (uint32_t i = 0; i < m_sources.size(); ++i)
    {
        for (uint32_t vp = 0; vp < m_sources[i].endpoint->GetPathMonitor()->GetNPaths(); ++vp)
        {
            via[i].push_back(Via(m_sources[i].endpoint, vp));
        }
    }
    for (const Row& r : m_rows)
    {
        const Source& s = m_sources[r.source];
        char gbps[32];
        std::snprintf(gbps, sizeof(gbps), "%.6f",
                      static_cast<double>(r.bytes) * 8 / s.interval.GetSeconds() / 1e9);
        out << s.name << ',' << s.hop << ',' << FormatMicros(r.time) << ',' << r.path << ','
            << (r.path < via[r.source].size() ? via[r.source][r.path] : "") << ',' << r.bytes << ','
            << gbps << '\n';
    }
    RunReadmeWriter::CloseChecked(out, path);
    context.GetReadme().AddCsv(
        "paths.csv",
        "per-path throughput of the Maestro endpoints of collectives with \"path_interval\": one "
        "row per virtual path per interval (hop: the ring hop, 0 for a message_stream; via: the "
        "node the path's first switch forwards it to, the spine of a leaf-spine; bytes: the "
        "bytes of chunks completed on that path in the interval ending at time_us; gbps: their "
        "rate)",
        COLUMNS);
}

} // namespace ns3
