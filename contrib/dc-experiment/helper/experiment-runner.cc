#include "experiment-runner.h"

#include "collective-workload.h"
#include "delivery-checker.h"
#include "fault-injector.h"
#include "flow-queue-pairs.h"
#include "hpcc-output-writer.h"
#include "node-composer.h"
#include "output-directory.h"
#include "output-micros.h"
#include "pcap-capture.h"
#include "pfc-event-writer.h"
#include "pfc-safety-output-writer.h"
#include "port-map-writer.h"

#include "ns3/abort.h"
#include "ns3/channel.h"
#include "ns3/dcb-net-device.h"
#include "ns3/deep-buffer-voq.h"
#include "ns3/experiment-config-error.h"
#include "ns3/fabric-partitioner.h"
#include "ns3/flow-trace.h"
#include "ns3/int-trailer.h"
#include "ns3/non-default-attributes.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-helper.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-bth-header.h"
#include "ns3/sample-statistics.h"
#include "ns3/show-progress.h"
#include "ns3/simulator.h"
#include "ns3/sonic-buffer-manager.h"
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

// Header rows of the CSV outputs (also their README entries' columns).
constexpr const char* FLOWS_COLUMNS =
    "id,src,dst,bytes,start_us,finish_us,fct_us,ideal_fct_us,"
    "slowdown,retransmitted_packets,verb,priority,delivered_bytes";
constexpr const char* PFC_COLUMNS = "node,port,class,xoff_sent,xon_sent,xoff_received,paused_us";
constexpr const char* QUEUES_COLUMNS = "time_us,node,port,class,bytes";
constexpr const char* RATES_COLUMNS = "time_us,flow,rate_gbps";
constexpr const char* BUFFERS_COLUMNS = "time_us,node,object,name,port,index,bytes,watermark_bytes";
constexpr const char* BUFFER_DROPS_COLUMNS = "node,reason,packets";

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
    // A used directory is cleared of the previous run's files (OutputDirectory); ranks of a
    // distributed run write concurrently, so they only create it.
    OutputDirectory::Prepare(m_outputDirectory, IsDistributed() ? "" : m_config.GetSource(),
                             !IsDistributed());

    const auto wallStart = std::chrono::steady_clock::now();
    ObjectFactory scheduler;
    scheduler.SetTypeId(m_config.GetScheduler());
    Simulator::SetScheduler(scheduler);
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
    m_faults = std::make_unique<FaultInjector>(m_config, m_topology);
    if (m_faults->IsActive() && IsDistributed())
    {
        throw ExperimentConfigError(m_config.GetSource(), "/faults",
                                    "not available in distributed runs (a fault's routing "
                                    "reaction and its record would be split over the ranks)");
    }
    m_faults->Install();
    m_faults->AssignStreams(ExperimentConfig::FAULT_STREAM);
    m_nodes = std::make_unique<NodeComposer>(m_config, m_topology);
    m_nodes->Install(IsDistributed());
    SetUpFlows();
    // "collectives": after the flows reserved their QP numbers; the run ends when both are done.
    m_collectives = std::make_unique<CollectiveWorkload>(m_config, m_topology);
    m_collectives->Install(IsDistributed());
    m_collectives->SetOnDone(
        [this]()
        {
            if (m_completed == m_results.size())
            {
                Simulator::Stop();
            }
        });
    if (m_config.GetOutputs().hpcc)
    {
        if (IsDistributed())
        {
            throw ExperimentConfigError(m_config.GetSource(), "/outputs/hpcc",
                                        "not available in distributed runs (each rank sees only "
                                        "its own ports' PFC frames)");
        }
        m_hpccOutput = std::make_unique<HpccOutputWriter>(m_config);
        m_hpccOutput->Connect(m_topology);
    }
    if (m_config.GetOutputs().pfcEvents || !m_config.GetPcap().IsEmpty())
    {
        if (IsDistributed())
        {
            throw ExperimentConfigError(m_config.GetSource(),
                                        m_config.GetPcap().IsEmpty() ? "/outputs/pfc_events"
                                                                     : "/pcap",
                                        "not available in distributed runs (each rank sees only "
                                        "its own ports)");
        }
        PcapCapture::Enable(m_config.GetPcap(), m_config.GetTopology(), m_topology,
                            m_outputDirectory, m_readme);
    }
    if (m_config.GetOutputs().pfcEvents)
    {
        m_pfcEvents = std::make_unique<PfcEventWriter>(m_config.GetTopology());
        m_pfcEvents->Connect(m_topology);
    }

    const ExperimentPfcSafety& safety = m_config.GetPfcSafety();
    if (IsDistributed() && (safety.deadlockMonitor || safety.watchdog))
    {
        throw ExperimentConfigError(m_config.GetSource(),
                                    safety.deadlockMonitor ? "/monitors/deadlock" : "/pfc_watchdog",
                                    "not available in distributed runs (the wait-for graph and "
                                    "the watchdog's counters need every switch on one rank)");
    }
    m_pfcSafety = std::make_unique<PfcSafetyOutputWriter>(m_config);
    m_pfcSafety->Install(m_topology);

    const ExperimentMonitors& mon = m_config.GetMonitors();
    // In a distributed run each rank samples what it simulates, into its own file.
    if (mon.queueInterval.IsStrictlyPositive())
    {
        m_queueFile.open(OutputPath(MonitorFileName("queues", false)), std::ios::binary);
        m_queueFile << QUEUES_COLUMNS << '\n';
        Simulator::Schedule(mon.queueInterval, &ExperimentRunner::SampleQueues, this);
    }
    if (mon.bufferInterval.IsStrictlyPositive())
    {
        m_bufferFile.open(OutputPath(MonitorFileName("buffers", false)), std::ios::binary);
        m_bufferFile << BUFFERS_COLUMNS << '\n';
        Simulator::Schedule(mon.bufferInterval, &ExperimentRunner::SampleBuffers, this);
    }
    if (mon.rateInterval.IsStrictlyPositive())
    {
        m_rateFile.open(OutputPath(MonitorFileName("rates", false)), std::ios::binary);
        m_rateFile << RATES_COLUMNS << '\n';
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
    m_flowQps->TallyUnopened();

    for (uint32_t id = 0; id < m_results.size(); ++id)
    {
        // A QP on another rank's node is a shadow there: its counters stay zero.
        m_results[id].retransmittedPackets = m_flowQps->GetRetransmittedPackets(id);
        const PlacementDigest& digest = m_delivery->GetDigest(id);
        m_results[id].deliveredBytes = digest.GetCoveredBytes();
        m_results[id].duplicateBytes = digest.GetDuplicateBytes();
        m_results[id].outsideBytes = digest.GetOutsideBytes();
        m_results[id].firstDuplicateOffset =
            digest.GetDuplicateBytes() > 0 ? digest.GetFirstDuplicateOffset() : 0;
    }
    MergeResults();
    m_readme.SetRun(m_config.GetSource(), m_config.GetSeed());
    if (m_queueFile.is_open())
    {
        RunReadmeWriter::CloseChecked(m_queueFile, OutputPath(MonitorFileName("queues", false)));
        m_readme.AddCsv(MonitorFileName("queues", true),
                        "queue monitor: the bytes of every switch egress queue holding data, every "
                        "monitors/queue_interval" +
                            PerRankNote(),
                        QUEUES_COLUMNS);
    }
    if (m_rateFile.is_open())
    {
        RunReadmeWriter::CloseChecked(m_rateFile, OutputPath(MonitorFileName("rates", false)));
        m_readme.AddCsv(MonitorFileName("rates", true),
                        "rate monitor: the congestion controller's rate of each flow in progress, "
                        "every monitors/rate_interval" +
                            PerRankNote(),
                        RATES_COLUMNS);
    }
    if (m_bufferFile.is_open())
    {
        RunReadmeWriter::CloseChecked(m_bufferFile, OutputPath(MonitorFileName("buffers", false)));
        m_readme.AddCsv(MonitorFileName("buffers", true),
                        "buffer monitor: per switch, the occupancy and watermark of its buffer "
                        "pools, PGs and queues (or total occupancy), every "
                        "monitors/buffer_interval" +
                            PerRankNote(),
                        BUFFERS_COLUMNS);
        WriteBufferDrops();
    }
    if (IsDistributed() && m_partition->GetRank() != 0)
    {
        return; // rank 0 writes the merged outputs
    }
    WriteConfig();
    WriteFlows();
    WriteTrace();
    WritePfc();
    m_pfcSafety->Write(m_outputDirectory, m_readme);
    if (m_faults->IsActive())
    {
        m_faults->Write(OutputPath("faults.csv"), m_readme);
    }
    if (m_hpccOutput)
    {
        m_hpccOutput->Write(m_outputDirectory, m_results, m_readme);
    }
    PortMapWriter::Write(m_config.GetTopology(), m_outputDirectory, m_readme);
    if (m_nodes->IsActive())
    {
        m_nodes->Write(m_outputDirectory, m_readme);
    }
    if (m_collectives->IsActive())
    {
        m_collectives->Write(m_outputDirectory, m_readme);
    }
    if (m_pfcEvents)
    {
        m_pfcEvents->Write(m_outputDirectory, m_readme);
    }
    WriteSummary();
    WriteReadme();
}

const DeliveryChecker&
ExperimentRunner::GetDeliveryChecker() const
{
    return *m_delivery;
}

void
ExperimentRunner::SetPartition(const ExperimentPartition* partition)
{
    m_partition = partition;
}

void
ExperimentRunner::SetQueuePairLifetimes(bool lifetimes)
{
    m_qpLifetimes = lifetimes;
}

void
ExperimentRunner::SetExternalProgress(bool external)
{
    m_externalProgress = external;
}

void
ExperimentRunner::SetReadmeDetail(const std::string& label, const std::string& value)
{
    m_readme.SetDetail(label, value);
}

void
ExperimentRunner::SetCommandLine(const std::string& commandLine)
{
    m_readme.SetCommandLine(commandLine);
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
    m_delivery = std::make_unique<DeliveryChecker>(m_config, m_topology);
    for (uint32_t hostIndex = 0; hostIndex < m_topology.GetNHosts(); ++hostIndex)
    {
        m_topology.GetNic(hostIndex)->TraceConnectWithoutContext(
            "Completion", MakeCallback(&ExperimentRunner::OnCompletion, this).Bind(hostIndex));
    }
    // A distributed run's ranks each see one end of a flow: its pairs live from set-up.
    m_flowQps =
        std::make_unique<FlowQueuePairs>(m_config, m_topology, m_qpLifetimes && !IsDistributed());
    for (const ExperimentFlow& f : flows)
    {
        const bool read = f.verb == RdmaVerb::Read;
        m_flowQps->Reserve(f);
        if (IsLocal(m_topology.GetHost(f.dst)))
        {
            m_delivery->AddFlow(f.id, m_flowQps->GetPlacingQpn(f.id));
        }
        if (f.verb == RdmaVerb::Send && m_flowQps->GetRequester(f.id))
        {
            for (uint64_t k = 0; k < std::min<uint64_t>(f.outstanding, f.GetMessageCount()); ++k)
            {
                PostReceive(f.id);
            }
        }
        ExperimentFlowResult& r = m_results[f.id];
        r.start = f.start;
        // HPCC's INT trailer rides on SEND/WRITE data (not on READ responses).
        const uint8_t intHops = read ? 0 : m_flowQps->GetRequesterIntHops(f.id);
        r.idealFct = m_ideal->GetIdealFct(f.src, f.dst, f.bytes, m_flowQps->GetDataSenderMtu(f.id),
                                          intHops ? IntTrailer::SizeFor(intHops) : 0);
        // In a distributed run only the rank owning the requester starts the flow.
        if (IsLocal(m_topology.GetHost(read ? f.dst : f.src)))
        {
            Simulator::Schedule(f.start, &ExperimentRunner::StartFlow, this, f.id);
        }
    }
    m_delivery->Connect();
}

void
ExperimentRunner::StartFlow(uint32_t id)
{
    const ExperimentFlow& f = m_config.GetFlows()[id];
    OpenFlow(id);
    for (uint64_t k = 0; k < std::min<uint64_t>(f.outstanding, f.GetMessageCount()); ++k)
    {
        PostMessage(id);
    }
}

void
ExperimentRunner::OpenFlow(uint32_t id)
{
    const ExperimentFlow& f = m_config.GetFlows()[id];
    if (m_flowQps->Open(id) && f.verb == RdmaVerb::Send)
    {
        for (uint64_t k = 0; k < std::min<uint64_t>(f.outstanding, f.GetMessageCount()); ++k)
        {
            PostReceive(id);
        }
    }
}

void
ExperimentRunner::PostMessage(uint32_t id)
{
    const ExperimentFlow& f = m_config.GetFlows()[id];
    FlowState& s = m_flowState[id];
    RdmaWorkRequest wr;
    wr.wrId = id; // every message of a flow: its completions are counted per flow
    wr.verb = f.verb;
    wr.length = f.GetMessageBytes(s.messagesPosted);
    // Message k of a stream goes to offset k x message_bytes of the flow's buffer, so
    // that a placement address is the flow offset (DeliveryChecker).
    wr.remoteAddr = s.messagesPosted * f.messageBytes;
    wr.localAddr = wr.remoteAddr;
    ++s.messagesPosted;
    m_flowQps->GetRequester(id)->PostSend(wr);
}

void
ExperimentRunner::PostReceive(uint32_t id)
{
    const ExperimentFlow& f = m_config.GetFlows()[id];
    FlowState& s = m_flowState[id];
    RdmaRecvRequest rr;
    rr.wrId = id;
    rr.length = f.GetMessageBytes(s.receivesPosted);
    ++s.receivesPosted;
    m_flowQps->GetResponder(id)->PostRecv(rr);
}

void
ExperimentRunner::OnCompletion(uint32_t host, const RdmaCompletion& completion)
{
    if (completion.wrId >= m_results.size() ||
        !m_flowQps->IsFlowCompletion(static_cast<uint32_t>(completion.wrId), host, completion))
    {
        return;
    }
    const ExperimentFlow& f = m_config.GetFlows()[completion.wrId];
    FlowState& s = m_flowState[completion.wrId];
    // Receive completions (SEND arrived at dst) are not the flow's end; a stream's
    // responder reposts one so that `outstanding` stay posted.
    if (completion.receive)
    {
        if (completion.status == RdmaWcStatus::Success && s.receivesPosted < f.GetMessageCount())
        {
            PostReceive(completion.wrId);
        }
        return;
    }
    ExperimentFlowResult& r = m_results[completion.wrId];
    if (r.completed)
    {
        return;
    }
    if (f.IsStream() && completion.status == RdmaWcStatus::Success &&
        ++s.messagesDone < f.GetMessageCount())
    {
        if (s.messagesPosted < f.GetMessageCount())
        {
            PostMessage(completion.wrId);
        }
        return;
    }
    r.completed = true;
    r.status = completion.status;
    m_flowQps->Close(completion.wrId);
    ++m_completed;
    m_lastCompletion = Simulator::Now();
    if (completion.status == RdmaWcStatus::Success)
    {
        r.finished = true;
        r.finish = completion.completionTime;
        ++m_finished;
    }
    if (m_completed == m_results.size() && !IsDistributed() && m_collectives->IsDone())
    {
        Simulator::Stop();
    }
}

void
ExperimentRunner::SampleQueues()
{
    const std::string now = FormatMicros(Simulator::Now());
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
ExperimentRunner::SampleBuffers()
{
    const std::string now = FormatMicros(Simulator::Now());
    const ExperimentTopology& topo = m_config.GetTopology();
    std::ostream& out = m_bufferFile;
    auto row = [&](const std::string& node, const char* object, const std::string& name,
                   const std::string& port, const std::string& index, uint64_t bytes, uint64_t peak)
    {
        out << now << ',' << node << ',' << object << ',' << name << ',' << port << ',' << index
            << ',' << bytes << ',' << peak << '\n';
    };
    for (uint32_t s = 0; s < m_topology.GetNSwitches(); ++s)
    {
        if (!IsLocal(m_topology.GetSwitchNodes().Get(s)))
        {
            continue;
        }
        Ptr<DcbSwitch> sw = m_topology.GetSwitch(s);
        const std::string& node = topo.switches[s];
        Ptr<BufferManager> bm = sw->GetBufferManager();
        Ptr<SonicBufferManager> sonic = DynamicCast<SonicBufferManager>(bm);
        if (!sonic)
        {
            row(node, "buffer", "", "", "", bm->GetOccupancy(), 0);
            continue;
        }
        const SonicBufferConfig& c = sonic->GetConfig();
        for (uint32_t p = 0; p < c.pools.size(); ++p)
        {
            row(node, "pool_shared", c.pools[p].name, "", "", sonic->GetPoolSharedBytes(p),
                sonic->GetPoolSharedWatermark(p));
            if (c.pools[p].xoff > 0)
            {
                row(node, "pool_headroom", c.pools[p].name, "", "", sonic->GetPoolHeadroomBytes(p),
                    sonic->GetPoolHeadroomWatermark(p));
            }
        }
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            const std::string port = std::to_string(p);
            for (uint8_t i = 0; i < DcbNetDevice::N_CLASSES; ++i)
            {
                const std::string index = std::to_string(i);
                const uint64_t shared = sonic->GetPgSharedWatermark(p, i);
                if (shared > 0)
                {
                    row(node, "pg_shared", "", port, index, sonic->GetPgSharedBytes(p, i), shared);
                }
                const uint64_t headroom = sonic->GetPgHeadroomWatermark(p, i);
                if (headroom > 0)
                {
                    row(node, "pg_headroom", "", port, index, sonic->GetPgHeadroomBytes(p, i),
                        headroom);
                }
                const uint64_t queue = sonic->GetQueueWatermark(p, i);
                if (queue > 0)
                {
                    row(node, "queue", "", port, index, sonic->GetQueueBytes(p, i), queue);
                }
            }
        }
        if (Ptr<DeepBufferVoq> voq = DynamicCast<DeepBufferVoq>(sonic))
        {
            row(node, "ocb", "", "", "", voq->GetOcbBytes(), voq->GetOcbWatermark());
            row(node, "dram", "", "", "", voq->GetDramBytes(), voq->GetDramWatermark());
        }
        if (m_config.GetMonitors().clearWatermarks)
        {
            sonic->ClearWatermarks();
        }
    }
    Simulator::Schedule(m_config.GetMonitors().bufferInterval, &ExperimentRunner::SampleBuffers,
                        this);
}

void
ExperimentRunner::WriteBufferDrops() const
{
    const std::string path = OutputPath(MonitorFileName("buffer_drops", false));
    std::ofstream out(path, std::ios::binary);
    out << BUFFER_DROPS_COLUMNS << '\n';
    const ExperimentTopology& topo = m_config.GetTopology();
    for (uint32_t s = 0; s < m_topology.GetNSwitches(); ++s)
    {
        if (!IsLocal(m_topology.GetSwitchNodes().Get(s)))
        {
            continue;
        }
        Ptr<BufferManager> bm = m_topology.GetSwitch(s)->GetBufferManager();
        for (uint32_t r = 0; r < BufferManager::N_DROP_REASONS; ++r)
        {
            const auto reason = static_cast<BufferManager::DropReason>(r);
            if (bm->GetDrops(reason) > 0)
            {
                out << topo.switches[s] << ',' << BufferManager::DropReasonName(reason) << ','
                    << bm->GetDrops(reason) << '\n';
            }
        }
    }
    RunReadmeWriter::CloseChecked(out, path);
    m_readme.AddCsv(MonitorFileName("buffer_drops", true),
                    "buffer-manager drops per switch and reason, where above zero (with the buffer "
                    "monitor)" +
                        PerRankNote(),
                    BUFFER_DROPS_COLUMNS);
}

void
ExperimentRunner::SampleRates()
{
    const std::string now = FormatMicros(Simulator::Now());
    const Time t = Simulator::Now();
    for (uint32_t id = 0; id < m_results.size(); ++id)
    {
        if (m_results[id].start > t || m_results[id].completed ||
            !IsLocal(m_topology.GetHost(m_config.GetFlows()[id].src)))
        {
            continue;
        }
        OpenFlow(id); // its StartFlow may come later at this time
        const double gbps =
            static_cast<double>(m_flowQps->GetDataSender(id)->GetCcState().m_rate.GetBitRate()) /
            1e9;
        m_rateFile << now << ',' << id << ',' << Fixed6(gbps) << '\n';
    }
    Simulator::Schedule(m_config.GetMonitors().rateInterval, &ExperimentRunner::SampleRates, this);
}

// ------------------------------------------------------------------ outputs

void
ExperimentRunner::WriteConfig() const
{
    // Every object the run created or configured: nodes (their devices, NICs and
    // switches are reached from them), links, buffer managers, ECN markers, NIC
    // schedulers and caches, and each flow's QPs with their CC and loss recovery.
    NonDefaultAttributes attributes;
    for (uint32_t n = 0; n < m_config.GetTopology().GetNNodes(); ++n)
    {
        Ptr<Node> node = m_topology.GetNode(n);
        attributes.Add(node);
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            attributes.Add(node->GetDevice(d)->GetChannel());
        }
    }
    for (uint32_t s = 0; s < m_topology.GetNSwitches(); ++s)
    {
        Ptr<DcbSwitch> sw = m_topology.GetSwitch(s);
        attributes.Add(sw->GetBufferManager());
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            attributes.Add(sw->GetEcnMarker(p));
        }
    }
    for (uint32_t h = 0; h < m_topology.GetNHosts(); ++h)
    {
        attributes.Add(m_topology.GetNic(h)->GetQpScheduler());
        attributes.Add(m_topology.GetNic(h)->GetCacheModel());
    }
    m_flowQps->AddAttributes(attributes);
    nlohmann::ordered_json config = m_config.EffectiveJson();
    config["non_default_attributes"] = attributes.ToJson();

    const std::string path = OutputPath("config.json");
    std::ofstream out(path, std::ios::binary);
    out << config.dump(2) << '\n';
    RunReadmeWriter::CloseChecked(out, path);
    m_readme.AddJson("config.json",
                     "the effective configuration: the experiment with every default filled in "
                     "(loading it again gives the same experiment), and under "
                     "\"non_default_attributes\" every ns-3 attribute of the run's objects that "
                     "differs from its TypeId default, by type",
                     Keys(config));
}

void
ExperimentRunner::WriteFlows() const
{
    const std::string path = OutputPath("flows.csv");
    std::ofstream out(path, std::ios::binary);
    out << FLOWS_COLUMNS << '\n';
    const auto& hosts = m_config.GetTopology().hosts;
    for (const ExperimentFlow& f : m_config.GetFlows())
    {
        const ExperimentFlowResult& r = m_results[f.id];
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
            << unsigned{f.priority} << ',' << r.deliveredBytes << '\n';
    }
    RunReadmeWriter::CloseChecked(out, path);
    m_readme.AddCsv("flows.csv",
                    "one row per flow; finish_us, fct_us and slowdown (fct / ideal fct) are empty "
                    "for flows that did not finish; src/dst are host names; delivered_bytes: "
                    "distinct payload bytes placed at the receiver",
                    FLOWS_COLUMNS);
}

void
ExperimentRunner::WriteTrace() const
{
    const std::string path = OutputPath("trace.csv");
    std::ofstream out(path, std::ios::binary);
    FlowTrace::WriteCsv(out, m_config.GetFlows());
    RunReadmeWriter::CloseChecked(out, path);
    m_readme.AddCsv("trace.csv",
                    "the run's flows in the trace format, to replay them (\"flows_file\")",
                    FlowTrace::CsvHeaderFor(m_config.GetFlows()));
}

void
ExperimentRunner::WritePfc() const
{
    const std::string path = OutputPath("pfc.csv");
    std::ofstream out(path, std::ios::binary);
    out << PFC_COLUMNS << '\n';
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
                        << FormatMicros(PicoSeconds(k[3])) << '\n';
                }
            }
        }
    }
    RunReadmeWriter::CloseChecked(out, path);
    m_readme.AddCsv("pfc.csv",
                    "PFC counters of every host and switch port (interface index) and class with "
                    "PFC activity",
                    PFC_COLUMNS);
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
    m_pfcSafety->AddToSummary(j);
    j["exactly_once"] = DeliveryChecker::Summarize(m_config.GetFlows(), m_results);
    if (m_faults->IsActive())
    {
        j["faults"] = {{"events", m_config.GetFaults().events.size()},
                       {"random_loss_frames", m_faults->GetLostFrames()}};
    }

    const std::string path = OutputPath("summary.json");
    std::ofstream out(path, std::ios::binary);
    out << j.dump(2) << '\n';
    RunReadmeWriter::CloseChecked(out, path);
    m_readme.AddJson("summary.json",
                     "flow counts, FCT (us) and slowdown statistics over all flows and by size "
                     "bucket, retransmissions, PFC totals, drops by reason, deadlocks, PFC "
                     "watchdog storms, exactly_once: flows whose bytes were not placed exactly "
                     "once and in full (faults: when given)",
                     Keys(j));
}

void
ExperimentRunner::WriteReadme() const
{
    m_readme.Write(OutputPath("README"));
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
