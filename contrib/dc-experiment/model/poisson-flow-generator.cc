#include "poisson-flow-generator.h"

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
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
            .SetParent<Object>()
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
                          MakeUintegerChecker<uint8_t>(0, 7));
    return tid;
}

PoissonFlowGenerator::PoissonFlowGenerator()
    : m_interArrival(CreateObject<ExponentialRandomVariable>())
    , m_endpoints(CreateObject<UniformRandomVariable>())
{
}

void
PoissonFlowGenerator::DoDispose()
{
    m_interArrival = nullptr;
    m_endpoints = nullptr;
    m_sizes = nullptr;
    Object::DoDispose();
}

void
PoissonFlowGenerator::SetSizeDistribution(const FlowSizeCdf& cdf)
{
    m_sizes = cdf.CreateRandomVariable();
    m_meanBytes = cdf.GetMean();
    m_maxBytes = cdf.GetMax();
}

int64_t
PoissonFlowGenerator::AssignStreams(int64_t stream)
{
    NS_ABORT_MSG_IF(!m_sizes, "PoissonFlowGenerator: SetSizeDistribution before AssignStreams");
    m_interArrival->SetStream(stream);
    m_endpoints->SetStream(stream + 1);
    m_sizes->SetStream(stream + 2);
    return 3;
}

double
PoissonFlowGenerator::GetArrivalRatePerHost(uint32_t nHosts) const
{
    if (m_bisectionRate.GetBitRate() == 0)
    {
        return m_load * static_cast<double>(m_hostRate.GetBitRate()) / (8.0 * m_meanBytes);
    }
    NS_ABORT_MSG_IF(nHosts < 2, "PoissonFlowGenerator: a BisectionRate load needs the host count");
    const double n = nHosts;
    const double a = nHosts / 2;
    const double b = n - a;
    // Offered bits per second over all hosts whose crossing share a*b/(n(n-1)) is Load x B.
    const double offered =
        m_load * static_cast<double>(m_bisectionRate.GetBitRate()) * n * (n - 1) / (a * b);
    return offered / n / (8.0 * m_meanBytes);
}

std::vector<ExperimentFlow>
PoissonFlowGenerator::Generate(uint32_t nHosts)
{
    NS_ABORT_MSG_IF(!m_sizes, "PoissonFlowGenerator: no size distribution");
    NS_ABORT_MSG_IF(nHosts < 2, "PoissonFlowGenerator: needs at least two hosts");
    const double rate = GetArrivalRatePerHost(nHosts) * nHosts;     // flows per second
    m_interArrival->SetAttribute("Mean", DoubleValue(1e12 / rate)); // picoseconds
    m_interArrival->SetAttribute("Bound", DoubleValue(0.0));
    const int64_t end = (m_start + m_duration).GetPicoSeconds();
    const double maxBytes = std::min<double>(m_maxBytes, ExperimentConfig::MAX_FLOW_BYTES);
    std::vector<ExperimentFlow> flows;
    // Whole picoseconds accumulate exactly; each gap is rounded on its own.
    int64_t t = m_start.GetPicoSeconds();
    while (true)
    {
        t += std::llround(m_interArrival->GetValue());
        if (t >= end)
        {
            break;
        }
        ExperimentFlow f{};
        f.id = static_cast<uint32_t>(flows.size());
        f.src = m_endpoints->GetInteger(0, nHosts - 1);
        f.dst = m_endpoints->GetInteger(0, nHosts - 2);
        if (f.dst >= f.src)
        {
            ++f.dst; // uniform over the other hosts
        }
        const double bytes = std::clamp(std::round(m_sizes->GetValue()), 1.0, maxBytes);
        f.bytes = static_cast<uint64_t>(bytes);
        f.start = PicoSeconds(t);
        f.priority = m_priority;
        f.verb = RdmaVerb::Write;
        flows.push_back(f);
    }
    return flows;
}

} // namespace ns3
