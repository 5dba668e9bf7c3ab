#include "port-map-writer.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace ns3
{

std::vector<PortMapWriter::Port>
PortMapWriter::GetPorts(const ExperimentTopology& topology)
{
    std::vector<uint32_t> next(topology.GetNNodes(), 0);
    std::vector<Port> ports;
    ports.reserve(2 * topology.links.size());
    for (uint32_t l = 0; l < topology.links.size(); ++l)
    {
        const ExperimentLink& link = topology.links[l];
        const uint32_t pa = next[link.a]++;
        const uint32_t pb = next[link.b]++;
        ports.push_back(Port{link.a, pa, link.b, pb, l});
        ports.push_back(Port{link.b, pb, link.a, pa, l});
    }
    std::sort(ports.begin(), ports.end(),
              [](const Port& x, const Port& y)
              { return x.node != y.node ? x.node < y.node : x.port < y.port; });
    return ports;
}

void
PortMapWriter::Write(const ExperimentTopology& topology, const std::string& directory,
                     RunReadmeWriter& readme)
{
    const std::string path = (std::filesystem::path(directory) / "ports.csv").string();
    std::ofstream out(path, std::ios::binary);
    out << COLUMNS << '\n';
    char numbers[64];
    for (const Port& p : GetPorts(topology))
    {
        const ExperimentLink& link = topology.links[p.link];
        const int64_t ps = link.delay.GetPicoSeconds();
        std::snprintf(numbers, sizeof(numbers), "%" PRIu64 ",%" PRId64 ".%03" PRId64,
                      link.rate.GetBitRate(), ps / 1000, ps % 1000);
        out << topology.GetNodeName(p.node) << ',' << p.port << ','
            << topology.GetNodeName(p.peerNode) << ',' << p.peerPort << ',' << numbers << '\n';
    }
    RunReadmeWriter::CloseChecked(out, path);
    readme.AddCsv("ports.csv",
                  "each port of the network (node, port numbered from 0 in the order of the "
                  "node's links) and the neighbour (node, port) its link reaches, with the "
                  "link's rate and propagation delay",
                  COLUMNS);
}

void
PortMapWriter::Write(ExperimentRunContext& context)
{
    Write(context.GetConfig().GetTopology(), context.GetOutputDirectory(), context.GetReadme());
}

} // namespace ns3
