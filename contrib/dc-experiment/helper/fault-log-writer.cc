#include "fault-log-writer.h"

#include "ns3/json-attribute-converter.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace ns3
{

namespace
{
std::string
Probability(double p)
{
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.9g", p);
    return buf;
}

std::string
Classes(uint8_t mask)
{
    std::string s;
    for (uint32_t c = 0; c < 8; ++c)
    {
        if (mask & (1u << c))
        {
            s += (s.empty() ? "" : " ") + std::to_string(c);
        }
    }
    return s;
}
} // namespace

FaultLogWriter::FaultLogWriter(const FaultInjector& faults)
    : m_faults(faults)
{
}

void
FaultLogWriter::AddToSummary(const ExperimentRunContext& context,
                             nlohmann::ordered_json& summary) const
{
    if (m_faults.IsActive())
    {
        summary["faults"] = {{"events", context.GetConfig().GetFaults().events.size()},
                             {"random_loss_frames", m_faults.GetLostFrames()}};
    }
}

void
FaultLogWriter::Write(ExperimentRunContext& context)
{
    if (!m_faults.IsActive())
    {
        return;
    }
    const std::string path = context.OutputPath("faults.csv");
    RunReadmeWriter& readme = context.GetReadme();
    const ExperimentTopology& topo = context.GetConfig().GetTopology();
    const FaultPlan& plan = context.GetConfig().GetFaults();
    const std::vector<FaultInjector::LossLink> losses = m_faults.GetLossLinks();
    std::ofstream out(path, std::ios::binary);
    out << COLUMNS << '\n';
    std::vector<std::string> lines;
    for (const FaultInjector::LossLink& m : losses)
    {
        const FaultLoss& loss = plan.losses[m.entry];
        const std::string model = loss.gilbertElliott
                                      ? "gilbert_elliott p=" + Probability(loss.p) +
                                            " r=" + Probability(loss.r) +
                                            " loss_good=" + Probability(loss.lossGood) +
                                            " loss_bad=" + Probability(loss.lossBad)
                                      : "bernoulli rate=" + Probability(loss.rate);
        const std::string detail = model + " classes=" + Classes(loss.classMask) +
                                   " frames=" + std::to_string(m.framesSeen) +
                                   " lost=" + std::to_string(m.framesLost);
        out << "0,loss," << FaultPlan::LinkName(topo, m.link) << ',' << detail << '\n';
    }
    for (uint32_t k = 0; k < plan.losses.size(); ++k)
    {
        uint32_t links = 0;
        for (const FaultInjector::LossLink& m : losses)
        {
            links += m.entry == k ? 1 : 0;
        }
        lines.push_back("loss on " + std::to_string(links) + " links (" + plan.losses[k].pointer +
                        "), from time 0");
    }
    std::vector<FaultInjector::Record> records = m_faults.GetRecords();
    std::stable_sort(records.begin(), records.end(),
                     [](const FaultInjector::Record& a, const FaultInjector::Record& b)
                     { return a.time < b.time; });
    for (const FaultInjector::Record& r : records)
    {
        out << r.time.GetNanoSeconds() << ',' << r.kind << ',' << r.target << ',' << r.detail
            << '\n';
        lines.push_back(JsonAttributeConverter::FormatTime(r.time) + " " + r.kind + " " + r.target +
                        (r.detail.empty() ? "" : ": " + r.detail));
    }
    RunReadmeWriter::CloseChecked(out, path);
    readme.AddCsv("faults.csv",
                  "faults injected (\"faults\"): one row per lossy link (time 0; frames of the "
                  "selected classes seen and lost, both directions) and one per timed fault "
                  "that happened",
                  COLUMNS);
    readme.AddFaults(lines);
}

} // namespace ns3
