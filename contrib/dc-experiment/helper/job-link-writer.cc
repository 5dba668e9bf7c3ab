#include "job-link-writer.h"

#include "run-readme-writer.h"
#include "topology-builder.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace ns3
{

void
JobLinkWriter::Setup(const ExperimentTopology& topology, const TopologyBuilder& builder,
                     const FaultPlan& faults)
{
    m_topology = &topology;
    m_rates = LinkRateTimeline(topology, faults);
    m_ports = PortMapWriter::GetPorts(topology);
    m_devices.clear();
    m_devices.reserve(m_ports.size());
    for (const PortMapWriter::Port& p : m_ports)
    {
        Ptr<DcbNetDevice> dev =
            DynamicCast<DcbNetDevice>(builder.GetNode(p.node)->GetDevice(p.port));
        if (!dev)
        {
            throw std::runtime_error("job_links.csv: port " + std::to_string(p.port) + " of " +
                                     topology.GetNodeName(p.node) + " is not a DcbNetDevice");
        }
        m_devices.push_back(dev);
    }
}

JobLinkWriter::Snapshot
JobLinkWriter::Take() const
{
    Snapshot s;
    s.at = Simulator::Now();
    s.frames.assign(m_devices.size(), 0);
    s.bytes.assign(m_devices.size(), 0);
    for (std::size_t i = 0; i < m_devices.size(); ++i)
    {
        for (uint8_t c = 0; c < DcbNetDevice::N_CLASSES; ++c)
        {
            const DcbClassCounters& k = m_devices[i]->GetCounters(c);
            s.frames[i] += k.txPackets;
            s.bytes[i] += k.txBytes;
        }
    }
    return s;
}

void
JobLinkWriter::AddIteration(uint32_t job, uint32_t iteration, const Snapshot& start, Time time)
{
    const Snapshot end = Take();
    for (uint32_t i = 0; i < m_devices.size(); ++i)
    {
        const uint64_t bytes = end.bytes[i] - start.bytes[i];
        if (bytes > 0)
        {
            m_rows.push_back(Row{job, iteration, i, end.frames[i] - start.frames[i], bytes,
                                 m_rates.Capacity(m_ports[i].link, start.at, start.at + time)});
        }
    }
}

void
JobLinkWriter::Write(const std::string& path, const std::vector<std::string>& names) const
{
    std::vector<Row> rows = m_rows;
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b)
                     { return a.job != b.job ? a.job < b.job : a.iteration < b.iteration; });
    std::ofstream out(path, std::ios::binary);
    out << COLUMNS << '\n';
    for (const Row& r : rows)
    {
        const PortMapWriter::Port& p = m_ports[r.port];
        char utilisation[32];
        std::snprintf(utilisation, sizeof(utilisation), "%.6f",
                      r.capacity > 0 ? static_cast<double>(r.bytes) * 8 / r.capacity : 0.0);
        out << names[r.job] << ',' << r.iteration << ',' << m_topology->GetNodeName(p.node) << ','
            << p.port << ',' << m_topology->GetNodeName(p.peerNode) << ',' << p.peerPort << ','
            << r.frames << ',' << r.bytes << ',' << utilisation << '\n';
    }
    RunReadmeWriter::CloseChecked(out, path);
}

} // namespace ns3
