#include "hpcc-output-writer.h"

#include "ns3/callback.h"
#include "ns3/dcb-net-device.h"
#include "ns3/experiment-config-error.h"
#include "ns3/json-attribute-converter.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace ns3
{

HpccOutputWriter::HpccOutputWriter(const ExperimentConfig& config)
    : m_config(config)
{
    const nlohmann::ordered_json& file = config.EffectiveJson()["flows_file"];
    Time origin(0);
    if (file.is_object() &&
        JsonAttributeConverter::ParseTime(file["time_origin"].get<std::string>(), origin))
    {
        m_originPs = origin.GetPicoSeconds();
    }
    const ExperimentTopology& topo = config.GetTopology();
    m_nodeIds.resize(topo.GetNNodes());
    if (topo.hpccHostOfNode.empty())
    {
        for (uint32_t i = 0; i < m_nodeIds.size(); ++i)
        {
            m_nodeIds[i] = i;
        }
        return;
    }
    // The reader numbers hosts, then switches, each in HPCC id order.
    const auto nHosts = static_cast<uint32_t>(topo.hosts.size());
    uint32_t nextSwitch = nHosts;
    for (uint32_t id = 0; id < topo.hpccHostOfNode.size(); ++id)
    {
        const int64_t host = topo.hpccHostOfNode[id];
        m_nodeIds[host >= 0 ? static_cast<uint32_t>(host) : nextSwitch++] = id;
    }
}

uint32_t
HpccOutputWriter::GetNodeId(uint32_t index) const
{
    return m_nodeIds.at(index);
}

uint32_t
HpccOutputWriter::GetHpccAddress(uint32_t nodeId)
{
    return 0x0b000001u + 0x10000u * (nodeId / 256) + 0x100u * (nodeId % 256);
}

void
HpccOutputWriter::PfcReceived(HpccOutputWriter* writer, uint32_t node, uint32_t ifIndex,
                              uint8_t /* cls */, uint16_t quanta)
{
    writer->m_pfc.push_back(PfcRecord{Simulator::Now().GetPicoSeconds(), node, ifIndex,
                                      static_cast<uint8_t>(quanta > 0 ? 1 : 0)});
}

void
HpccOutputWriter::Connect(const TopologyBuilder& topology)
{
    const uint32_t nNodes = topology.GetNHosts() + topology.GetNSwitches();
    for (uint32_t n = 0; n < nNodes; ++n)
    {
        Ptr<Node> node = topology.GetNode(n);
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            Ptr<DcbNetDevice> dev = DynamicCast<DcbNetDevice>(node->GetDevice(d));
            if (dev)
            {
                dev->TraceConnectWithoutContext(
                    "PfcReceived",
                    MakeBoundCallback(&HpccOutputWriter::PfcReceived, this, n, dev->GetIfIndex()));
            }
        }
    }
}

void
HpccOutputWriter::WriteFct(const std::string& path,
                           const std::vector<ExperimentFlowResult>& results) const
{
    const std::vector<ExperimentFlow>& flows = m_config.GetFlows();
    // sport: the HPCC simulator numbers each host's flows from 10000 in flow-file order.
    std::vector<uint32_t> sport(flows.size());
    std::vector<uint32_t> perHost(m_config.GetTopology().hosts.size(), 10000);
    std::vector<uint32_t> finished;
    for (uint32_t id = 0; id < flows.size(); ++id)
    {
        sport[id] = perHost[flows[id].src]++;
        if (results[id].finished)
        {
            finished.push_back(id);
        }
    }
    std::stable_sort(finished.begin(), finished.end(),
                     [&results](uint32_t a, uint32_t b)
                     { return results[a].finish < results[b].finish; });
    std::ofstream out(path, std::ios::binary);
    char line[160];
    for (uint32_t id : finished)
    {
        const ExperimentFlow& f = flows[id];
        const ExperimentFlowResult& r = results[id];
        std::snprintf(line, sizeof(line),
                      "%08" PRIx32 " %08" PRIx32 " %" PRIu32 " %u %" PRIu64 " %" PRId64 " %" PRId64
                      " %" PRId64 "\n",
                      GetHpccAddress(GetNodeId(f.src)), GetHpccAddress(GetNodeId(f.dst)), sport[id],
                      unsigned{f.dport}, f.bytes, (m_originPs + r.start.GetPicoSeconds()) / 1000,
                      (r.finish - r.start).GetPicoSeconds() / 1000,
                      r.idealFct.GetPicoSeconds() / 1000);
        out << line;
    }
    RunReadmeWriter::CloseChecked(out, path);
}

void
HpccOutputWriter::WritePfc(const std::string& path) const
{
    const uint32_t nHosts = static_cast<uint32_t>(m_config.GetTopology().hosts.size());
    std::ofstream out(path, std::ios::binary);
    char line[96];
    // Records were appended in simulated-time order.
    for (const PfcRecord& p : m_pfc)
    {
        std::snprintf(line, sizeof(line), "%" PRId64 " %" PRIu32 " %u %" PRIu32 " %u\n",
                      (m_originPs + p.ps) / 1000, GetNodeId(p.node), p.node < nHosts ? 0u : 1u,
                      p.ifIndex + 1, unsigned{p.type});
        out << line;
    }
    RunReadmeWriter::CloseChecked(out, path);
}

void
HpccOutputWriter::CheckConfig(const ExperimentRunContext& context)
{
    if (context.IsDistributed())
    {
        throw ExperimentConfigError(m_config.GetSource(), "/outputs/hpcc",
                                    "not available in distributed runs (each rank sees only "
                                    "its own ports' PFC frames)");
    }
}

void
HpccOutputWriter::Install(ExperimentRunContext& context)
{
    Connect(context.GetTopology());
}

void
HpccOutputWriter::Write(ExperimentRunContext& context)
{
    RunReadmeWriter& readme = context.GetReadme();
    const std::filesystem::path dir(context.GetOutputDirectory());
    WriteFct((dir / "fct.txt").string(), context.GetResults());
    readme.AddText("fct.txt",
                   "finished flows in the HPCC simulator's fct.txt format (outputs/hpcc), in "
                   "order of completion: IPs in hex as that simulator numbers nodes, times in ns "
                   "on the flow file's clock, standalone_fct = our ideal FCT",
                   FCT_COLUMNS);
    WritePfc((dir / "pfc.txt").string());
    readme.AddText("pfc.txt",
                   "PFC frames received, in the HPCC simulator's pfc.txt format (outputs/hpcc): "
                   "time in ns, node type 0 host / 1 switch, interface index + 1, type 1 XOFF / "
                   "0 XON",
                   PFC_COLUMNS);
}

} // namespace ns3
