#include "experiment-output-writer.h"

#include "flow-queue-pairs.h"

#include "ns3/channel.h"
#include "ns3/dcb-net-device.h"
#include "ns3/flow-trace.h"
#include "ns3/non-default-attributes.h"
#include "ns3/output-micros.h"
#include "ns3/sample-statistics.h"

#include <cmath>
#include <cstdio>
#include <fstream>

namespace ns3
{

namespace
{

/** Stalled flows listed by id in summary.json (the count is always complete). */
constexpr uint32_t MAX_LISTED_STALLS = 100;

/** "a, b, c": the top-level keys of a JSON object, for a README entry. */
std::string
Keys(const nlohmann::ordered_json& object)
{
    std::string keys;
    for (const auto& item : object.items())
    {
        keys += (keys.empty() ? "" : ", ") + item.key();
    }
    return keys;
}

/** Write \p json to \p path (named \p name in the run directory) and list it in the README. */
void
WriteJsonFile(const std::string& path, const std::string& name, const nlohmann::ordered_json& json,
              RunReadmeWriter& readme, const std::string& what)
{
    std::ofstream out(path, std::ios::binary);
    out << json.dump(2) << '\n';
    RunReadmeWriter::CloseChecked(out, path);
    readme.AddJson(name, what, Keys(json));
}

std::string
Fixed6(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.6f", v);
    return buf;
}

/** Round to 1e-6 so summary.json carries no spurious digits. */
double
Round6(double v)
{
    return std::round(v * 1e6) / 1e6;
}

std::string
VerbName(RdmaVerb verb)
{
    switch (verb)
    {
        case RdmaVerb::Write:
            return "write";
        case RdmaVerb::Send:
            return "send";
        case RdmaVerb::Read:
            return "read";
    }
    return "unknown";
}

} // namespace

ExperimentOutputWriter::ExperimentOutputWriter(const ExperimentRunContext& context,
                                               const ExperimentResultMerge& totals)
    : m_context(context)
    , m_totals(totals)
{
}

void
ExperimentOutputWriter::WriteConfig() const
{
    const ExperimentConfig& config = m_context.GetConfig();
    const TopologyBuilder& topology = m_context.GetTopology();
    RunReadmeWriter& readme = m_context.GetReadme();
    // Every object the run created or configured: nodes (their devices, NICs and
    // switches are reached from them), links, buffer managers, ECN markers, NIC
    // schedulers and caches, and each flow's QPs with their CC and loss recovery.
    NonDefaultAttributes attributes;
    for (uint32_t n = 0; n < config.GetTopology().GetNNodes(); ++n)
    {
        Ptr<Node> node = topology.GetNode(n);
        attributes.Add(node);
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            attributes.Add(node->GetDevice(d)->GetChannel());
        }
    }
    for (uint32_t s = 0; s < topology.GetNSwitches(); ++s)
    {
        Ptr<DcbSwitch> sw = topology.GetSwitch(s);
        attributes.Add(sw->GetBufferManager());
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            attributes.Add(sw->GetEcnMarker(p));
        }
    }
    for (uint32_t h = 0; h < topology.GetNHosts(); ++h)
    {
        attributes.Add(topology.GetNic(h)->GetQpScheduler());
        attributes.Add(topology.GetNic(h)->GetCacheModel());
    }
    m_context.GetFlowQueuePairs().AddAttributes(attributes);
    nlohmann::ordered_json json = config.EffectiveJson();
    json["non_default_attributes"] = attributes.ToJson();

    WriteJsonFile(m_context.OutputPath("config.json"), "config.json", json, readme,
                  "the effective configuration: the experiment with every default filled in "
                  "(loading it again gives the same experiment), and under "
                  "\"non_default_attributes\" every ns-3 attribute of the run's objects that "
                  "differs from its TypeId default, by type");
}

void
ExperimentOutputWriter::WriteFlows() const
{
    const ExperimentConfig& config = m_context.GetConfig();
    RunReadmeWriter& readme = m_context.GetReadme();
    const std::vector<ExperimentFlowResult>& results = m_context.GetResults();
    const std::string path = m_context.OutputPath("flows.csv");
    std::ofstream out(path, std::ios::binary);
    // Packets of a flow overtake each other only where switches balance per packet.
    const bool reorder = config.HasLoadBalancing();
    const std::string columns = std::string(COLUMNS) + (reorder ? REORDER_COLUMNS : "");
    out << columns << '\n';
    const auto& hosts = config.GetTopology().hosts;
    for (const ExperimentFlow& f : config.GetFlows())
    {
        const ExperimentFlowResult& r = results[f.id];
        out << f.id << ',' << hosts[f.src] << ',' << hosts[f.dst] << ',' << f.bytes << ','
            << FormatMicros(r.start) << ',';
        if (r.finished)
        {
            const Time fct = r.finish - r.start;
            out << FormatMicros(r.finish) << ',' << FormatMicros(fct) << ','
                << FormatMicros(r.idealFct) << ','
                << Fixed6(static_cast<double>(fct.GetPicoSeconds()) /
                          static_cast<double>(r.idealFct.GetPicoSeconds()));
        }
        else
        {
            out << ",," << FormatMicros(r.idealFct) << ',';
        }
        out << ',' << r.retransmittedPackets << ',' << VerbName(f.verb) << ','
            << unsigned{f.priority} << ',' << r.deliveredBytes;
        if (reorder)
        {
            out << ',' << r.reorderedPackets << ',' << r.maxReorderDistance;
        }
        out << '\n';
    }
    RunReadmeWriter::CloseChecked(out, path);
    readme.AddCsv("flows.csv",
                  "one row per flow; finish_us, fct_us and slowdown (fct / ideal fct) are empty "
                  "for flows that did not finish; src/dst are host names; delivered_bytes: "
                  "distinct payload bytes placed at the receiver" +
                      std::string(reorder ? "; reordered_packets: request packets that arrived "
                                            "after one of higher PSN (a retransmission counts "
                                            "too), max_reorder_distance: the largest PSN gap "
                                            "behind the highest received, in packets"
                                          : ""),
                  columns);
}

void
ExperimentOutputWriter::WriteTrace() const
{
    const ExperimentConfig& config = m_context.GetConfig();
    RunReadmeWriter& readme = m_context.GetReadme();
    const std::string path = m_context.OutputPath("trace.csv");
    std::ofstream out(path, std::ios::binary);
    FlowTrace::WriteCsv(out, config.GetFlows());
    RunReadmeWriter::CloseChecked(out, path);
    readme.AddCsv("trace.csv",
                  "the run's flows in the trace format, to replay them (\"flows_file\")",
                  FlowTrace::CsvHeaderFor(config.GetFlows()));
}

void
ExperimentOutputWriter::WritePfc() const
{
    const ExperimentConfig& config = m_context.GetConfig();
    const TopologyBuilder& topology = m_context.GetTopology();
    RunReadmeWriter& readme = m_context.GetReadme();
    const std::vector<int64_t>& pfcCounters = m_totals.GetPfcCounters();
    const std::string path = m_context.OutputPath("pfc.csv");
    std::ofstream out(path, std::ios::binary);
    out << PFC_COLUMNS << '\n';
    const ExperimentTopology& topo = config.GetTopology();
    // pfcCounters: CollectPfcCounters' order, merged over the ranks.
    std::size_t i = 0;
    for (uint32_t n = 0; n < topo.GetNNodes(); ++n)
    {
        Ptr<Node> node = topology.GetNode(n);
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            Ptr<DcbNetDevice> dev = DynamicCast<DcbNetDevice>(node->GetDevice(d));
            if (!dev)
            {
                continue;
            }
            for (uint8_t c = 0; c < DcbNetDevice::N_CLASSES; ++c, i += 4)
            {
                const int64_t* k = &pfcCounters[i];
                if (k[0] || k[1] || k[2] || k[3] > 0)
                {
                    out << topo.GetNodeName(n) << ',' << dev->GetIfIndex() << ',' << unsigned{c}
                        << ',' << k[0] << ',' << k[1] << ',' << k[2] << ','
                        << FormatMicros(PicoSeconds(k[3])) << '\n';
                }
            }
        }
    }
    RunReadmeWriter::CloseChecked(out, path);
    readme.AddCsv("pfc.csv",
                  "PFC counters of every host and switch port (interface index) and class with "
                  "PFC activity",
                  PFC_COLUMNS);
}

void
ExperimentOutputWriter::WriteSummary(const std::vector<ExperimentMonitor*>& monitors,
                                     const std::vector<ExperimentWorkload*>& workloads) const
{
    const ExperimentConfig& config = m_context.GetConfig();
    RunReadmeWriter& readme = m_context.GetReadme();
    const std::vector<ExperimentFlowResult>& results = m_context.GetResults();
    const std::vector<int64_t>& pfcCounters = m_totals.GetPfcCounters();
    const std::vector<int64_t>& drops = m_totals.GetDrops();
    using OrderedJson = nlohmann::ordered_json;
    SampleStatistics fct;
    SampleStatistics slowdown;
    // Size buckets (upper bounds in bytes, inclusive; KB = 1000 B), as in the
    // SRNIC/HPCC flow-size breakdowns.
    static const uint64_t bucketMax[] = {10000, 100000, 1000000, UINT64_MAX};
    static const char* bucketNames[] = {"0-10KB", "10KB-100KB", "100KB-1MB", "1MB+"};
    constexpr std::size_t N_BUCKETS = 4;
    SampleStatistics bucketFct[N_BUCKETS];
    SampleStatistics bucketSlowdown[N_BUCKETS];
    uint64_t bucketFlows[N_BUCKETS] = {};
    uint64_t retransmitted = 0;
    const auto& flows = config.GetFlows();
    for (std::size_t i = 0; i < results.size(); ++i)
    {
        const ExperimentFlowResult& r = results[i];
        std::size_t b = 0;
        while (flows[i].bytes > bucketMax[b])
        {
            ++b;
        }
        ++bucketFlows[b];
        retransmitted += r.retransmittedPackets;
        if (r.finished)
        {
            const Time f = r.finish - r.start;
            const double us = static_cast<double>(f.GetPicoSeconds()) / 1e6;
            const double sd = static_cast<double>(f.GetPicoSeconds()) /
                              static_cast<double>(r.idealFct.GetPicoSeconds());
            fct.Add(us);
            slowdown.Add(sd);
            bucketFct[b].Add(us);
            bucketSlowdown[b].Add(sd);
        }
    }
    // No finished flow (an empty size bucket, or a run where none finished): every
    // statistic is null, not 0, so that a table or plot cannot read it as a zero FCT.
    auto describe = [](SampleStatistics& s)
    {
        if (s.GetCount() == 0)
        {
            return OrderedJson{{"mean", nullptr}, {"p50", nullptr},   {"p95", nullptr},
                               {"p99", nullptr},  {"p99.9", nullptr}, {"max", nullptr}};
        }
        return OrderedJson{{"mean", Round6(s.GetMean())},
                           {"p50", Round6(s.GetPercentile(50))},
                           {"p95", Round6(s.GetPercentile(95))},
                           {"p99", Round6(s.GetPercentile(99))},
                           {"p99.9", Round6(s.GetPercentile(99.9))},
                           {"max", Round6(s.GetMax())}};
    };

    uint64_t xoffSent = 0;
    uint64_t xonSent = 0;
    Time paused(0);
    for (std::size_t i = 0; i < pfcCounters.size(); i += 4)
    {
        xoffSent += static_cast<uint64_t>(pfcCounters[i]);
        xonSent += static_cast<uint64_t>(pfcCounters[i + 1]);
        paused += PicoSeconds(pfcCounters[i + 3]);
    }

    OrderedJson bufferDrops;
    OrderedJson switchDrops;
    // Names of DcbSwitch::DropReason in enum order; a reason added to the enum
    // later than this list is written as "reason-<n>" rather than left unnamed.
    static const char* switchDropNames[] = {"no-route", "ttl-expired", "not-ipv4", "buffer",
                                            "pfc-watchdog"};
    const uint32_t namedSwitchDrops = sizeof(switchDropNames) / sizeof(switchDropNames[0]);
    // drops: CollectDrops' order, merged over the ranks.
    for (uint32_t r = 0; r < BufferManager::N_DROP_REASONS; ++r)
    {
        const auto total = static_cast<uint64_t>(drops[r]);
        bufferDrops[BufferManager::DropReasonName(static_cast<BufferManager::DropReason>(r))] =
            total;
    }
    for (uint32_t r = 0; r < DcbSwitch::N_DROP_REASONS; ++r)
    {
        const auto total = static_cast<uint64_t>(drops[BufferManager::N_DROP_REASONS + r]);
        switchDrops[r < namedSwitchDrops ? std::string(switchDropNames[r])
                                         : "reason-" + std::to_string(r)] = total;
    }

    uint32_t completed = 0;
    uint32_t finished = 0;
    OrderedJson stalledFlows = OrderedJson::array();
    uint32_t stalled = 0;
    for (uint32_t id = 0; id < results.size(); ++id)
    {
        const ExperimentFlowResult& r = results[id];
        completed += r.completed ? 1 : 0;
        finished += r.finished ? 1 : 0;
        if (r.stalled && ++stalled <= MAX_LISTED_STALLS)
        {
            stalledFlows.push_back(id);
        }
    }
    const auto failed = static_cast<uint32_t>(completed - finished);
    OrderedJson j;
    j["flows"] = results.size();
    j["finished"] = finished;
    j["failed"] = failed;
    j["unfinished"] = results.size() - finished;
    {
        // Flows of the trace that start at or after the stop time ("late_flows":
        // "not_started"): not part of the run, counted here.
        const std::vector<ExperimentFlow>& late = m_context.GetConfig().GetNotStartedFlows();
        OrderedJson notStarted = {{"flows", late.size()}};
        if (!late.empty())
        {
            notStarted["first"] = late.front().origin;
            notStarted["last"] = late.back().origin;
            notStarted["first_start_us"] =
                Round6(static_cast<double>(late.front().start.GetPicoSeconds()) / 1e6);
        }
        j["not_started"] = notStarted;
    }
    // Unfinished flows whose requester can never progress by itself (work outstanding,
    // no timer pending): a transport that broke its invariant, never a slow flow.
    j["stalled"] = stalled;
    j["stalled_flows"] = stalledFlows;
    j["end_time_us"] = Round6(static_cast<double>(m_context.GetEndTime().GetPicoSeconds()) / 1e6);
    j["fct_us"] = describe(fct);
    j["slowdown"] = describe(slowdown);
    OrderedJson buckets = OrderedJson::array();
    for (std::size_t b = 0; b < N_BUCKETS; ++b)
    {
        buckets.push_back(
            OrderedJson{{"bucket", bucketNames[b]},
                        {"max_bytes", bucketMax[b] == UINT64_MAX ? OrderedJson(nullptr)
                                                                 : OrderedJson(bucketMax[b])},
                        {"flows", bucketFlows[b]},
                        {"finished", bucketFct[b].GetCount()},
                        {"fct_us", describe(bucketFct[b])},
                        {"slowdown", describe(bucketSlowdown[b])}});
    }
    j["by_size"] = buckets;
    j["retransmitted_packets"] = retransmitted;
    j["pfc"] = {{"xoff_sent", xoffSent},
                {"xon_sent", xonSent},
                {"paused_us", Round6(static_cast<double>(paused.GetPicoSeconds()) / 1e6)}};
    j["drops"] = {{"buffer", bufferDrops}, {"switch", switchDrops}};
    for (const ExperimentMonitor* monitor : monitors)
    {
        monitor->AddToSummary(m_context, j);
    }
    for (const ExperimentWorkload* workload : workloads)
    {
        workload->AddToSummary(m_context, j);
    }

    WriteJsonFile(m_context.OutputPath("summary.json"), "summary.json", j, readme,
                  "flow counts (not_started: flows of the trace that start after the stop "
                  "time), FCT (us) and slowdown statistics over all flows and by size "
                  "bucket, stalled flows (unfinished, nothing pending), retransmissions, "
                  "PFC totals, drops by reason, deadlocks, PFC "
                  "watchdog storms, exactly_once: flows whose bytes were not placed exactly "
                  "once and in full (faults: when given)");
}

void
ExperimentOutputWriter::WriteReadme() const
{
    m_context.GetReadme().Write(m_context.OutputPath("README"));
}

} // namespace ns3
