#include "job-workload.h"

#include "topology-builder.h"

#include "ns3/experiment-config-error.h"
#include "ns3/object-factory.h"
#include "ns3/output-micros.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <fstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/**
 * Append to \p starts and \p ends each of the \p steps steps' first operation start and
 * last operation end in \p executor's iteration (an operation's step: its line minus one):
 * Time::Max() for a step none of whose operations started, and for the end of a step one
 * of whose operations has not completed.
 */
void
AppendStepTimes(const GoalExecutor& executor, std::size_t steps, std::vector<Time>& starts,
                std::vector<Time>& ends)
{
    const std::size_t first = starts.size();
    starts.resize(first + steps, Time::Max());
    ends.resize(first + steps, Time(0));
    std::vector<bool> open(steps, false);
    const GoalSchedule& schedule = executor.GetSchedule();
    for (uint32_t op = 0; op < schedule.GetNOps(); ++op)
    {
        const std::size_t step = schedule.GetOp(op).line - 1;
        const Time end = executor.GetOpEnd(op);
        starts[first + step] = std::min(starts[first + step], executor.GetOpStart(op));
        if (end == Time::Max())
        {
            open[step] = true;
        }
        else
        {
            ends[first + step] = std::max(ends[first + step], end);
        }
    }
    for (std::size_t i = 0; i < steps; ++i)
    {
        ends[first + i] = open[i] ? Time::Max() : ends[first + i];
    }
}

/** \return \p t in microseconds, "" for Time::Max(). */
std::string
MicrosOrEmpty(Time t)
{
    return t == Time::Max() ? std::string() : FormatMicros(t);
}

} // namespace

JobWorkload::JobWorkload(const ExperimentConfig& config, const TopologyBuilder& topology)
    : m_config(config)
    , m_topology(topology)
{
}

void
JobWorkload::CheckConfig(const ExperimentRunContext& context)
{
    if (!m_config.GetJobs().empty() && context.IsDistributed())
    {
        throw ExperimentConfigError(m_config.GetSource(), "/jobs",
                                    "not available in distributed runs (a rank's operations "
                                    "wait on messages from hosts of other ranks)");
    }
}

void
JobWorkload::Start(ExperimentRunContext& /* context */)
{
    const std::vector<ExperimentJob>& jobs = m_config.GetJobs();
    m_jobs.resize(jobs.size());
    if (jobs.empty())
    {
        return;
    }
    m_links.Setup(m_config.GetTopology(), m_topology, m_config.GetFaults());
    std::vector<Ptr<RdmaNic>> nics;
    for (uint32_t h = 0; h < m_topology.GetNHosts(); ++h)
    {
        nics.push_back(m_topology.GetNic(h));
    }
    for (uint32_t j = 0; j < jobs.size(); ++j)
    {
        m_jobs[j].transport = CreateObject<GoalRdmaTransport>();
        m_jobs[j].transport->Setup(nics);
        Simulator::Schedule(jobs[j].start - Simulator::Now(), &JobWorkload::StartIteration, this,
                            j);
    }
}

void
JobWorkload::StartIteration(uint32_t j)
{
    const ExperimentJob& job = m_config.GetJobs()[j];
    JobState& s = m_jobs[j];
    if (s.executor)
    {
        s.executor->Dispose();
    }
    ObjectFactory factory("ns3::GoalExecutor");
    for (const ExperimentAttribute& a : job.executor.attributes)
    {
        factory.Set(a.name, *a.value);
    }
    s.executor = factory.Create<GoalExecutor>();
    s.executor->Setup(*job.schedule, job.hosts, s.transport);
    s.executor->SetDoneCallback(MakeCallback(&JobWorkload::IterationDone, this).Bind(j));
    s.starts.push_back(Simulator::Now());
    s.links = m_links.Take();
    s.executor->Start();
}

void
JobWorkload::IterationDone(uint32_t j)
{
    JobState& s = m_jobs[j];
    s.times.push_back(s.executor->GetMakespan());
    const std::vector<JobStep>& steps = m_config.GetJobs()[j].steps;
    if (!steps.empty())
    {
        AppendStepTimes(*s.executor, steps.size(), s.stepStarts, s.stepEnds);
    }
    m_links.AddIteration(j, s.times.size() - 1, s.links, s.times.back());
    if (s.times.size() < m_config.GetJobs()[j].iterations)
    {
        // Not from inside the executor's callback: the next one starts on an event of its own.
        Simulator::ScheduleNow(&JobWorkload::StartIteration, this, j);
        return;
    }
    s.end = Simulator::Now();
    if (++m_finished == m_jobs.size())
    {
        NotifyDone();
    }
}

bool
JobWorkload::IsDone() const
{
    return m_finished == m_config.GetJobs().size();
}

const std::vector<Time>&
JobWorkload::GetIterationTimes(uint32_t job) const
{
    return m_jobs.at(job).times;
}

Time
JobWorkload::GetCompletionTime(uint32_t job) const
{
    const JobState& s = m_jobs.at(job);
    return s.end == Time::Max() ? Time::Max() : s.end - m_config.GetJobs()[job].start;
}

std::pair<Time, Time>
JobWorkload::GetStepTime(uint32_t job, uint32_t iteration, uint32_t step) const
{
    const std::size_t steps = m_config.GetJobs().at(job).steps.size();
    const JobState& s = m_jobs.at(job);
    if (step >= steps || iteration >= s.times.size())
    {
        throw std::out_of_range("JobWorkload::GetStepTime: no such completed step");
    }
    const std::size_t i = iteration * steps + step;
    return {s.stepStarts[i], s.stepEnds[i]};
}

void
JobWorkload::Write(ExperimentRunContext& context)
{
    if (m_config.GetJobs().empty())
    {
        return;
    }
    const std::string path = context.OutputPath("jobs.csv");
    std::ofstream out(path, std::ios::binary);
    out << COLUMNS << '\n';
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        const ExperimentJob& job = m_config.GetJobs()[j];
        const JobState& s = m_jobs[j];
        for (std::size_t i = 0; i < s.starts.size(); ++i)
        {
            out << job.name << ',' << i << ',' << job.hosts.size() << ','
                << FormatMicros(s.starts[i]) << ',';
            if (i < s.times.size())
            {
                out << FormatMicros(s.starts[i] + s.times[i]) << ',' << FormatMicros(s.times[i]);
            }
            else
            {
                out << ',';
            }
            out << '\n';
        }
    }
    RunReadmeWriter::CloseChecked(out, path);
    context.GetReadme().AddCsv(
        "jobs.csv",
        "the \"jobs\" (GOAL schedules): one row per iteration begun, from its start to its "
        "last operation's end (time_us); end_us and time_us empty for the iteration the run "
        "ended in",
        COLUMNS);

    const std::string links = context.OutputPath("job_links.csv");
    std::vector<std::string> names;
    for (const ExperimentJob& job : m_config.GetJobs())
    {
        names.push_back(job.name);
    }
    m_links.Write(links, names);
    context.GetReadme().AddCsv(
        "job_links.csv",
        "the \"jobs\" per link: for each completed iteration (jobs.csv's start_us to end_us) "
        "and each directed link that transmitted in it (node, port, peer as in ports.csv), the "
        "frames and bytes the port sent (whole frames, Ethernet header to ICRC, without FCS, "
        "preamble and gap; all traffic, the job's and any other) and utilisation = bytes x 8 "
        "/ (link rate x time_us)",
        JobLinkWriter::COLUMNS);
    WriteSteps(context);
}

void
JobWorkload::WriteSteps(ExperimentRunContext& context) const
{
    const std::vector<ExperimentJob>& jobs = m_config.GetJobs();
    if (std::none_of(jobs.begin(), jobs.end(),
                     [](const ExperimentJob& job) { return !job.steps.empty(); }))
    {
        return;
    }
    const std::string path = context.OutputPath("job_steps.csv");
    std::ofstream out(path, std::ios::binary);
    out << STEP_COLUMNS << '\n';
    for (uint32_t j = 0; j < jobs.size(); ++j)
    {
        const ExperimentJob& job = jobs[j];
        const JobState& s = m_jobs[j];
        if (job.steps.empty())
        {
            continue;
        }
        std::vector<Time> starts = s.stepStarts;
        std::vector<Time> ends = s.stepEnds;
        if (s.starts.size() > s.times.size() && s.executor)
        {
            AppendStepTimes(*s.executor, job.steps.size(), starts, ends); // the run ended in it
        }
        for (std::size_t k = 0; k < starts.size(); ++k)
        {
            const JobStep& step = job.steps[k % job.steps.size()];
            out << job.name << ',' << k / job.steps.size() << ',' << k % job.steps.size() << ','
                << JobStepCompiler::KindName(step.kind) << ','
                << JobStepCompiler::AlgorithmName(step.kind) << ',' << MicrosOrEmpty(starts[k])
                << ',' << MicrosOrEmpty(ends[k]) << ',';
            if (starts[k] != Time::Max() && ends[k] != Time::Max())
            {
                out << FormatMicros(ends[k] - starts[k]);
            }
            out << '\n';
        }
    }
    RunReadmeWriter::CloseChecked(out, path);
    context.GetReadme().AddCsv(
        "job_steps.csv",
        "the \"jobs\" with \"steps\", per step: one row per step of each iteration begun "
        "(step: its index in \"steps\", from 0; kind: compute, the collective, send or "
        "pipeline; algorithm: the collective's), from the first start of any of its "
        "operations on any rank (start_us) to the last end of any of them (end_us); the "
        "steps of ranks that finish their previous step early overlap; start_us empty for a "
        "step not begun, end_us and time_us empty for one not finished when the run ended",
        STEP_COLUMNS);
}

void
JobWorkload::AddToSummary(const ExperimentRunContext& /* context */,
                          nlohmann::ordered_json& summary) const
{
    if (m_config.GetJobs().empty())
    {
        return;
    }
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        const ExperimentJob& job = m_config.GetJobs()[j];
        const JobState& s = m_jobs[j];
        nlohmann::ordered_json times = nlohmann::ordered_json::array();
        for (const Time& t : s.times)
        {
            times.push_back(nlohmann::ordered_json::parse(FormatMicros(t)));
        }
        nlohmann::ordered_json entry = {{"name", job.name},
                                        {"ranks", job.hosts.size()},
                                        {"iterations", job.iterations},
                                        {"finished_iterations", s.times.size()},
                                        {"iteration_us", times}};
        const Time completion = GetCompletionTime(j);
        entry["completion_us"] = completion == Time::Max()
                                     ? nlohmann::ordered_json()
                                     : nlohmann::ordered_json::parse(FormatMicros(completion));
        entry["failed_messages"] = s.transport ? s.transport->GetNFailed() : 0;
        // The job's own QPs: summary.json's top-level retransmitted_packets counts the
        // flows' only.
        entry["retransmitted_packets"] = s.transport ? s.transport->GetRetransmittedPackets() : 0;
        entry["timeouts"] = s.transport ? s.transport->GetTimeouts() : 0;
        list.push_back(entry);
    }
    summary["jobs"] = list;
}

} // namespace ns3
