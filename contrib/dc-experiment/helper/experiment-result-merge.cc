#include "experiment-result-merge.h"

#include "ns3/dcb-net-device.h"
#include "ns3/dcb-switch.h"

namespace ns3
{

ExperimentResultMerge::ExperimentResultMerge(const ExperimentRunContext& context)
    : m_context(context)
{
}

const std::vector<int64_t>&
ExperimentResultMerge::GetPfcCounters() const
{
    return m_pfcCounters;
}

const std::vector<int64_t>&
ExperimentResultMerge::GetDrops() const
{
    return m_drops;
}

std::vector<int64_t>
ExperimentResultMerge::CollectPfcCounters() const
{
    const TopologyBuilder& topology = m_context.GetTopology();
    std::vector<int64_t> counters;
    for (uint32_t n = 0; n < m_context.GetConfig().GetTopology().GetNNodes(); ++n)
    {
        Ptr<Node> node = topology.GetNode(n);
        const bool local = m_context.IsLocal(node);
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
ExperimentResultMerge::CollectDrops() const
{
    const TopologyBuilder& topology = m_context.GetTopology();
    std::vector<int64_t> drops(BufferManager::N_DROP_REASONS + DcbSwitch::N_DROP_REASONS, 0);
    for (uint32_t s = 0; s < topology.GetNSwitches(); ++s)
    {
        if (!m_context.IsLocal(topology.GetSwitchNodes().Get(s)))
        {
            continue;
        }
        Ptr<DcbSwitch> sw = topology.GetSwitch(s);
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
ExperimentResultMerge::Merge(std::vector<ExperimentFlowResult>& results, uint32_t& completed,
                             uint32_t& finished, Time lastCompletion, Time& endTime)
{
    m_pfcCounters = CollectPfcCounters();
    m_drops = CollectDrops();
    if (!m_context.IsDistributed())
    {
        return;
    }
    const ExperimentPartition& partition = *m_context.GetPartition();
    partition.Sum(m_pfcCounters);
    partition.Sum(m_drops);

    // Per flow: the requester's rank knows the completion; the QPs' ranks the
    // retransmissions (a shadow QP's counters are zero). Summing combines both.
    constexpr std::size_t FIELDS = 12;
    std::vector<int64_t> flows(results.size() * FIELDS, 0);
    for (std::size_t id = 0; id < results.size(); ++id)
    {
        const ExperimentFlowResult& r = results[id];
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
        f[9] = r.stalled ? 1 : 0; // the requester's rank
        // Reordering: the responders' counters, on the receiving host's rank only.
        f[10] = static_cast<int64_t>(r.reorderedPackets);
        f[11] = static_cast<int64_t>(r.maxReorderDistance);
    }
    partition.Sum(flows);
    completed = 0;
    finished = 0;
    for (std::size_t id = 0; id < results.size(); ++id)
    {
        ExperimentFlowResult& r = results[id];
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
        r.stalled = f[9] != 0;
        r.reorderedPackets = static_cast<uint64_t>(f[10]);
        r.maxReorderDistance = static_cast<uint64_t>(f[11]);
        completed += r.completed ? 1 : 0;
        finished += r.finished ? 1 : 0;
    }

    // As in a sequential run: the run ends at the last completion when every flow
    // completed, else at the stop time.
    std::vector<int64_t> last{lastCompletion.GetPicoSeconds(), endTime.GetPicoSeconds()};
    partition.Max(last);
    endTime = completed == results.size() ? PicoSeconds(last[0]) : PicoSeconds(last[1]);
}

} // namespace ns3
