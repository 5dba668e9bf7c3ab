#include "host-dma-flow-workload.h"

#include "run-readme-writer.h"

#include "ns3/enum.h"
#include "ns3/experiment-config-error.h"
#include "ns3/host-model.h"
#include "ns3/object-factory.h"
#include "ns3/output-micros.h"
#include "ns3/simulator.h"

#include <cstdio>
#include <fstream>

namespace ns3
{

namespace
{

/** \return \p g with six decimals ("%.6f", as the other CSV files write rates). */
std::string
FormatRate(double g)
{
    char buf[48];
    std::snprintf(buf, sizeof(buf), "%.6f", g);
    return buf;
}

} // namespace

HostDmaFlowWorkload::HostDmaFlowWorkload(const ExperimentConfig& config,
                                         const TopologyBuilder& topology)
    : m_config(config)
    , m_topology(topology)
{
}

bool
HostDmaFlowWorkload::IsDone() const
{
    return true;
}

bool
HostDmaFlowWorkload::IsActive() const
{
    return !m_config.GetHostDmaFlows().empty();
}

void
HostDmaFlowWorkload::CheckConfig(const ExperimentRunContext& context)
{
    if (IsActive() && context.IsDistributed())
    {
        throw ExperimentConfigError(m_config.GetSource(), "/host_dma_flows",
                                    "not available in distributed runs (it needs \"nodes\")");
    }
}

void
HostDmaFlowWorkload::Start(ExperimentRunContext& /* context */)
{
    for (const ExperimentHostDmaFlow& f : m_config.GetHostDmaFlows())
    {
        ObjectFactory factory;
        factory.SetTypeId("ns3::HostDmaFlow");
        for (const ExperimentAttribute& a : f.flow.attributes)
        {
            factory.Set(a.name, *a.value);
        }
        Ptr<HostDmaFlow> flow = factory.Create<HostDmaFlow>();
        Ptr<HostModel> host = m_topology.GetHost(f.host)->GetObject<HostModel>();
        const std::string error =
            host ? flow->Setup(host, f.rnic, f.target) : std::string("the host has no host model");
        if (!error.empty())
        {
            throw ExperimentConfigError(m_config.GetSource(), f.pointer,
                                        "host " + m_config.GetTopology().hosts[f.host] + ": " +
                                            error);
        }
        // A stream starting at 0 starts now, at set-up, like a host's own traffic that
        // runs before the network's flows are posted.
        if (f.start.IsZero())
        {
            flow->Start();
        }
        else
        {
            Simulator::Schedule(f.start, &HostDmaFlow::Start, flow);
        }
        if (!f.stop.IsZero())
        {
            Simulator::Schedule(f.stop, &HostDmaFlow::Stop, flow);
        }
        m_flows.push_back(flow);
    }
}

Time
HostDmaFlowWorkload::EndOf(uint32_t i, Time end) const
{
    const Time stop = m_config.GetHostDmaFlows()[i].stop;
    return !stop.IsZero() && stop < end ? stop : end;
}

double
HostDmaFlowWorkload::RateOf(uint32_t i, Time end) const
{
    const Time ran = EndOf(i, end) - m_config.GetHostDmaFlows()[i].start;
    return ran.IsStrictlyPositive() ? m_flows[i]->GetBytesMoved() * 8.0 / ran.GetSeconds() / 1e9
                                    : 0.0;
}

void
HostDmaFlowWorkload::AddToSummary(const ExperimentRunContext& context,
                                  nlohmann::ordered_json& summary) const
{
    if (!IsActive())
    {
        return;
    }
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (uint32_t i = 0; i < m_flows.size(); ++i)
    {
        const ExperimentHostDmaFlow& f = m_config.GetHostDmaFlows()[i];
        list.push_back(
            {{"host", m_config.GetTopology().hosts[f.host]},
             {"rnic", f.rnic},
             {"target", f.target},
             {"bytes", m_flows[i]->GetBytesMoved()},
             {"gbps", nlohmann::ordered_json::parse(FormatRate(RateOf(i, context.GetEndTime())))}});
    }
    summary["host_dma_flows"] = list;
}

void
HostDmaFlowWorkload::Write(ExperimentRunContext& context)
{
    if (!IsActive())
    {
        return;
    }
    const std::string path = context.OutputPath("host_dma_flows.csv");
    std::ofstream out(path, std::ios::binary);
    out << COLUMNS << '\n';
    const Time end = Simulator::Now();
    for (uint32_t i = 0; i < m_flows.size(); ++i)
    {
        const ExperimentHostDmaFlow& f = m_config.GetHostDmaFlows()[i];
        EnumValue kind;
        m_flows[i]->GetAttribute("Kind", kind);
        const char* kindName = kind.Get() == HostModel::DMA_READ    ? "Read"
                               : kind.Get() == HostModel::DMA_WRITE ? "Write"
                                                                    : "Loopback";
        out << i << ',' << m_config.GetTopology().hosts[f.host] << ',' << f.rnic << ',' << f.target
            << ',' << kindName << ',' << FormatMicros(f.start) << ',' << FormatMicros(EndOf(i, end))
            << ',' << m_flows[i]->GetBytesMoved() << ',' << FormatRate(RateOf(i, end)) << '\n';
    }
    RunReadmeWriter::CloseChecked(out, path);
    context.GetReadme().AddCsv(
        "host_dma_flows.csv",
        "the \"host_dma_flows\": one row per DMA stream inside a host's model (HostDmaFlow), "
        "its RnicPort, target device and kind (Loopback: RDMA between two VMs of the host), "
        "when it ran, the bytes it moved and its mean rate over that time (Gb/s)",
        COLUMNS);
}

} // namespace ns3
