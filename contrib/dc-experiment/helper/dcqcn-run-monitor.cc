#include "dcqcn-run-monitor.h"

#include "ns3/dcb-net-device.h"
#include "ns3/dcb-switch.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace ns3
{

DcqcnRunMonitor::DcqcnRunMonitor(const TopologyBuilder& topology, Time warmup, Time sampleInterval,
                                 Time watermarkWindow)
    : m_topology(topology)
    , m_warmup(warmup)
    , m_sampleInterval(sampleInterval)
    , m_window(watermarkWindow)
{
}

void
DcqcnRunMonitor::Start()
{
    // The runner builds the fabric when it starts running: connect at the warm-up, so
    // that what the NICs place from then on is counted.
    Simulator::Schedule(m_warmup, &DcqcnRunMonitor::AtWarmup, this);
}

void
DcqcnRunMonitor::AtWarmup()
{
    m_placed.assign(m_topology.GetNHosts(), {});
    for (uint32_t h = 0; h < m_topology.GetNHosts(); ++h)
    {
        m_topology.GetNic(h)->TraceConnectWithoutContext(
            "DataPlaced", MakeBoundCallback(&DcqcnRunMonitor::DataPlacedOf, this, h));
    }
    Sample();
}

void
DcqcnRunMonitor::DataPlacedOf(DcqcnRunMonitor* monitor, uint32_t host, uint32_t qpn,
                              uint64_t address, uint32_t bytes)
{
    monitor->DataPlaced(host, qpn, address, bytes);
}

void
DcqcnRunMonitor::DataPlaced(uint32_t host, uint32_t qpn, uint64_t /* address */, uint32_t bytes)
{
    std::vector<uint64_t>& qps = m_placed[host];
    const uint32_t index = qpn - RdmaNic::FIRST_QPN;
    if (qps.size() <= index)
    {
        qps.resize(index + 1, 0); // once per new queue pair, not per packet
    }
    qps[index] += bytes;
}

uint64_t
DcqcnRunMonitor::Placed(uint32_t host, uint32_t qpn) const
{
    const uint32_t index = qpn - RdmaNic::FIRST_QPN;
    return host < m_placed.size() && index < m_placed[host].size() ? m_placed[host][index] : 0;
}

void
DcqcnRunMonitor::Sample()
{
    uint64_t peak = 0;
    for (uint32_t s = 0; s < m_topology.GetNSwitches(); ++s)
    {
        Ptr<DcbSwitch> sw = m_topology.GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            Ptr<DcbNetDevice> port = sw->GetPort(p);
            for (uint8_t c = 0; c < DcbNetDevice::N_CLASSES; ++c)
            {
                peak = std::max(peak, port->GetQueueBytes(c));
            }
        }
    }
    const auto window = static_cast<std::size_t>((Simulator::Now() - m_warmup).GetPicoSeconds() /
                                                 m_window.GetPicoSeconds());
    if (m_windowMax.size() <= window)
    {
        m_windowMax.resize(window + 1, 0);
    }
    m_windowMax[window] = std::max(m_windowMax[window], peak);
    m_sampleSum += static_cast<double>(peak);
    ++m_samples;
    Simulator::Schedule(m_sampleInterval, &DcqcnRunMonitor::Sample, this);
}

void
DcqcnRunMonitor::Finish(Time end)
{
    m_end = end;
    m_goodputs.clear();
    const double secs = (end - m_warmup).GetSeconds();
    for (uint32_t h = 0; h < m_topology.GetNHosts(); ++h)
    {
        Ptr<RdmaNic> nic = m_topology.GetNic(h);
        for (uint32_t i = 0; i < nic->GetNQueuePairs(); ++i)
        {
            // What this QP sends (WRITE and SEND payload, READ responses) is placed by
            // its peer, the remote QP of the connection.
            Ptr<RdmaQueuePair> qp = nic->GetQueuePair(RdmaNic::FIRST_QPN + i);
            if (!qp)
            {
                continue; // released after its flow completed: not backlogged
            }
            // The peer's primary address or one of its virtual-NIC aliases.
            const int64_t peerIndex = m_topology.GetFabric().FindHost(qp->GetRemoteAddress());
            if (peerIndex < 0)
            {
                continue; // not connected, or to a node outside the fabric's hosts
            }
            const auto peerHost = static_cast<uint32_t>(peerIndex);
            const uint32_t peerQpn = qp->GetRemoteQpn();
            const uint64_t placed = Placed(peerHost, peerQpn);
            // Backlogged flows only: a message that completed inside the window has no
            // steady-state rate (a READ's work is outstanding at its requester, the peer).
            Ptr<RdmaQueuePair> peer =
                m_topology.GetNic(peerHost)->GetNQueuePairs() > peerQpn - RdmaNic::FIRST_QPN
                    ? m_topology.GetNic(peerHost)->GetQueuePair(peerQpn)
                    : nullptr;
            const bool backlogged = qp->GetOutstandingWorkRequests() > 0 ||
                                    (peer && peer->GetRemoteQpn() == qp->GetQpn() &&
                                     peer->GetOutstandingWorkRequests() > 0);
            if (placed > 0 && backlogged)
            {
                m_goodputs.push_back(
                    QpGoodput{h, RdmaNic::FIRST_QPN + i, placed * 8.0 / secs / 1e9});
            }
        }
    }
    // A window the run ended in is partial: keep whole windows only (at least one).
    const auto whole =
        static_cast<std::size_t>((end - m_warmup).GetPicoSeconds() / m_window.GetPicoSeconds());
    if (m_windowMax.size() > std::max<std::size_t>(whole, 1))
    {
        m_windowMax.resize(std::max<std::size_t>(whole, 1));
    }
}

const std::vector<DcqcnRunMonitor::QpGoodput>&
DcqcnRunMonitor::GetGoodputs() const
{
    return m_goodputs;
}

double
DcqcnRunMonitor::GetJainIndex() const
{
    double sum = 0;
    double squares = 0;
    for (const auto& g : m_goodputs)
    {
        sum += g.gbps;
        squares += g.gbps * g.gbps;
    }
    return squares > 0 ? sum * sum / (m_goodputs.size() * squares) : 1.0;
}

uint64_t
DcqcnRunMonitor::GetPeakWatermark() const
{
    return m_windowMax.empty() ? 0 : *std::max_element(m_windowMax.begin(), m_windowMax.end());
}

double
DcqcnRunMonitor::GetMeanWatermark() const
{
    double sum = 0;
    for (uint64_t w : m_windowMax)
    {
        sum += static_cast<double>(w);
    }
    return m_windowMax.empty() ? 0.0 : sum / m_windowMax.size();
}

double
DcqcnRunMonitor::GetMeanQueue() const
{
    return m_samples == 0 ? 0.0 : m_sampleSum / static_cast<double>(m_samples);
}

nlohmann::ordered_json
DcqcnRunMonitor::ToJson() const
{
    nlohmann::ordered_json j;
    nlohmann::ordered_json flows = nlohmann::ordered_json::array();
    double lo = m_goodputs.empty() ? 0.0 : m_goodputs.front().gbps;
    double hi = lo;
    double sum = 0;
    for (const auto& g : m_goodputs)
    {
        flows.push_back(g.gbps);
        lo = std::min(lo, g.gbps);
        hi = std::max(hi, g.gbps);
        sum += g.gbps;
    }
    j["from_us"] = m_warmup.GetPicoSeconds() / 1e6;
    j["to_us"] = m_end.GetPicoSeconds() / 1e6;
    j["goodput_gbps"] = flows;
    j["goodput_min_gbps"] = lo;
    j["goodput_max_gbps"] = hi;
    j["goodput_total_gbps"] = sum;
    j["jain"] = GetJainIndex();
    j["watermark_peak_bytes"] = GetPeakWatermark();
    j["watermark_mean_bytes"] = GetMeanWatermark();
    j["watermark_window_us"] = m_window.GetPicoSeconds() / 1e6;
    j["queue_mean_bytes"] = GetMeanQueue();
    return j;
}

bool
DcqcnRunMonitor::WriteGoodputCsv(const std::string& path) const
{
    std::ofstream csv(path);
    if (!csv)
    {
        return false;
    }
    csv << "host,qpn,from_us,to_us,goodput_gbps\n";
    for (const auto& g : m_goodputs)
    {
        char line[128];
        std::snprintf(line, sizeof(line), "%u,%u,%.6f,%.6f,%.6f\n", g.host, g.qpn,
                      m_warmup.GetPicoSeconds() / 1e6, m_end.GetPicoSeconds() / 1e6, g.gbps);
        csv << line;
    }
    return static_cast<bool>(csv);
}

void
DcqcnRunMonitor::Install(ExperimentRunContext& /* context */)
{
    Start();
}

void
DcqcnRunMonitor::Write(ExperimentRunContext& context)
{
    if (context.GetEndTime() <= m_warmup)
    {
        throw std::runtime_error("the run ended at " +
                                 std::to_string(context.GetEndTime().GetMicroSeconds()) +
                                 " us, before the warm-up's end: no steady state to measure");
    }
    Finish(context.GetEndTime());
    const std::string path = context.OutputPath("goodput.csv");
    if (!WriteGoodputCsv(path))
    {
        throw std::runtime_error("cannot write " + path);
    }
    context.GetReadme().AddCsv("goodput.csv",
                               "DCQCN steady state: the payload goodput of every backlogged "
                               "sending QP from the warm-up to the end",
                               "host,qpn,from_us,to_us,goodput_gbps");
}

void
DcqcnRunMonitor::AddToSummary(const ExperimentRunContext& /* context */,
                              nlohmann::ordered_json& summary) const
{
    summary["dcqcn"] = ToJson();
}

} // namespace ns3
