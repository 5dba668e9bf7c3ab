#include "experiment-runner.h"

#include "ns3/abort.h"
#include "ns3/dcb-net-device.h"
#include "ns3/experiment-config-error.h"
#include "ns3/fabric-partitioner.h"
#include "ns3/flow-trace.h"
#include "ns3/rdma-helper.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-bth-header.h"
#include "ns3/sample-statistics.h"
#include "ns3/show-progress.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <streambuf>

namespace ns3
{

namespace
{

/** "12.345678": microseconds with picosecond precision, from integer arithmetic. */
std::string
Micros(Time t)
{
    int64_t ps = t.GetPicoSeconds();
    const char* sign = ps < 0 ? "-" : "";
    ps = ps < 0 ? -ps : ps;
    char buf[48];
    std::snprintf(buf, sizeof(buf), "%s%" PRId64 ".%06" PRId64, sign, ps / 1000000, ps % 1000000);
    return buf;
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

/**
 * Passes ShowProgress output through only once the run has lasted long enough
 * to print a progress line: the "Start wall clock" line is held back, and if
 * the next line is the closing "End wall clock" the whole report is dropped,
 * so short runs stay silent.
 */
class DeferredProgressBuffer : public std::streambuf
{
  public:
    explicit DeferredProgressBuffer(std::ostream& out)
        : m_out(out)
    {
    }

  protected:
    int overflow(int c) override
    {
        if (c == traits_type::eof())
        {
            return 0;
        }
        if (m_state == State::Live)
        {
            m_out.put(static_cast<char>(c));
            return c;
        }
        if (m_state == State::Silent)
        {
            return c;
        }
        m_line += static_cast<char>(c);
        if (c == '\n')
        {
            if (m_held.empty())
            {
                m_held = m_line;
            }
            else if (m_line.rfind("End wall clock", 0) == 0)
            {
                m_state = State::Silent;
            }
            else
            {
                m_out << m_held << m_line;
                m_out.flush();
                m_state = State::Live;
            }
            m_line.clear();
        }
        return c;
    }

    int sync() override
    {
        if (m_state == State::Live)
        {
            m_out.flush();
        }
        return 0;
    }

  private:
    enum class State : uint8_t
    {
        Holding,
        Live,
        Silent,
    };

    std::ostream& m_out;
    State m_state{State::Holding};
    std::string m_held;
    std::string m_line;
};

void
CheckWritten(std::ofstream& out, const std::string& path)
{
    out.close();
    if (out.fail())
    {
        throw std::runtime_error("cannot write " + path);
    }
}

} // namespace

ExperimentRunner::ExperimentRunner(const ExperimentConfig& config,
                                   const std::string& outputDirectory)
    : m_config(config)
    , m_outputDirectory(outputDirectory)
    , m_topology(config)
{
}

ExperimentRunner::~ExperimentRunner() = default;

std::string
ExperimentRunner::OutputPath(const std::string& name) const
{
    return (std::filesystem::path(m_outputDirectory) / name).string();
}

void
ExperimentRunner::Run()
{
    std::error_code ec;
    std::filesystem::create_directories(m_outputDirectory, ec);
    if (ec)
    {
        throw std::runtime_error("cannot create output directory " + m_outputDirectory + ": " +
                                 ec.message());
    }

    const auto wallStart = std::chrono::steady_clock::now();
    RngSeedManager::SetSeed(m_config.GetSeed());
    RngSeedManager::SetRun(1);
    if (IsDistributed())
    {
        std::string error;
        std::vector<uint32_t> systemIds = FabricPartitioner::Partition(
            m_config.GetTopology(), m_partition->GetNRanks(), m_partition->GetMode(), error);
        if (systemIds.empty())
        {
            throw ExperimentConfigError(m_config.GetSource(), "/topology", error);
        }
        m_topology.SetSystemIds(std::move(systemIds));
    }
    m_topology.Build();
    m_topology.AssignStreams(0);
    SetUpFlows();

    const ExperimentMonitors& mon = m_config.GetMonitors();
    // In a distributed run each rank samples what it simulates, into its own file.
    const std::string rankSuffix =
        IsDistributed() ? "-rank" + std::to_string(m_partition->GetRank()) : "";
    if (mon.queueInterval.IsStrictlyPositive())
    {
        m_queueFile.open(OutputPath("queues" + rankSuffix + ".csv"), std::ios::binary);
        m_queueFile << "time_us,node,port,class,bytes\n";
        Simulator::Schedule(mon.queueInterval, &ExperimentRunner::SampleQueues, this);
    }
    if (mon.rateInterval.IsStrictlyPositive())
    {
        m_rateFile.open(OutputPath("rates" + rankSuffix + ".csv"), std::ios::binary);
        m_rateFile << "time_us,flow,rate_gbps\n";
        Simulator::Schedule(mon.rateInterval, &ExperimentRunner::SampleRates, this);
    }

    Simulator::Stop(m_config.GetStopTime());
    if (IsDistributed() && m_partition->CanReduceDuringRun())
    {
        Simulator::Schedule(Time(0), &ExperimentRunner::CheckGlobalCompletion, this);
    }
    {
        DeferredProgressBuffer progressBuffer(std::cerr);
        std::ostream progressStream(&progressBuffer);
        std::unique_ptr<ShowProgress> progress;
        if (m_config.GetProgress() && !m_externalProgress &&
            (!IsDistributed() || m_partition->GetRank() == 0))
        {
            progress = std::make_unique<ShowProgress>(Seconds(2), progressStream);
        }
        const uint64_t eventsBefore = Simulator::GetEventCount();
        const auto loopStart = std::chrono::steady_clock::now();
        Simulator::Run();
        const auto loopEnd = std::chrono::steady_clock::now();
        m_events = Simulator::GetEventCount() - eventsBefore;
        m_setupWallSeconds = std::chrono::duration<double>(loopStart - wallStart).count();
        m_eventLoopWallSeconds = std::chrono::duration<double>(loopEnd - loopStart).count();
        progress.reset();
    }
    m_endTime = Simulator::Now();

    for (uint32_t id = 0; id < m_results.size(); ++id)
    {
        // A QP on another rank's node is a shadow there: its counters stay zero.
        m_results[id].retransmittedPackets =
            m_flowState[id].requester->GetCounters().retransmittedPackets +
            m_flowState[id].responder->GetCounters().retransmittedPackets;
    }
    MergeResults();
    if (m_queueFile.is_open())
    {
        CheckWritten(m_queueFile, OutputPath("queues.csv"));
    }
    if (m_rateFile.is_open())
    {
        CheckWritten(m_rateFile, OutputPath("rates" + rankSuffix + ".csv"));
    }
    if (IsDistributed() && m_partition->GetRank() != 0)
    {
        return; // rank 0 writes the merged outputs
    }
    WriteConfig();
    WriteFlows();
    WriteTrace();
    WritePfc();
    WriteSummary();
    WriteReadme();
}

void
ExperimentRunner::SetPartition(const ExperimentPartition* partition)
{
    m_partition = partition;
}

void
ExperimentRunner::SetExternalProgress(bool external)
{
    m_externalProgress = external;
}

void
ExperimentRunner::SetUpFlows()
{
    const auto& flows = m_config.GetFlows();
    const uint32_t headerBytes =
        m_topology.GetNic(0)->GetEncapsulationBytes() + RoceBthHeader().GetSerializedSize();
    m_ideal = std::make_unique<IdealFctCalculator>(m_config.GetTopology(), headerBytes);
    m_results.resize(flows.size());
    m_flowState.resize(flows.size());
    for (uint32_t hostIndex = 0; hostIndex < m_topology.GetNHosts(); ++hostIndex)
    {
        m_topology.GetNic(hostIndex)->TraceConnectWithoutContext(
            "Completion", MakeCallback(&ExperimentRunner::OnCompletion, this));
    }
    for (const ExperimentFlow& f : flows)
    {
        // The requester posts the work request: src for WRITE/SEND, dst for READ.
        const bool read = f.verb == RdmaVerb::Read;
        Ptr<RdmaNic> requesterNic = m_topology.GetNic(read ? f.dst : f.src);
        Ptr<RdmaNic> responderNic = m_topology.GetNic(read ? f.src : f.dst);
        auto [requester, responder] = RdmaHelper::Connect(requesterNic, responderNic);
        const UintegerValue dscp(f.priority * 8u + 2u);
        requester->SetAttribute("Dscp", dscp);
        responder->SetAttribute("Dscp", dscp);
        FlowState& s = m_flowState[f.id];
        s.requester = requester;
        s.responder = responder;
        s.dataSender = read ? responder : requester;
        if (f.verb == RdmaVerb::Send)
        {
            RdmaRecvRequest rr;
            rr.wrId = f.id;
            rr.length = f.bytes;
            responder->PostRecv(rr);
        }
        ExperimentFlowResult& r = m_results[f.id];
        r.start = f.start;
        r.idealFct = m_ideal->GetIdealFct(f.src, f.dst, f.bytes, s.dataSender->GetMtu());
        // In a distributed run only the rank owning the requester starts the flow.
        if (IsLocal(m_topology.GetHost(read ? f.dst : f.src)))
        {
            Simulator::Schedule(f.start, &ExperimentRunner::StartFlow, this, f.id);
        }
    }
}

void
ExperimentRunner::StartFlow(uint32_t id)
{
    const ExperimentFlow& f = m_config.GetFlows()[id];
    RdmaWorkRequest wr;
    wr.wrId = id;
    wr.verb = f.verb;
    wr.length = f.bytes;
    m_flowState[id].requester->PostSend(wr);
}

void
ExperimentRunner::OnCompletion(const RdmaCompletion& completion)
{
    // Receive completions (SEND arrived at dst) are not the flow's end.
    if (completion.receive || completion.wrId >= m_results.size())
    {
        return;
    }
    ExperimentFlowResult& r = m_results[completion.wrId];
    if (r.completed)
    {
        return;
    }
    r.completed = true;
    r.status = completion.status;
    ++m_completed;
    m_lastCompletion = Simulator::Now();
    if (completion.status == RdmaWcStatus::Success)
    {
        r.finished = true;
        r.finish = completion.completionTime;
        ++m_finished;
    }
    if (m_completed == m_results.size() && !IsDistributed())
    {
        Simulator::Stop();
    }
}

void
ExperimentRunner::SampleQueues()
{
    const std::string now = Micros(Simulator::Now());
    const ExperimentTopology& topo = m_config.GetTopology();
    for (uint32_t s = 0; s < m_topology.GetNSwitches(); ++s)
    {
        Ptr<DcbSwitch> sw = m_topology.GetSwitch(s);
        if (!IsLocal(m_topology.GetSwitchNodes().Get(s)))
        {
            continue;
        }
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            Ptr<DcbNetDevice> port = sw->GetPort(p);
            for (uint8_t c = 0; c < DcbNetDevice::N_CLASSES; ++c)
            {
                const uint64_t bytes = port->GetQueueBytes(c);
                if (bytes > 0)
                {
                    m_queueFile << now << ',' << topo.switches[s] << ',' << p << ',' << unsigned{c}
                                << ',' << bytes << '\n';
                }
            }
        }
    }
    Simulator::Schedule(m_config.GetMonitors().queueInterval, &ExperimentRunner::SampleQueues,
                        this);
}

void
ExperimentRunner::SampleRates()
{
    const std::string now = Micros(Simulator::Now());
    const Time t = Simulator::Now();
    for (uint32_t id = 0; id < m_results.size(); ++id)
    {
        if (m_results[id].start > t || m_results[id].completed ||
            !IsLocal(m_topology.GetHost(m_config.GetFlows()[id].src)))
        {
            continue;
        }
        const double gbps =
            static_cast<double>(m_flowState[id].dataSender->GetCcState().m_rate.GetBitRate()) / 1e9;
        m_rateFile << now << ',' << id << ',' << Fixed6(gbps) << '\n';
    }
    Simulator::Schedule(m_config.GetMonitors().rateInterval, &ExperimentRunner::SampleRates, this);
}

// ------------------------------------------------------------------ outputs

void
ExperimentRunner::WriteConfig() const
{
    const std::string path = OutputPath("config.json");
    nlohmann::ordered_json effective = m_config.EffectiveJson();
    // Attribute defaults changed outside the file (--ns3::Type::Attribute=value on the
    // command line, Config::SetDefault): every one whose value differs from its TypeId's.
    nlohmann::ordered_json changed = nlohmann::ordered_json::object();
    for (uint16_t t = 0; t < TypeId::GetRegisteredN(); ++t)
    {
        const TypeId tid = TypeId::GetRegistered(t);
        for (std::size_t a = 0; a < tid.GetAttributeN(); ++a)
        {
            const TypeId::AttributeInformation info = tid.GetAttribute(a);
            const std::string value = info.initialValue->SerializeToString(info.checker);
            if (value != info.originalInitialValue->SerializeToString(info.checker))
            {
                changed[tid.GetName() + "::" + info.name] = value;
            }
        }
    }
    if (!changed.empty())
    {
        effective["attribute_defaults"] = changed;
    }
    std::ofstream out(path, std::ios::binary);
    out << effective.dump(2) << '\n';
    CheckWritten(out, path);
}

void
ExperimentRunner::WriteFlows() const
{
    const std::string path = OutputPath("flows.csv");
    std::ofstream out(path, std::ios::binary);
    out << "id,src,dst,bytes,start_us,finish_us,fct_us,ideal_fct_us,slowdown,"
           "retransmitted_packets,verb,priority\n";
    const auto& hosts = m_config.GetTopology().hosts;
    for (const ExperimentFlow& f : m_config.GetFlows())
    {
        const ExperimentFlowResult& r = m_results[f.id];
        out << f.id << ',' << hosts[f.src] << ',' << hosts[f.dst] << ',' << f.bytes << ','
            << Micros(r.start) << ',';
        if (r.finished)
        {
            const Time fct = r.finish - r.start;
            out << Micros(r.finish) << ',' << Micros(fct) << ',' << Micros(r.idealFct) << ','
                << Fixed6(static_cast<double>(fct.GetPicoSeconds()) /
                          static_cast<double>(r.idealFct.GetPicoSeconds()));
        }
        else
        {
            out << ",," << Micros(r.idealFct) << ',';
        }
        out << ',' << r.retransmittedPackets << ',' << VerbName(f.verb) << ','
            << unsigned{f.priority} << '\n';
    }
    CheckWritten(out, path);
}

void
ExperimentRunner::WriteTrace() const
{
    const std::string path = OutputPath("trace.csv");
    std::ofstream out(path, std::ios::binary);
    FlowTrace::WriteCsv(out, m_config.GetFlows());
    CheckWritten(out, path);
}

void
ExperimentRunner::WritePfc() const
{
    const std::string path = OutputPath("pfc.csv");
    std::ofstream out(path, std::ios::binary);
    out << "node,port,class,xoff_sent,xon_sent,xoff_received,paused_us\n";
    const ExperimentTopology& topo = m_config.GetTopology();
    // m_pfcCounters: CollectPfcCounters' order, merged over the ranks.
    std::size_t i = 0;
    for (uint32_t n = 0; n < topo.GetNNodes(); ++n)
    {
        Ptr<Node> node = m_topology.GetNode(n);
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            Ptr<DcbNetDevice> dev = DynamicCast<DcbNetDevice>(node->GetDevice(d));
            if (!dev)
            {
                continue;
            }
            for (uint8_t c = 0; c < DcbNetDevice::N_CLASSES; ++c, i += 4)
            {
                const int64_t* k = &m_pfcCounters[i];
                if (k[0] || k[1] || k[2] || k[3] > 0)
                {
                    out << topo.GetNodeName(n) << ',' << dev->GetIfIndex() << ',' << unsigned{c}
                        << ',' << k[0] << ',' << k[1] << ',' << k[2] << ','
                        << Micros(PicoSeconds(k[3])) << '\n';
                }
            }
        }
    }
    CheckWritten(out, path);
}

void
ExperimentRunner::WriteSummary() const
{
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
    const auto& flows = m_config.GetFlows();
    for (std::size_t i = 0; i < m_results.size(); ++i)
    {
        const ExperimentFlowResult& r = m_results[i];
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
    auto describe = [](SampleStatistics& s)
    {
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
    for (std::size_t i = 0; i < m_pfcCounters.size(); i += 4)
    {
        xoffSent += static_cast<uint64_t>(m_pfcCounters[i]);
        xonSent += static_cast<uint64_t>(m_pfcCounters[i + 1]);
        paused += PicoSeconds(m_pfcCounters[i + 3]);
    }

    OrderedJson bufferDrops;
    OrderedJson switchDrops;
    // Names of DcbSwitch::DropReason in enum order; a reason added to the enum
    // later than this list is written as "reason-<n>" rather than left unnamed.
    static const char* switchDropNames[] = {"no-route", "ttl-expired", "not-ipv4", "buffer",
                                            "pfc-watchdog"};
    const uint32_t namedSwitchDrops = sizeof(switchDropNames) / sizeof(switchDropNames[0]);
    // m_drops: CollectDrops' order, merged over the ranks.
    for (uint32_t r = 0; r < BufferManager::N_DROP_REASONS; ++r)
    {
        const auto total = static_cast<uint64_t>(m_drops[r]);
        bufferDrops[BufferManager::DropReasonName(static_cast<BufferManager::DropReason>(r))] =
            total;
    }
    for (uint32_t r = 0; r < DcbSwitch::N_DROP_REASONS; ++r)
    {
        const auto total = static_cast<uint64_t>(m_drops[BufferManager::N_DROP_REASONS + r]);
        switchDrops[r < namedSwitchDrops ? std::string(switchDropNames[r])
                                         : "reason-" + std::to_string(r)] = total;
    }

    const auto failed = static_cast<uint32_t>(m_completed - m_finished);
    OrderedJson j;
    j["flows"] = m_results.size();
    j["finished"] = m_finished;
    j["failed"] = failed;
    j["unfinished"] = m_results.size() - m_finished;
    j["end_time_us"] = Round6(static_cast<double>(m_endTime.GetPicoSeconds()) / 1e6);
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

    const std::string path = OutputPath("summary.json");
    std::ofstream out(path, std::ios::binary);
    out << j.dump(2) << '\n';
    CheckWritten(out, path);
}

void
ExperimentRunner::WriteReadme() const
{
    // Every file a run (or ./roce-lab run / plot) can leave here, in listing order; the
    // README names those present when the run ends.
    static const std::pair<const char*, const char*> files[] = {
        {"input.json", "the configuration as run, after ./roce-lab run --set/--seed edits"},
        {"config.json", "the effective configuration: every section with its defaults filled in, "
                        "and attribute_defaults changed on the command line"},
        {"flows.csv", "one row per flow: id,src,dst,bytes,start_us,finish_us,fct_us,ideal_fct_us,"
                      "slowdown,retransmitted_packets,verb,priority (finish, fct and slowdown "
                      "empty for flows that did not finish)"},
        {"trace.csv", "the flows in the trace format, to replay them (\"flows_file\")"},
        {"pfc.csv", "per port and class with PFC activity: node,port,class,xoff_sent,xon_sent,"
                    "xoff_received,paused_us"},
        {"summary.json", "flow counts, FCT and slowdown statistics (all flows and by size), "
                         "retransmissions, PFC totals, drops by reason"},
        {"queues.csv",
         "queue monitor: time_us,node,port,class,bytes of switch queues holding data"},
        {"rates.csv", "rate monitor: time_us,flow,rate_gbps of the flows in progress"},
    };
    const std::string path = OutputPath("README");
    std::ofstream out(path, std::ios::binary);
    out << "Output of one roce-lab run (configuration: " << m_config.GetSource() << ", seed "
        << m_config.GetSeed()
        << "). The same configuration and seed give byte-identical files.\n"
           "Format details: contrib/dc-experiment/doc/dc-experiment.md.\n\n";
    for (const auto& [name, what] : files)
    {
        if (std::filesystem::exists(OutputPath(name)))
        {
            out << name << ": " << what << "\n";
        }
    }
    if (IsDistributed())
    {
        out << "queues-rank<R>.csv, rates-rank<R>.csv: the monitors, per MPI rank, for the part "
               "of the network that rank simulated (doc/mpi.md)\n";
    }
    out << "*.png: figures drawn by ./roce-lab run (the configuration's \"plots\") or ./roce-lab "
           "plot: FCT and slowdown CDFs, slowdown by flow size\n";
    CheckWritten(out, path);
}

const std::vector<ExperimentFlowResult>&
ExperimentRunner::GetFlowResults() const
{
    return m_results;
}

uint32_t
ExperimentRunner::GetFinishedFlows() const
{
    return m_finished;
}

Time
ExperimentRunner::GetEndTime() const
{
    return m_endTime;
}

double
ExperimentRunner::GetSetupWallSeconds() const
{
    return m_setupWallSeconds;
}

double
ExperimentRunner::GetEventLoopWallSeconds() const
{
    return m_eventLoopWallSeconds;
}

uint64_t
ExperimentRunner::GetEventCount() const
{
    return m_events;
}

const TopologyBuilder&
ExperimentRunner::GetTopology() const
{
    return m_topology;
}

} // namespace ns3
