#include "experiment-runner.h"

#include "deferred-progress-buffer.h"
#include "experiment-check-report.h"
#include "experiment-output-writer.h"
#include "flow-workload.h"
#include "output-directory.h"
#include "wall-duration.h"

#include "ns3/object-factory.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/show-progress.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <chrono>
#include <iostream>

namespace ns3
{

namespace
{
// How often a distributed run's ranks check whether every workload is done: it changes
// wall time only (the end time written is the last completion).
const Time GLOBAL_COMPLETION_CHECK = MicroSeconds(10);

/** Call \p step on each of \p parts, in list order. */
template <typename Part, typename Step>
void
Call(const std::vector<Part*>& parts, Step step, ExperimentRunContext& context)
{
    for (Part* part : parts)
    {
        (part->*step)(context);
    }
}
} // namespace

ExperimentRunner::ExperimentRunner(const ExperimentConfig& config,
                                   const std::string& outputDirectory)
    : m_config(config)
    , m_topology(config)
    , m_context(config, m_topology, outputDirectory, m_readme)
    , m_merge(m_context)
    , m_flows(std::make_unique<FlowWorkload>(config, m_topology))
    , m_own(StandardParts::Create(config, m_topology))
{
    for (const auto& composer : m_own.composers)
    {
        AddComposer(composer.get());
    }
    AddWorkload(m_flows.get());
    for (const auto& workload : m_own.workloads)
    {
        AddWorkload(workload.get());
    }
    for (const auto& monitor : m_own.monitors)
    {
        AddMonitor(monitor.get());
    }
}

ExperimentRunner::~ExperimentRunner() = default;

void
ExperimentRunner::Run()
{
    const bool distributed = m_context.IsDistributed();
    // A used directory is cleared of the previous run's files (OutputDirectory); ranks of a
    // distributed run write concurrently, so they only check and create it.
    OutputDirectory::Prepare(m_context.GetOutputDirectory(),
                             distributed ? "" : m_config.GetSource(), !distributed);

    const auto wallStart = std::chrono::steady_clock::now();
    SetUp();
    Call(m_composers, &ExperimentComposer::Install, m_context);
    Call(m_monitors, &ExperimentMonitor::Install, m_context);
    Call(m_workloads, &ExperimentWorkload::Start, m_context);

    Simulator::Stop(m_config.GetStopTime());
    if (distributed && m_context.GetPartition()->CanReduceDuringRun())
    {
        Simulator::Schedule(Time(0), &ExperimentRunner::CheckGlobalCompletion, this);
    }
    m_setupWallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    Simulate();
    m_endTime = Simulator::Now();

    Call(m_workloads, &ExperimentWorkload::Collect, m_context);
    m_flows->Merge(m_merge, m_endTime);
    m_context.SetEndTime(m_endTime);
    m_readme.SetRun(m_config.GetSource(), m_config.GetSeed());
    Call(m_monitors, &ExperimentMonitor::Collect, m_context); // per-rank files
    if (!m_context.IsWritingRank())
    {
        return; // rank 0 writes the merged outputs
    }
    const ExperimentOutputWriter output(m_context, m_merge);
    output.WriteConfig();
    output.WriteFlows();
    output.WriteTrace();
    output.WritePfc();
    Call(m_monitors, &ExperimentMonitor::Write, m_context);
    Call(m_workloads, &ExperimentWorkload::Write, m_context);
    output.WriteSummary(m_monitors, m_workloads);
    output.WriteReadme();
}

void
ExperimentRunner::Check(std::ostream& out)
{
    const OutputDirectory::Plan plan =
        OutputDirectory::Inspect(m_context.GetOutputDirectory(), m_config.GetSource());
    SetUp();
    ExperimentCheckReport::Print(m_config, m_context.GetOutputDirectory(), plan, out);
}

void
ExperimentRunner::SetUp()
{
    ObjectFactory scheduler;
    scheduler.SetTypeId(m_config.GetScheduler());
    Simulator::SetScheduler(scheduler);
    RngSeedManager::SetSeed(m_config.GetSeed());
    RngSeedManager::SetRun(1);
    m_context.AssignSystemIds();
    Call(m_composers, &ExperimentComposer::CheckConfig, m_context);
    Call(m_workloads, &ExperimentWorkload::CheckConfig, m_context);
    Call(m_monitors, &ExperimentMonitor::CheckConfig, m_context);

    m_topology.Build();
    m_topology.AssignStreams(0);
    Call(m_composers, &ExperimentComposer::Compose, m_context);
    Call(m_monitors, &ExperimentMonitor::Prepare, m_context);
    Call(m_workloads, &ExperimentWorkload::SetUp, m_context);
}

void
ExperimentRunner::Simulate()
{
    DeferredProgressBuffer progressBuffer(std::cerr);
    std::ostream progressStream(&progressBuffer);
    std::unique_ptr<ShowProgress> progress;
    if (m_config.GetProgress() && !m_externalProgress && m_context.IsWritingRank())
    {
        progress = std::make_unique<ShowProgress>(Seconds(PROGRESS_QUIET_SECONDS), progressStream);
    }
    const uint64_t eventsBefore = Simulator::GetEventCount();
    const auto loopStart = std::chrono::steady_clock::now();
    Simulator::Run();
    m_eventLoopWallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - loopStart).count();
    m_events = Simulator::GetEventCount() - eventsBefore;
    progress.reset();
}

int64_t
ExperimentRunner::CountPending() const
{
    return std::count_if(m_workloads.begin(), m_workloads.end(),
                         [](const ExperimentWorkload* workload) { return !workload->IsDone(); });
}

void
ExperimentRunner::OnWorkloadDone()
{
    // A distributed run's ranks stop together (CheckGlobalCompletion).
    if (!m_context.IsDistributed() && CountPending() == 0)
    {
        Simulator::Stop();
    }
}

void
ExperimentRunner::CheckGlobalCompletion()
{
    // Every rank runs this event at the same simulated times (granted time window),
    // so the collective Sum matches up across the ranks.
    std::vector<int64_t> pending{CountPending()};
    m_context.GetPartition()->Sum(pending);
    if (pending[0] == 0)
    {
        Simulator::Stop();
        return;
    }
    Simulator::Schedule(GLOBAL_COMPLETION_CHECK, &ExperimentRunner::CheckGlobalCompletion, this);
}

void
ExperimentRunner::SetPartition(const ExperimentPartition* partition)
{
    m_context.SetPartition(partition);
}

void
ExperimentRunner::AddComposer(ExperimentComposer* composer)
{
    m_composers.push_back(composer);
}

void
ExperimentRunner::AddWorkload(ExperimentWorkload* workload)
{
    workload->SetOnDone(MakeCallback(&ExperimentRunner::OnWorkloadDone, this));
    m_workloads.push_back(workload);
}

void
ExperimentRunner::AddMonitor(ExperimentMonitor* monitor)
{
    m_monitors.push_back(monitor);
}

void
ExperimentRunner::SetQueuePairLifetimes(bool lifetimes)
{
    m_flows->SetQueuePairLifetimes(lifetimes);
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

const std::vector<ExperimentFlowResult>&
ExperimentRunner::GetFlowResults() const
{
    return m_flows->GetResults();
}

uint32_t
ExperimentRunner::GetFinishedFlows() const
{
    return m_flows->GetFinished();
}

uint32_t
ExperimentRunner::GetStalledFlows() const
{
    return m_flows->GetStalled();
}

uint64_t
ExperimentRunner::GetExactlyOnceViolations() const
{
    return m_flows->GetExactlyOnceViolations();
}

const DeliveryChecker&
ExperimentRunner::GetDeliveryChecker() const
{
    return m_flows->GetDeliveryChecker();
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
