// ExperimentRunner, continued: the parts that let one run span several MPI ranks
// (SetPartition). Kept apart from experiment-runner.cc so that the sequential
// runner stays readable; no MPI call is made here (ExperimentPartition does them).
#include "experiment-runner.h"

#include "ns3/dcb-net-device.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

namespace
{
/**
 * How often the ranks of a distributed run check whether every flow has
 * completed. It changes when the run stops (and so only wall time), never the
 * results: the end time written is the last completion.
 */
const Time GLOBAL_COMPLETION_CHECK = MicroSeconds(10);
} // namespace

bool
ExperimentRunner::IsDistributed() const
{
    return m_partition && m_partition->GetNRanks() > 1;
}

bool
ExperimentRunner::IsLocal(Ptr<Node> node) const
{
    return !IsDistributed() || node->GetSystemId() == m_partition->GetRank();
}

std::string
ExperimentRunner::MonitorFileName(const std::string& stem, bool forReadme) const
{
    if (!IsDistributed())
    {
        return stem + ".csv";
    }
    return stem + "-rank" + (forReadme ? "<R>" : std::to_string(m_partition->GetRank())) + ".csv";
}

std::string
ExperimentRunner::PerRankNote() const
{
    return IsDistributed() ? "; one file per MPI rank R, for the switches and flows that rank "
                             "simulated (doc/mpi.md)"
                           : "";
}

void
ExperimentRunner::CheckGlobalCompletion()
{
    // Every rank runs this event at the same simulated times (granted time window),
    // so the collective Sum matches up across the ranks.
    std::vector<int64_t> completed{static_cast<int64_t>(m_completed)};
    m_partition->Sum(completed);
    if (static_cast<std::size_t>(completed[0]) >= m_results.size())
    {
        Simulator::Stop();
        return;
    }
    Simulator::Schedule(GLOBAL_COMPLETION_CHECK, &ExperimentRunner::CheckGlobalCompletion, this);
}

std::vector<int64_t>
ExperimentRunner::CollectPfcCounters() const
{
    std::vector<int64_t> counters;
    for (uint32_t n = 0; n < m_config.GetTopology().GetNNodes(); ++n)
    {
        Ptr<Node> node = m_topology.GetNode(n);
        const bool local = IsLocal(node);
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            Ptr<DcbNetDevice> dev = DynamicCast<DcbNetDevice>(node->GetDevice(d));
            if (!dev)
            {
                continue;
            }
            for (uint8_t c = 0; c < DcbNetDevice::N_CLASSES; ++c)
            {
                const DcbClassCounters& k = dev->GetCounters(c);
                counters.push_back(local ? static_cast<int64_t>(k.pfcXoffSent) : 0);
                counters.push_back(local ? static_cast<int64_t>(k.pfcXonSent) : 0);
                counters.push_back(local ? static_cast<int64_t>(k.pfcXoffReceived) : 0);
                counters.push_back(local ? dev->GetPausedTime(c).GetPicoSeconds() : 0);
            }
        }
    }
    return counters;
}

std::vector<int64_t>
ExperimentRunner::CollectDrops() const
{
    std::vector<int64_t> drops(BufferManager::N_DROP_REASONS + DcbSwitch::N_DROP_REASONS, 0);
    for (uint32_t s = 0; s < m_topology.GetNSwitches(); ++s)
    {
        if (!IsLocal(m_topology.GetSwitchNodes().Get(s)))
        {
            continue;
        }
        Ptr<DcbSwitch> sw = m_topology.GetSwitch(s);
        for (uint32_t r = 0; r < BufferManager::N_DROP_REASONS; ++r)
        {
            drops[r] += static_cast<int64_t>(
                sw->GetBufferManager()->GetDrops(static_cast<BufferManager::DropReason>(r)));
        }
        for (uint32_t r = 0; r < DcbSwitch::N_DROP_REASONS; ++r)
        {
            drops[BufferManager::N_DROP_REASONS + r] +=
                static_cast<int64_t>(sw->GetDrops(static_cast<DcbSwitch::DropReason>(r)));
        }
    }
    return drops;
}

void
ExperimentRunner::MergeResults()
{
    m_pfcCounters = CollectPfcCounters();
    m_drops = CollectDrops();
    if (!IsDistributed())
    {
        return;
    }
    m_partition->Sum(m_pfcCounters);
    m_partition->Sum(m_drops);

    // Per flow: the requester's rank knows the completion; the QPs' ranks the
    // retransmissions (a shadow QP's counters are zero). Summing combines both.
    constexpr std::size_t FIELDS = 9;
    std::vector<int64_t> flows(m_results.size() * FIELDS, 0);
    for (std::size_t id = 0; id < m_results.size(); ++id)
    {
        const ExperimentFlowResult& r = m_results[id];
        int64_t* f = &flows[id * FIELDS];
        f[0] = r.completed ? 1 : 0;
        f[1] = r.finished ? 1 : 0;
        f[2] = r.completed ? static_cast<int64_t>(r.status) : 0;
        f[3] = r.finished ? r.finish.GetPicoSeconds() : 0;
        f[4] = static_cast<int64_t>(r.retransmittedPackets);
        // The placement counts come from the receiving host's rank only.
        f[5] = static_cast<int64_t>(r.deliveredBytes);
        f[6] = static_cast<int64_t>(r.duplicateBytes);
        f[7] = static_cast<int64_t>(r.outsideBytes);
        f[8] = static_cast<int64_t>(r.firstDuplicateOffset);
    }
    m_partition->Sum(flows);
    m_completed = 0;
    m_finished = 0;
    for (std::size_t id = 0; id < m_results.size(); ++id)
    {
        ExperimentFlowResult& r = m_results[id];
        const int64_t* f = &flows[id * FIELDS];
        r.completed = f[0] != 0;
        r.finished = f[1] != 0;
        r.status = static_cast<RdmaWcStatus>(f[2]);
        r.finish = PicoSeconds(f[3]);
        r.retransmittedPackets = static_cast<uint64_t>(f[4]);
        r.deliveredBytes = static_cast<uint64_t>(f[5]);
        r.duplicateBytes = static_cast<uint64_t>(f[6]);
        r.outsideBytes = static_cast<uint64_t>(f[7]);
        r.firstDuplicateOffset = static_cast<uint64_t>(f[8]);
        m_completed += r.completed ? 1 : 0;
        m_finished += r.finished ? 1 : 0;
    }

    // As in a sequential run: the run ends at the last completion when every flow
    // completed, else at the stop time.
    std::vector<int64_t> last{m_lastCompletion.GetPicoSeconds(), m_endTime.GetPicoSeconds()};
    m_partition->Max(last);
    m_endTime = m_completed == m_results.size() ? PicoSeconds(last[0]) : PicoSeconds(last[1]);
}

} // namespace ns3
