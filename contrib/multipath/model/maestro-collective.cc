#include "maestro-collective.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MaestroCollective);

TypeId
MaestroCollective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MaestroCollective")
            .SetParent<Object>()
            .SetGroupName("Multipath")
            .AddConstructor<MaestroCollective>()
            .AddAttribute("Pattern", "Collective run every iteration.", EnumValue(RING_ALLREDUCE),
                          MakeEnumAccessor(&MaestroCollective::m_pattern),
                          MakeEnumChecker(RING_ALLREDUCE, "RingAllreduce", ALLGATHER, "Allgather"))
            .AddAttribute("ModelSize",
                          "Model (gradient) bytes exchanged per iteration. Default 572 MB: "
                          "VGG19, SOSR'21 §6.4 (VGG16 is 528 MB).",
                          UintegerValue(572000000),
                          MakeUintegerAccessor(&MaestroCollective::m_modelSize),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("ModelScale",
                          "Factor applied to ModelSize (0 < x <= 1) to shorten runs; default "
                          "1 (the paper's sizes).",
                          DoubleValue(1.0), MakeDoubleAccessor(&MaestroCollective::m_modelScale),
                          MakeDoubleChecker<double>(1e-9, 1.0))
            .AddAttribute("ComputeTime",
                          "Compute (\"off\") phase before each iteration's communication. "
                          "Default 0 s: the paper's metric is the transport time alone.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&MaestroCollective::m_computeTime),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("Iterations", "Training iterations to run. Default 1.", UintegerValue(1),
                          MakeUintegerAccessor(&MaestroCollective::m_iterations),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("IterationDone",
                            "An iteration's collective finished: (iteration, communication "
                            "time).",
                            MakeTraceSourceAccessor(&MaestroCollective::m_iterationDoneTrace),
                            "ns3::MaestroCollective::IterationDoneCallback")
            .AddTraceSource("StepDone",
                            "Every worker has completed a step: (iteration, step, time since "
                            "the iteration's communication began).",
                            MakeTraceSourceAccessor(&MaestroCollective::m_stepDoneTrace),
                            "ns3::MaestroCollective::StepDoneCallback");
    return tid;
}

MaestroCollective::MaestroCollective()
    : m_pattern(RING_ALLREDUCE)
    , m_modelSize(572000000)
    , m_modelScale(1.0)
    , m_iterations(1)
{
}

void
MaestroCollective::DoDispose()
{
    m_computeEvent.Cancel();
    m_links.clear();
    Object::DoDispose();
}

void
MaestroCollective::SetLinks(std::vector<Ptr<MaestroRingLink>> links)
{
    NS_ABORT_MSG_IF(links.size() < 2, "MaestroCollective: a ring needs at least 2 workers");
    m_links = std::move(links);
    for (uint32_t w = 0; w < m_links.size(); ++w)
    {
        m_links[w]->SetDoneCallback(MakeCallback(&MaestroCollective::OnSent, this).Bind(w));
    }
}

uint64_t
MaestroCollective::GetModelBytes() const
{
    return std::max<uint64_t>(1, std::llround(m_modelSize * m_modelScale));
}

uint64_t
MaestroCollective::GetSegmentBytes() const
{
    const uint64_t n = m_links.size();
    return (GetModelBytes() + n - 1) / n;
}

uint32_t
MaestroCollective::GetNSteps() const
{
    const uint32_t n = static_cast<uint32_t>(m_links.size());
    return m_pattern == RING_ALLREDUCE ? 2 * (n - 1) : n - 1;
}

const std::vector<Time>&
MaestroCollective::GetCommunicationTimes() const
{
    return m_commTimes;
}

void
MaestroCollective::Start()
{
    NS_ABORT_MSG_IF(m_links.empty(), "MaestroCollective: SetLinks before Start");
    m_computeEvent =
        Simulator::Schedule(m_computeTime, &MaestroCollective::StartCommunication, this);
}

void
MaestroCollective::StartCommunication()
{
    m_commStart = Simulator::Now();
    m_sent.assign(m_links.size(), 0);
    m_stepsDone = 0;
    for (uint32_t w = 0; w < m_links.size(); ++w)
    {
        Advance(w);
    }
}

void
MaestroCollective::Advance(uint32_t w)
{
    const uint32_t n = static_cast<uint32_t>(m_links.size());
    const uint32_t prev = (w + n - 1) % n;
    // step k = m_sent[w] needs the predecessor's step k - 1
    if (m_links[w]->IsBusy() || m_sent[w] >= GetNSteps() || m_sent[prev] < m_sent[w])
    {
        return;
    }
    const uint64_t segment = GetSegmentBytes();
    m_links[w]->Send(segment, uint64_t((m_sent[w] + w) % n) * segment);
}

void
MaestroCollective::OnSent(uint32_t w, Time now)
{
    const uint32_t n = static_cast<uint32_t>(m_links.size());
    ++m_sent[w];
    Advance(w);
    Advance((w + 1) % n);
    const uint32_t done = *std::min_element(m_sent.begin(), m_sent.end());
    for (; m_stepsDone < done; ++m_stepsDone)
    {
        m_stepDoneTrace(m_iteration, m_stepsDone, now - m_commStart);
    }
    if (done < GetNSteps())
    {
        return;
    }
    const Time comm = now - m_commStart;
    m_commTimes.push_back(comm);
    m_iterationDoneTrace(m_iteration, comm);
    if (++m_iteration < m_iterations)
    {
        Start();
    }
}

} // namespace ns3
