#include "hostping-run-monitor.h"

#include "ns3/dcb-net-device.h"
#include "ns3/experiment-config-error.h"
#include "ns3/gpu-device.h"
#include "ns3/object-factory.h"
#include "ns3/output-micros.h"
#include "ns3/rdma-rx-pipeline.h"
#include "ns3/simulator.h"

#include <array>
#include <cinttypes>
#include <cstdio>
#include <fstream>

namespace ns3
{

HostpingRunMonitor::HostpingRunMonitor(const ExperimentConfig& config)
    : m_config(config)
{
}

HostpingRunMonitor::~HostpingRunMonitor()
{
    for (Watched& w : m_watched)
    {
        w.monitor->Dispose(); // cancels its pending checks
    }
}

HostpingRnicSample
HostpingRunMonitor::SampleNic(Ptr<RdmaNic> nic)
{
    HostpingRnicSample s;
    Ptr<DcbNetDevice> dev = nic->GetDevice();
    for (uint8_t c = 0; c < DcbNetDevice::N_CLASSES; ++c)
    {
        const DcbClassCounters& k = dev->GetCounters(c);
        s.bytes += k.txBytes + k.rxBytes;
    }
    Ptr<RdmaRxPipeline> rx = nic->GetRxPipeline();
    s.txPaused = rx->GetPausedTime();
    s.drops = rx->GetCounters().droppedLossy + rx->GetCounters().droppedHeadroom;
    s.lineRate = nic->GetLineRate();
    return s;
}

const char*
HostpingRunMonitor::ReasonName(HostpingMonitor::Reason reason)
{
    switch (reason)
    {
        case HostpingMonitor::IDLE:
            return "idle";
        case HostpingMonitor::PAUSE_RATIO:
            return "pause_ratio";
        case HostpingMonitor::DROPS:
            return "drops";
    }
    return "unknown";
}

void
HostpingRunMonitor::CheckConfig(const ExperimentRunContext& context)
{
    if (context.IsDistributed())
    {
        throw ExperimentConfigError(m_config.GetSource(), "/monitors/hostping",
                                    "not available in distributed runs (hostping.csv is written "
                                    "from every watched host's counters on one rank)");
    }
}

void
HostpingRunMonitor::Install(ExperimentRunContext& context)
{
    const ExperimentHostping& section = m_config.GetMonitors().hostping;
    const TopologyBuilder& topology = context.GetTopology();
    ObjectFactory factory("ns3::HostpingMonitor");
    for (const ExperimentAttribute& a : section.monitor.attributes)
    {
        factory.Set(a.name, *a.value);
    }
    m_watched.reserve(section.hosts.size());
    for (uint32_t host : section.hosts)
    {
        Watched w;
        w.host = host;
        w.monitor = factory.Create<HostpingMonitor>();
        w.monitor->AddRnic(
            MakeBoundCallback(&HostpingRunMonitor::SampleNic, topology.GetNic(host)));
        w.model = topology.GetHost(host)->GetObject<HostModel>();
        if (w.model)
        {
            w.gpus = w.model->GetDevices(GpuDevice::GetTypeId());
            w.isGpu.assign(w.model->GetResourceCount(), 0);
            for (uint32_t g : w.gpus)
            {
                w.isGpu[g] = 1;
            }
        }
        m_watched.push_back(w);
    }
    for (uint32_t i = 0; i < m_watched.size(); ++i)
    {
        Watched& w = m_watched[i];
        if (!w.gpus.empty())
        {
            w.model->TraceConnectWithoutContext(
                "DmaComplete", MakeBoundCallback(&HostpingRunMonitor::GpuDmaOf, this, i));
            w.monitor->SetGpuIdleCallback(
                MakeBoundCallback(&HostpingRunMonitor::GpusIdleOf, this, i));
        }
        w.monitor->SetTriggerCallback(MakeBoundCallback(&HostpingRunMonitor::TriggeredOf, this, i));
        w.monitor->Start();
    }
}

void
HostpingRunMonitor::GpuDmaOf(HostpingRunMonitor* self, uint32_t watched, uint32_t initiator,
                             uint32_t target, uint64_t /* bytes */, Time /* latency */)
{
    Watched& w = self->m_watched[watched];
    if ((initiator < w.isGpu.size() && w.isGpu[initiator]) ||
        (target < w.isGpu.size() && w.isGpu[target]))
    {
        ++w.gpuDmasSinceCheck;
    }
}

bool
HostpingRunMonitor::GpusIdleOf(HostpingRunMonitor* self, uint32_t watched)
{
    Watched& w = self->m_watched[watched];
    bool idle = w.gpuDmasSinceCheck == 0;
    for (uint32_t g : w.gpus)
    {
        idle = idle && w.model->GetActiveDmaCount(g) == 0;
    }
    w.gpuDmasSinceCheck = 0;
    return idle;
}

void
HostpingRunMonitor::TriggeredOf(HostpingRunMonitor* self, uint32_t watched, uint8_t reason,
                                uint32_t rnic)
{
    const Watched& w = self->m_watched[watched];
    self->m_triggers.push_back(Trigger{Simulator::Now(), w.host,
                                       static_cast<HostpingMonitor::Reason>(reason), rnic,
                                       w.monitor->GetMetrics(rnic)});
}

const std::vector<HostpingRunMonitor::Trigger>&
HostpingRunMonitor::GetTriggers() const
{
    return m_triggers;
}

void
HostpingRunMonitor::Write(ExperimentRunContext& context)
{
    const std::string path = context.OutputPath("hostping.csv");
    std::ofstream out(path, std::ios::binary);
    out << COLUMNS << '\n';
    char values[96];
    for (const Trigger& t : m_triggers)
    {
        std::snprintf(values, sizeof(values), "%.6f,%.6f,%" PRIu64, t.metrics.throughput,
                      t.metrics.pauseRatio, t.metrics.drops);
        out << FormatMicros(t.time) << ',' << m_config.GetTopology().hosts[t.host] << ','
            << ReasonName(t.reason) << ',' << t.rnic << ',' << values << '\n';
    }
    RunReadmeWriter::CloseChecked(out, path);
    context.GetReadme().AddCsv(
        "hostping.csv",
        "Hostping's hardware monitor (monitors/hostping) on the watched hosts: one row per "
        "trigger, in time order, with why (idle: at a StatusPeriod check every RNIC moved less "
        "than IdleThroughput of its line rate and the GPUs were idle; pause_ratio: the RNIC "
        "held its peer paused more than PauseRatio of a MetricsPeriod; drops: it dropped "
        "packets in one) and the RNIC's throughput (share of its line rate), Tx pause ratio "
        "and drops over the period of that check",
        COLUMNS);
}

void
HostpingRunMonitor::AddToSummary(const ExperimentRunContext& /* context */,
                                 nlohmann::ordered_json& summary) const
{
    std::array<uint64_t, 3> counts{0, 0, 0};
    for (const Trigger& t : m_triggers)
    {
        ++counts[t.reason];
    }
    nlohmann::ordered_json hosts = nlohmann::ordered_json::array();
    for (const Watched& w : m_watched)
    {
        hosts.push_back(m_config.GetTopology().hosts[w.host]);
    }
    nlohmann::ordered_json j;
    j["hosts"] = hosts;
    j["triggers"] = m_triggers.size();
    for (auto reason :
         {HostpingMonitor::IDLE, HostpingMonitor::PAUSE_RATIO, HostpingMonitor::DROPS})
    {
        j[ReasonName(reason)] = counts[reason];
    }
    summary["hostping"] = j;
}

} // namespace ns3
