#include "poisson-flow-generator.h"

#include "seeded-random-stream.h"

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PoissonFlowGenerator);

TypeId
PoissonFlowGenerator::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PoissonFlowGenerator")
            .SetParent<WorkloadGenerator>()
            .SetGroupName("DcExperiment")
            .AddConstructor<PoissonFlowGenerator>()
            .AddAttribute("Load",
                          "Offered load as a fraction of each host's link rate (0.7 in SRNIC "
                          "Fig. 12).",
                          DoubleValue(0.7), MakeDoubleAccessor(&PoissonFlowGenerator::m_load),
                          MakeDoubleChecker<double>(1e-6, 10.0))
            .AddAttribute(
                "HostRate", "Host link rate the load refers to (100 Gb/s in SRNIC Sec. 6.3).",
                DataRateValue(DataRate("100Gbps")),
                MakeDataRateAccessor(&PoissonFlowGenerator::m_hostRate), MakeDataRateChecker())
            .AddAttribute("BisectionRate",
                          "When above 0 b/s, Load is a fraction of this bisection bandwidth "
                          "(one direction) rather than of HostRate: the issue's optional "
                          "\"load relative to fabric bisection\". Default 0 (off), as SRNIC "
                          "Fig. 12 states load per host link.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&PoissonFlowGenerator::m_bisectionRate),
                          MakeDataRateChecker())
            .AddAttribute("Start", "Time of the first possible arrival.", TimeValue(Time(0)),
                          MakeTimeAccessor(&PoissonFlowGenerator::m_start),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Duration", "Length of the arrival window [Start, Start + Duration).",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&PoissonFlowGenerator::m_duration),
                          MakeTimeChecker(PicoSeconds(1)))
            .AddAttribute("Priority", "Traffic class of the generated flows (DSCP 8p+2).",
                          UintegerValue(3), MakeUintegerAccessor(&PoissonFlowGenerator::m_priority),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("Verb",
                          "Verb of the generated flows (WRITE, as SRNIC Fig. 12's traffic).",
                          EnumValue(static_cast<int>(RdmaVerb::Write)),
                          MakeEnumAccessor(&PoissonFlowGenerator::SetVerbValue,
                                           &PoissonFlowGenerator::GetVerbValue),
                          MakeEnumChecker(static_cast<int>(RdmaVerb::Write), "write",
                                          static_cast<int>(RdmaVerb::Send), "send",
                                          static_cast<int>(RdmaVerb::Read), "read"));
    return tid;
}

PoissonFlowGenerator::PoissonFlowGenerator() = default;

void
PoissonFlowGenerator::SetSizeDistribution(const FlowSizeCdf& cdf)
{
    m_sizes = cdf;
}

int64_t
PoissonFlowGenerator::AssignStreams(int64_t stream)
{
    WorkloadGenerator::AssignStreams(stream);
    return 3;
}

void
PoissonFlowGenerator::SetVerbValue(int verb)
{
    m_verb = static_cast<RdmaVerb>(verb);
}

int
PoissonFlowGenerator::GetVerbValue() const
{
    return static_cast<int>(m_verb);
}

void
PoissonFlowGenerator::SetOrigin(const std::string& pointer)
{
    m_origin = pointer;
}

double
PoissonFlowGenerator::GetArrivalRatePerHost(uint32_t nHosts) const
{
    NS_ABORT_MSG_IF(!m_sizes, "PoissonFlowGenerator: no size distribution");
    if (m_bisectionRate.GetBitRate() == 0)
    {
        return m_load * static_cast<double>(m_hostRate.GetBitRate()) / (8.0 * m_sizes->GetMean());
    }
    NS_ABORT_MSG_IF(nHosts < 2, "PoissonFlowGenerator: a BisectionRate load needs the host count");
    const double n = nHosts;
    const double a = nHosts / 2;
    const double b = n - a;
    // Offered bits per second over all hosts whose crossing share a*b/(n(n-1)) is Load x B.
    const double offered =
        m_load * static_cast<double>(m_bisectionRate.GetBitRate()) * n * (n - 1) / (a * b);
    return offered / n / (8.0 * m_sizes->GetMean());
}

std::vector<ExperimentFlow>
PoissonFlowGenerator::Generate(const ExperimentTopology& topology)
{
    return Generate(static_cast<uint32_t>(topology.hosts.size()));
}

std::vector<ExperimentFlow>
PoissonFlowGenerator::Generate(uint32_t nHosts)
{
    NS_ABORT_MSG_IF(!m_sizes, "PoissonFlowGenerator: no size distribution");
    NS_ABORT_MSG_IF(nHosts < 2, "PoissonFlowGenerator: needs at least two hosts");
    const double rate = GetArrivalRatePerHost(nHosts) * nHosts; // flows per second
    const double meanGap = 1e12 / rate;                         // picoseconds
    SeededRandomStream interArrival(GetSeed(), GetFirstStream(), GetRun());
    SeededRandomStream endpoints(GetSeed(), GetFirstStream() + 1, GetRun());
    SeededRandomStream sizes(GetSeed(), GetFirstStream() + 2, GetRun());
    const int64_t end = (m_start + m_duration).GetPicoSeconds();
    const double maxBytes = std::min<double>(m_sizes->GetMax(), ExperimentConfig::MAX_FLOW_BYTES);
    std::vector<ExperimentFlow> flows;
    // Whole picoseconds accumulate exactly; each gap is rounded on its own.
    int64_t t = m_start.GetPicoSeconds();
    while (true)
    {
        t += std::llround(interArrival.GetExponential(meanGap));
        if (t >= end)
        {
            break;
        }
        ExperimentFlow f{};
        f.id = static_cast<uint32_t>(flows.size());
        f.src = endpoints.GetInteger(0, nHosts - 1);
        f.dst = endpoints.GetInteger(0, nHosts - 2);
        if (f.dst >= f.src)
        {
            ++f.dst; // uniform over the other hosts
        }
        const double bytes =
            std::clamp(std::round(m_sizes->GetQuantile(sizes.GetValue())), 1.0, maxBytes);
        f.bytes = static_cast<uint64_t>(bytes);
        f.start = PicoSeconds(t);
        f.priority = m_priority;
        f.verb = m_verb;
        f.origin = m_origin;
        flows.push_back(f);
    }
    return flows;
}

} // namespace ns3
