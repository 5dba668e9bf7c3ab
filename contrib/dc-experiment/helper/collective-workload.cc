#include "collective-workload.h"

#include "ns3/dfabric-rack-hop.h"
#include "ns3/enum.h"
#include "ns3/experiment-config-error.h"
#include "ns3/maestro-endpoint.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/output-micros.h"
#include "ns3/rdma-helper.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <filesystem>
#include <fstream>

namespace ns3
{

CollectiveWorkload::CollectiveWorkload(const ExperimentConfig& config,
                                       const TopologyBuilder& topology)
    : m_config(config)
    , m_topology(topology)
    , m_paths(topology, config.GetTopology())
{
}

CollectiveWorkload::~CollectiveWorkload() = default;

bool
CollectiveWorkload::IsActive() const
{
    return !m_config.GetCollectives().empty();
}

void
CollectiveWorkload::CheckConfig(const ExperimentRunContext& context)
{
    if (IsActive() && context.IsDistributed())
    {
        throw ExperimentConfigError(m_config.GetSource(), "/collectives",
                                    "not available in distributed runs (a ring's steps wait on "
                                    "completions at hosts of other ranks)");
    }
}

Ptr<MaestroEndpoint>
CollectiveWorkload::MakeEndpoint(const ExperimentCollective& e, Ptr<RdmaNic> from,
                                 Ptr<RdmaNic> to) const
{
    ObjectFactory factory("ns3::MaestroEndpoint");
    for (const ExperimentAttribute& a : e.endpoint.attributes)
    {
        factory.Set(a.name, *a.value);
    }
    Ptr<MaestroEndpoint> endpoint = factory.Create<MaestroEndpoint>();
    for (const ExperimentAttribute& a : e.qpManager.attributes)
    {
        endpoint->GetQpManager()->SetAttribute(a.name, *a.value);
    }
    endpoint->Connect(from, to);
    endpoint->Initialize();
    if (e.probe)
    {
        endpoint->Probe(); // a latency sample of every path before the collective starts
    }
    return endpoint;
}

Ptr<RingAllreduce>
CollectiveWorkload::MakeRing(const ExperimentCollective& e, std::vector<Ptr<RingHop>> hops)
{
    Ptr<RingAllreduce> ring = CreateObject<RingAllreduce>();
    ring->SetAttribute("ModelSize", UintegerValue(e.bytes));
    ring->SetAttribute("Iterations", UintegerValue(e.iterations));
    ring->SetAttribute("ComputeTime", TimeValue(e.computeTime));
    ring->SetHops(std::move(hops));
    return ring;
}

void
CollectiveWorkload::StartRing(uint32_t i, Ptr<RingAllreduce> ring)
{
    ring->TraceConnectWithoutContext("StepDone",
                                     MakeCallback(&CollectiveWorkload::OnStep, this).Bind(i));
    ring->TraceConnectWithoutContext("IterationDone",
                                     MakeCallback(&CollectiveWorkload::OnIteration, this).Bind(i));
    Simulator::Schedule(m_config.GetCollectives()[i].start, &RingAllreduce::Start, ring);
    m_collectives[i] = ring;
}

void
CollectiveWorkload::Start(ExperimentRunContext& /* context */)
{
    const std::vector<ExperimentCollective>& all = m_config.GetCollectives();
    for (uint32_t i = 0; i < all.size(); ++i)
    {
        const ExperimentCollective& e = all[i];
        m_collectives.push_back(nullptr);
        m_tokenRings.push_back(nullptr);
        m_streams.push_back(nullptr);
        m_optimalUs.push_back(0);
        m_times.emplace_back();
        m_stepEnd.push_back(e.start);
        m_lastEnd.push_back(e.start);
        if (e.overDfabric)
        {
            if (!m_racks)
            {
                m_racks = std::make_unique<DfabricRackSet>(m_config);
            }
            const std::vector<DfabricRack> racks = m_racks->GetRing(e.hosts);
            Ptr<RingAllreduce> d = MakeRing(e, DfabricRackHop::MakeRing(racks));
            d->SetAttribute("Schedule", EnumValue(RingAllreduce::LOCKSTEP));
            Ptr<CxlReduceGate> gate = CreateObject<CxlReduceGate>();
            if (gate->AddRacks(racks) > 0) // racks with CPUs load each reduced segment
            {
                d->SetStepGate(gate->GetCallback());
                m_reduceGates.push_back(gate);
            }
            StartRing(i, d);
            m_optimalUs.back() = DfabricRackHop::GetOptimalMicros(racks, e.bytes);
            m_links.emplace_back();
            continue;
        }
        const uint32_t n = static_cast<uint32_t>(e.hosts.size());
        std::vector<Ptr<MaestroEndpoint>> endpoints;
        if (e.type == "message_stream")
        {
            endpoints.push_back(
                MakeEndpoint(e, m_topology.GetNic(e.hosts[0]), m_topology.GetNic(e.hosts[1])));
            Ptr<MaestroMessageStream> stream = CreateObject<MaestroMessageStream>();
            stream->SetAttribute("MessageSize", UintegerValue(e.bytes));
            stream->SetAttribute("Outstanding", UintegerValue(e.outstanding));
            stream->SetAttribute("Duration", TimeValue(e.duration));
            stream->SetEndpoint(endpoints[0]);
            stream->TraceConnectWithoutContext(
                "MessageDone", MakeCallback(&CollectiveWorkload::OnMessage, this).Bind(i));
            stream->SetDoneCallback(MakeCallback(&CollectiveWorkload::OnStreamDone, this).Bind(i));
            Simulator::Schedule(e.start, &MaestroMessageStream::Start, stream);
            m_streams.back() = stream;
            m_links.emplace_back();
        }
        else
        {
            // A token ring's hop is done when the successor learns of the token (an
            // immediate); a collective's at the sender's completion (its buffer is free).
            const bool notify = e.type == "token_ring";
            std::vector<Ptr<MaestroRingLink>> links;
            for (uint32_t w = 0; w < n; ++w)
            {
                Ptr<RdmaNic> a = m_topology.GetNic(e.hosts[w]);
                Ptr<RdmaNic> b = m_topology.GetNic(e.hosts[(w + 1) % n]);
                if (e.overMaestro)
                {
                    endpoints.push_back(MakeEndpoint(e, a, b));
                    links.push_back(MaestroRingLink::OverEndpoint(endpoints.back(), notify));
                }
                else if (notify)
                {
                    links.push_back(
                        MaestroRingLink::OverQueuePairNotified(a, RdmaHelper::Connect(a, b), b));
                }
                else
                {
                    links.push_back(
                        MaestroRingLink::OverQueuePair(a, RdmaHelper::Connect(a, b).first));
                }
            }
            if (notify)
            {
                Ptr<MaestroTokenRing> ring = CreateObject<MaestroTokenRing>();
                ring->SetAttribute("TokenSize", UintegerValue(e.bytes));
                ring->SetAttribute("Rounds", UintegerValue(e.iterations));
                ring->SetLinks(links);
                ring->TraceConnectWithoutContext(
                    "RoundDone", MakeCallback(&CollectiveWorkload::OnIteration, this).Bind(i));
                Simulator::Schedule(e.start, &MaestroTokenRing::Start, ring);
                m_tokenRings.back() = ring;
            }
            else
            {
                Ptr<RingAllreduce> c =
                    MakeRing(e, std::vector<Ptr<RingHop>>(links.begin(), links.end()));
                c->SetAttribute("Pattern",
                                EnumValue(e.type == "allgather" ? RingAllreduce::ALLGATHER
                                                                : RingAllreduce::ALLREDUCE));
                StartRing(i, c);
            }
            m_links.push_back(std::move(links));
        }
        if (!e.pathInterval.IsZero())
        {
            for (uint32_t hop = 0; hop < endpoints.size(); ++hop)
            {
                m_paths.Add(e.name, hop, endpoints[hop], e.start, e.pathInterval,
                            [this, i]() {
                                return m_times[i].size() < m_config.GetCollectives()[i].iterations;
                            });
            }
        }
    }
}

bool
CollectiveWorkload::IsDone() const
{
    return m_done == m_config.GetCollectives().size();
}

const std::vector<Time>&
CollectiveWorkload::GetCommunicationTimes(uint32_t c) const
{
    return m_times.at(c);
}

uint64_t
CollectiveWorkload::SegmentBytes(uint32_t c) const
{
    return m_collectives[c]->GetSegmentBytes();
}

uint64_t
CollectiveWorkload::IterationBytes(uint32_t c) const
{
    if (m_streams[c])
    {
        return m_streams[c]->GetNCompleted() * m_config.GetCollectives()[c].bytes;
    }
    if (m_tokenRings[c])
    {
        return m_config.GetCollectives()[c].bytes;
    }
    return m_collectives[c]->GetModelBytes();
}

uint64_t
CollectiveWorkload::FailedMessages(uint32_t c) const
{
    uint64_t failed = 0;
    for (const Ptr<MaestroRingLink>& l : m_links[c])
    {
        failed += l->GetNFailed();
    }
    if (m_streams[c])
    {
        failed += m_streams[c]->GetNFailed();
    }
    return failed;
}

void
CollectiveWorkload::OnStep(uint32_t c, uint32_t iteration, uint32_t step, Time sinceStart)
{
    const Time now = Simulator::Now();
    const Time start = step == 0 ? now - sinceStart : m_stepEnd[c];
    m_rows.push_back(Row{c, iteration, step, SegmentBytes(c), start, now, true, 0});
    m_stepEnd[c] = now;
}

void
CollectiveWorkload::OnIteration(uint32_t c, uint32_t iteration, Time communication)
{
    const Time now = Simulator::Now();
    m_rows.push_back(Row{c, iteration, -1, IterationBytes(c), now - communication, now, true,
                         FailedMessages(c)});
    m_times[c].push_back(communication);
    m_lastEnd[c] = now;
    if (iteration + 1 == m_config.GetCollectives()[c].iterations &&
        ++m_done == m_collectives.size())
    {
        NotifyDone();
    }
}

void
CollectiveWorkload::OnMessage(uint32_t c, const MaestroMessageCompletion& m)
{
    m_rows.push_back(Row{c, static_cast<uint32_t>(m.wrId), MESSAGE_ROW, m.bytes, m.postTime,
                         m.completionTime, true, 0});
}

void
CollectiveWorkload::OnStreamDone(uint32_t c)
{
    OnIteration(c, 0, Simulator::Now() - m_config.GetCollectives()[c].start);
}

void
CollectiveWorkload::AddToSummary(const ExperimentRunContext& /* context */,
                                 nlohmann::ordered_json& summary) const
{
    if (!IsActive())
    {
        return;
    }
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (uint32_t c = 0; c < m_collectives.size(); ++c)
    {
        const ExperimentCollective& e = m_config.GetCollectives()[c];
        nlohmann::ordered_json times = nlohmann::ordered_json::array();
        for (const Time& t : GetCommunicationTimes(c))
        {
            // The digits collectives.csv writes (FormatMicros: integer arithmetic).
            times.push_back(nlohmann::ordered_json::parse(FormatMicros(t)));
        }
        nlohmann::ordered_json entry = {{"name", e.name},
                                        {"over", e.GetOver()},
                                        {"iterations", e.iterations},
                                        {"finished_iterations", times.size()},
                                        {"communication_us", times},
                                        {"failed_messages", FailedMessages(c)}};
        if (m_optimalUs[c] > 0)
        {
            // DFabric Fig. 2's y axis: the allreduce time over every hop at CXL link rate.
            const double optimal = m_optimalUs[c];
            nlohmann::ordered_json normalized = nlohmann::ordered_json::array();
            for (const Time& t : GetCommunicationTimes(c))
            {
                normalized.push_back(t.GetSeconds() * 1e6 / optimal);
            }
            entry["optimal_us"] = optimal;
            entry["normalized"] = normalized;
        }
        list.push_back(entry);
    }
    summary["collectives"] = list;
}

void
CollectiveWorkload::Write(ExperimentRunContext& context)
{
    if (!IsActive())
    {
        return;
    }
    RunReadmeWriter& readme = context.GetReadme();
    const std::string path = context.OutputPath("collectives.csv");
    std::ofstream out(path, std::ios::binary);
    out << COLUMNS << '\n';
    const std::vector<ExperimentCollective>& all = m_config.GetCollectives();
    std::vector<Row> rows = m_rows;
    for (uint32_t c = 0; c < m_collectives.size(); ++c)
    {
        // The iteration in progress when the run ended: its start if it had begun.
        const uint32_t done = static_cast<uint32_t>(GetCommunicationTimes(c).size());
        if (done < all[c].iterations)
        {
            const Time begin = m_lastEnd[c] + all[c].computeTime;
            rows.push_back(
                Row{c, done, -1, IterationBytes(c), begin, Time(0), false, FailedMessages(c)});
        }
    }
    for (const Row& r : rows)
    {
        const ExperimentCollective& e = all[r.collective];
        out << e.name << ',' << e.type << ',' << e.GetOver() << ',' << e.hosts.size() << ','
            << (r.step == MESSAGE_ROW ? "message"
                : r.step < 0          ? "iteration"
                                      : "step")
            << ',' << r.iteration << ',';
        if (r.step >= 0)
        {
            out << r.step;
        }
        out << ',' << r.bytes << ',';
        if (r.start <= Simulator::Now())
        {
            out << FormatMicros(r.start);
        }
        out << ',';
        if (r.finished)
        {
            out << FormatMicros(r.end) << ',' << FormatMicros(r.end - r.start);
        }
        else
        {
            out << ',';
        }
        out << ',';
        if (r.step == -1)
        {
            out << r.failed;
        }
        out << '\n';
    }
    RunReadmeWriter::CloseChecked(out, path);
    readme.AddCsv(
        "collectives.csv",
        "the \"collectives\": per collective, one row per completed ring step (kind "
        "step; bytes = the segment each rank sent in it; the step ends when every "
        "rank has sent its segment) and one per iteration (kind iteration; bytes = the "
        "model; from the end of the compute phase until every rank has sent and "
        "received every step; a token_ring's round; a message_stream's run until its last "
        "message completed, bytes = the bytes completed; end_us empty if it did not "
        "finish; failed_messages: messages that completed with an error so far) and, "
        "for a message_stream, one per message (kind message; iteration = its index; "
        "from its post to its completion)",
        COLUMNS);
    m_paths.Write(context);
}

} // namespace ns3
