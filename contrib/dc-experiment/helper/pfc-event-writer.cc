#include "pfc-event-writer.h"

#include "ns3/dcb-net-device.h"
#include "ns3/experiment-config-error.h"
#include "ns3/simulator.h"

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace ns3
{

PfcEventWriter::PfcEventWriter(const ExperimentTopology& topology)
    : m_topology(topology)
{
}

void
PfcEventWriter::Connect(const TopologyBuilder& builder)
{
    const uint32_t nNodes = builder.GetNHosts() + builder.GetNSwitches();
    for (uint32_t n = 0; n < nNodes; ++n)
    {
        Ptr<Node> node = builder.GetNode(n);
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            Ptr<DcbNetDevice> dev = DynamicCast<DcbNetDevice>(node->GetDevice(d));
            if (dev)
            {
                dev->TraceConnectWithoutContext(
                    "PfcSent",
                    MakeBoundCallback(&PfcEventWriter::PfcSent, this, n, dev->GetIfIndex()));
            }
        }
    }
}

void
PfcEventWriter::PfcSent(PfcEventWriter* writer, uint32_t node, uint32_t port, uint8_t cls,
                        uint16_t quanta)
{
    writer->m_events.push_back(
        Event{Simulator::Now().GetPicoSeconds(), node, static_cast<uint16_t>(port), cls, quanta});
}

std::size_t
PfcEventWriter::GetNEvents() const
{
    return m_events.size();
}

void
PfcEventWriter::CheckConfig(const ExperimentRunContext& context)
{
    if (context.IsDistributed())
    {
        throw ExperimentConfigError(context.GetConfig().GetSource(), "/outputs/pfc_events",
                                    "not available in distributed runs (each rank sees only "
                                    "its own ports)");
    }
}

void
PfcEventWriter::Install(ExperimentRunContext& context)
{
    Connect(context.GetTopology());
}

void
PfcEventWriter::Write(ExperimentRunContext& context)
{
    RunReadmeWriter& readme = context.GetReadme();
    const std::string path = context.OutputPath("pfc_events.csv");
    std::ofstream out(path, std::ios::binary);
    out << COLUMNS << '\n';
    char line[64];
    // Records were appended in simulated-time order.
    for (const Event& e : m_events)
    {
        out << e.ps / 1000 << '.';
        std::snprintf(line, sizeof(line), "%03" PRId64 ",", e.ps % 1000);
        out << line << m_topology.GetNodeName(e.node) << ',' << e.port << ',' << unsigned{e.cls}
            << ',' << (e.quanta > 0 ? "XOFF," : "XON,") << e.quanta << '\n';
    }
    RunReadmeWriter::CloseChecked(out, path);
    readme.AddCsv("pfc_events.csv",
                  "PFC frames sent (outputs/pfc_events), in time order: the port that sent "
                  "each (its neighbour in ports.csv is the transmitter paused or resumed), the "
                  "class, XOFF (quanta > 0) or XON (quanta 0)",
                  COLUMNS);
}

} // namespace ns3
