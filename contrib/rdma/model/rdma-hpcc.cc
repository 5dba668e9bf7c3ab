/*
 * HPCC window/rate congestion control for RDMA queue pairs.
 */
#include "rdma-hpcc.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

namespace
{
/** SampleCheck's allowance beyond 2 B dt: one 9 KB jumbo frame (bytes). */
constexpr double SAMPLE_SLACK_BYTES = 9216;
} // namespace

NS_LOG_COMPONENT_DEFINE("RdmaHpcc");
NS_OBJECT_ENSURE_REGISTERED(RdmaHpcc);

TypeId
RdmaHpcc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaHpcc")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaHpcc>()
            .AddAttribute("TargetUtilization",
                          "eta: the utilization HPCC steers the most loaded link to "
                          "(dimensionless). Default 0.95, HPCC (SIGCOMM'19) section 3.3 and its "
                          "evaluation. Values above 1 aim at a standing queue (for controls).",
                          DoubleValue(0.95), MakeDoubleAccessor(&RdmaHpcc::m_eta),
                          MakeDoubleChecker<double>(0.01, 2.0))
            .AddAttribute("MaxStage",
                          "maxStage: additive-increase rounds (RTTs) below eta before the "
                          "window is recomputed from U again (count). Default 5, HPCC "
                          "(SIGCOMM'19) section 3.3.",
                          UintegerValue(5), MakeUintegerAccessor(&RdmaHpcc::m_maxStage),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("AdditiveIncrease",
                          "W_AI expressed as a rate: W_AI = AdditiveIncrease x BaseRtt bytes. "
                          "The paper sets W_AI = W_init (1 - eta) / N for N expected concurrent "
                          "flows per link (HPCC SIGCOMM'19 section 3.3); default 50 Mb/s = "
                          "100 Gb/s x (1 - 0.95) / 100, i.e. N = 100 (our choice of N).",
                          DataRateValue(DataRate("50Mbps")), MakeDataRateAccessor(&RdmaHpcc::m_ai),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Rate floor (DataRate; the window is kept >= MinRate x BaseRtt). "
                          "Default 0: none, as the paper's Algorithm 1, whose only floor is "
                          "W_AI. The HPCC simulator floors HPCC's rate at its MIN_RATE "
                          "(HpccConfigTranslator maps MIN_RATE here under CC_MODE 3).",
                          DataRateValue(DataRate(0)), MakeDataRateAccessor(&RdmaHpcc::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("BaseRtt",
                          "T: the base (propagation) RTT of the QP's path; W_init = line rate "
                          "x T and the rate is W / T (HPCC SIGCOMM'19 section 3.2). Default "
                          "8.32 us, the 100 Gb/s leaf-spine BDP that RdmaDctcp::InitialWindow "
                          "also assumes (104000 B).",
                          TimeValue(NanoSeconds(8320)), MakeTimeAccessor(&RdmaHpcc::m_baseRtt),
                          MakeTimeChecker())
            .AddAttribute("MaxHops",
                          "Hop records reserved in each data packet's INT trailer (hops, "
                          "1..7; IntTrailer, 2 + 8 x MaxHops bytes). Default 5: the paper's "
                          "INT budget for the paths of a three-tier Clos (42 bytes).",
                          UintegerValue(5), MakeUintegerAccessor(&RdmaHpcc::m_maxHops),
                          MakeUintegerChecker<uint8_t>(1, IntTrailer::MAX_HOPS))
            .AddAttribute(
                "SampleCheck",
                "Refuse a hop's sample whose transmitted bytes exceed what a port at the "
                "record's rate B can send in the time between the two records (more than "
                "2 B dt + 9216 bytes): the two records then came from different ports, as "
                "when per-packet spraying or adaptive routing sends consecutive packets of a "
                "QP through different switches at the same hop index, and their difference "
                "is no rate. U is then taken over the other hops (as for a hop whose rate "
                "the record cannot name). The paper (HPCC SIGCOMM'19 section 3.2) assumes "
                "one path per flow and has no such check: on one path no sample is refused "
                "(a port sends at most B dt between two of its own stamps, plus the "
                "128-byte units' rounding), so the default changes nothing there. "
                "Labelled roce-lab choice (contrib/dcb/doc/load-balancing.md, 'HPCC under "
                "spraying'). Default true.",
                BooleanValue(true), MakeBooleanAccessor(&RdmaHpcc::m_sampleCheck),
                MakeBooleanChecker())
            .AddTraceSource("WindowChange", "The window changed (old, new), bytes.",
                            MakeTraceSourceAccessor(&RdmaHpcc::m_windowTrace),
                            "ns3::RdmaHpcc::WindowChangeTracedCallback");
    return tid;
}

RdmaHpcc::RdmaHpcc() = default;

uint64_t
RdmaHpcc::GetSamplesRejected() const
{
    return m_samplesRejected;
}
RdmaHpcc::~RdmaHpcc() = default;

std::string
RdmaHpcc::GetName() const
{
    return "Hpcc";
}

Ptr<RdmaCongestionOps>
RdmaHpcc::Fork() const
{
    Ptr<RdmaHpcc> copy = CopyObject<RdmaHpcc>(this);
    copy->m_state = nullptr;
    copy->m_windowInit = 0;
    copy->m_windowAi = 0;
    copy->m_windowMin = 0;
    copy->m_windowRef = 0;
    copy->m_u = 0;
    copy->m_incStage = 0;
    copy->m_lastUpdateSeq = 0;
    copy->m_haveRecords = false;
    copy->m_nHops = 0;
    copy->m_samplesRejected = 0;
    return copy;
}

bool
RdmaHpcc::CheckAttributes(DataRate lineRate, std::string& attribute, std::string& reason) const
{
    if (m_baseRtt.IsStrictlyPositive() == false)
    {
        attribute = "BaseRtt";
        reason = "BaseRtt must be > 0 (the rate is W / BaseRtt)";
        return false;
    }
    if (m_minRate > lineRate)
    {
        attribute = "MinRate";
        reason = "MinRate " + std::to_string(m_minRate.GetBitRate()) +
                 " bit/s must not exceed the line rate " + std::to_string(lineRate.GetBitRate()) +
                 " bit/s";
        return false;
    }
    if (m_ai >= lineRate)
    {
        attribute = "AdditiveIncrease";
        reason = "AdditiveIncrease " + std::to_string(m_ai.GetBitRate()) +
                 " bit/s must be below the line rate " + std::to_string(lineRate.GetBitRate()) +
                 " bit/s";
        return false;
    }
    return true;
}

void
RdmaHpcc::Init(RdmaCcState* state)
{
    NS_ASSERT_MSG(state != nullptr, "RdmaHpcc::Init needs a state");
    std::string attribute;
    std::string reason;
    NS_ABORT_MSG_IF(!CheckAttributes(state->m_lineRate, attribute, reason),
                    "ns3::RdmaHpcc attribute " << attribute << ": " << reason);
    m_state = state;
    const double t = m_baseRtt.GetSeconds();
    m_windowInit = static_cast<double>(state->m_lineRate.GetBitRate()) / 8 * t;
    m_windowAi = static_cast<double>(m_ai.GetBitRate()) / 8 * t;
    m_windowMin = std::max(m_windowAi, static_cast<double>(m_minRate.GetBitRate()) / 8 * t);
    m_windowRef = m_windowInit;
    m_u = 0;
    m_state->m_alpha = 0;
    Apply(m_windowInit);
}

double
RdmaHpcc::GetUtilization() const
{
    return m_u;
}

double
RdmaHpcc::GetReferenceWindow() const
{
    return m_windowRef;
}

void
RdmaHpcc::Apply(double window)
{
    const auto w = static_cast<uint64_t>(std::max(1.0, window));
    if (w != m_state->m_window)
    {
        m_windowTrace(m_state->m_window, w);
        m_state->m_window = w;
    }
    const double bps = window * 8 / m_baseRtt.GetSeconds();
    const auto line = static_cast<double>(m_state->m_lineRate.GetBitRate());
    m_state->m_rate = DataRate(static_cast<uint64_t>(std::min(bps, line)));
    m_state->m_targetRate = m_state->m_rate;
}

bool
RdmaHpcc::MeasureInflight(const IntTrailer& echo)
{
    const uint8_t n = echo.GetNHops();
    bool measured = false;
    if (m_haveRecords && n == m_nHops && n > 0)
    {
        const double t = m_baseRtt.GetSeconds();
        double u = 0;
        double tau = 0;
        for (uint8_t i = 0; i < n; ++i)
        {
            const IntHop now = echo.GetHop(i);
            const IntHop was = IntTrailer::DecodeHop(m_hops[i]);
            const uint64_t dtNs = (now.timestamp - was.timestamp) % IntTrailer::TS_MODULUS;
            if (now.rateBps == 0 || dtNs == 0)
            {
                continue; // a rate the code cannot name, or the same egress instant
            }
            const double bytesPerSecond = static_cast<double>(now.rateBps) / 8;
            const uint64_t dtx = (now.txUnits - was.txUnits) % IntTrailer::TX_MODULUS;
            if (m_sampleCheck &&
                static_cast<double>(dtx * IntTrailer::BYTE_UNIT) >
                    2 * bytesPerSecond * (static_cast<double>(dtNs) * 1e-9) + SAMPLE_SLACK_BYTES)
            {
                m_samplesRejected++;
                continue; // the records of two different ports (see SampleCheck)
            }
            const double txRate = static_cast<double>(dtx * IntTrailer::BYTE_UNIT) /
                                  (static_cast<double>(dtNs) * 1e-9);
            const double queue = static_cast<double>(std::min(now.queueUnits, was.queueUnits)) *
                                 IntTrailer::BYTE_UNIT;
            const double ui = queue / (bytesPerSecond * t) + txRate / bytesPerSecond;
            if (ui > u || !measured)
            {
                u = ui;
                tau = static_cast<double>(dtNs) * 1e-9;
            }
            measured = true;
        }
        if (measured)
        {
            tau = std::min(tau, t);
            m_u = (1 - tau / t) * m_u + tau / t * u;
        }
    }
    m_nHops = n;
    for (uint8_t i = 0; i < n; ++i)
    {
        m_hops[i] = echo.GetHopWord(i);
    }
    m_haveRecords = n > 0;
    return measured;
}

double
RdmaHpcc::ComputeWindow(bool updateReference)
{
    double w;
    if (m_u >= m_eta || m_incStage >= m_maxStage)
    {
        w = m_windowRef / (m_u / m_eta) + m_windowAi;
        if (updateReference)
        {
            m_incStage = 0;
        }
    }
    else
    {
        w = m_windowRef + m_windowAi;
        if (updateReference)
        {
            m_incStage++;
        }
    }
    w = std::clamp(w, m_windowMin, m_windowInit);
    if (updateReference)
    {
        m_windowRef = w;
    }
    return w;
}

void
RdmaHpcc::OnIntAck(const IntTrailer& echo, uint64_t ackedPsn, uint64_t nextPsn)
{
    if (!MeasureInflight(echo))
    {
        return;
    }
    const bool newRtt = ackedPsn + 1 > m_lastUpdateSeq;
    if (newRtt)
    {
        m_lastUpdateSeq = nextPsn;
    }
    Apply(ComputeWindow(newRtt));
}

void
RdmaHpcc::OnCnp()
{
}

void
RdmaHpcc::OnDataSent(uint32_t /*bytes*/)
{
}

void
RdmaHpcc::OnAck(const RdmaAckSample& /*ack*/)
{
}

bool
RdmaHpcc::OnDataReceived(bool /*ceMarked*/)
{
    return false;
}

uint8_t
RdmaHpcc::GetIntHops() const
{
    return m_maxHops;
}

} // namespace ns3
