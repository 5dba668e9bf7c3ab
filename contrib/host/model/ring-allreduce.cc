/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ring-allreduce.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RingAllreduce);

TypeId
RingAllreduce::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RingAllreduce")
            .SetParent<Object>()
            .SetGroupName("Host")
            .AddConstructor<RingAllreduce>()
            .AddAttribute("Pattern",
                          "Collective run every iteration: the ring allreduce (2(N-1) steps) or "
                          "its allgather phase alone (N-1 steps).",
                          EnumValue(ALLREDUCE), MakeEnumAccessor(&RingAllreduce::m_pattern),
                          MakeEnumChecker(ALLREDUCE, "RingAllreduce", ALLGATHER, "Allgather"))
            .AddAttribute("Schedule",
                          "When a rank sends step k. Pipelined (default): once its own step "
                          "k-1 is done and its predecessor's step k-1 has arrived, the ring's "
                          "data dependence (SOSR'21 section 6.4). Lockstep: once every hop of "
                          "step k-1 is done (synchronous steps, DFabric section 2.2).",
                          EnumValue(PIPELINED), MakeEnumAccessor(&RingAllreduce::m_schedule),
                          MakeEnumChecker(PIPELINED, "Pipelined", LOCKSTEP, "Lockstep"))
            .AddAttribute("ModelSize",
                          "Model (gradient) bytes exchanged per iteration. Default 572 MB: "
                          "VGG19, SOSR'21 section 6.4 (VGG16 is 528 MB).",
                          UintegerValue(572000000),
                          MakeUintegerAccessor(&RingAllreduce::m_modelSize),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("ModelScale",
                          "Factor applied to ModelSize (0 < x <= 1) to shorten runs; default "
                          "1 (the paper's sizes).",
                          DoubleValue(1.0), MakeDoubleAccessor(&RingAllreduce::m_modelScale),
                          MakeDoubleChecker<double>(1e-9, 1.0))
            .AddAttribute("ComputeTime",
                          "Compute (\"off\") phase before each iteration's communication. "
                          "Default 0 s: the papers' metric is the communication time alone.",
                          TimeValue(Seconds(0)), MakeTimeAccessor(&RingAllreduce::m_computeTime),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("Iterations", "Training iterations to run, back to back. Default 1.",
                          UintegerValue(1), MakeUintegerAccessor(&RingAllreduce::m_iterations),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("IterationDone",
                            "An iteration's collective finished: (iteration, communication "
                            "time).",
                            MakeTraceSourceAccessor(&RingAllreduce::m_iterationDoneTrace),
                            "ns3::RingAllreduce::IterationDoneCallback")
            .AddTraceSource("StepDone",
                            "Every rank has completed a step: (iteration, step, time since "
                            "the iteration's communication began).",
                            MakeTraceSourceAccessor(&RingAllreduce::m_stepDoneTrace),
                            "ns3::RingAllreduce::StepDoneCallback");
    return tid;
}

RingAllreduce::RingAllreduce()
    : m_pattern(ALLREDUCE)
    , m_schedule(PIPELINED)
    , m_modelSize(572000000)
    , m_modelScale(1.0)
    , m_iterations(1)
{
}

void
RingAllreduce::DoDispose()
{
    m_computeEvent.Cancel();
    m_hops.clear();
    m_gate = StepGate();
    Object::DoDispose();
}

void
RingAllreduce::SetHops(std::vector<Ptr<RingHop>> hops)
{
    NS_ABORT_MSG_IF(hops.size() < 2, "RingAllreduce: a ring needs at least 2 ranks");
    m_hops = std::move(hops);
    for (uint32_t w = 0; w < m_hops.size(); ++w)
    {
        m_hops[w]->SetDoneCallback(MakeCallback(&RingAllreduce::OnHopDone, this).Bind(w));
    }
}

void
RingAllreduce::SetStepGate(StepGate gate)
{
    m_gate = gate;
}

uint32_t
RingAllreduce::GetRanks() const
{
    return static_cast<uint32_t>(m_hops.size());
}

uint64_t
RingAllreduce::GetModelBytes() const
{
    return std::max<uint64_t>(1, std::llround(m_modelSize * m_modelScale));
}

uint64_t
RingAllreduce::GetSegmentBytes() const
{
    const uint64_t n = m_hops.size();
    return (GetModelBytes() + n - 1) / n;
}

uint32_t
RingAllreduce::GetNSteps() const
{
    const uint32_t n = GetRanks();
    return m_pattern == ALLREDUCE ? 2 * (n - 1) : n - 1;
}

const std::vector<Time>&
RingAllreduce::GetCommunicationTimes() const
{
    return m_commTimes;
}

void
RingAllreduce::Start()
{
    NS_ABORT_MSG_IF(m_hops.empty(), "RingAllreduce: SetHops before Start");
    m_computeEvent = Simulator::Schedule(m_computeTime, &RingAllreduce::StartCommunication, this);
}

void
RingAllreduce::StartCommunication()
{
    m_commStart = Simulator::Now();
    m_sent.assign(m_hops.size(), 0);
    m_gated.assign(m_hops.size(), false);
    m_stepsDone = 0;
    for (uint32_t w = 0; w < m_hops.size(); ++w)
    {
        Advance(w);
    }
}

void
RingAllreduce::Advance(uint32_t w)
{
    const uint32_t n = GetRanks();
    // step k = m_sent[w] needs the predecessor's step k - 1 (pipelined) or every rank's
    const uint32_t ready = m_schedule == PIPELINED ? m_sent[(w + n - 1) % n] : m_stepsDone;
    if (m_gated[w] || m_hops[w]->IsBusy() || m_sent[w] >= GetNSteps() || ready < m_sent[w])
    {
        return;
    }
    const uint64_t segment = GetSegmentBytes();
    m_hops[w]->Send(segment, uint64_t((m_sent[w] + w) % n) * segment);
}

void
RingAllreduce::OnHopDone(uint32_t w, Time /* now */)
{
    if (m_gate.IsNull())
    {
        OnStepDone(w);
        return;
    }
    m_gated[w] = true;
    m_gate(m_sent[w], (w + 1) % GetRanks(), GetSegmentBytes(),
           MakeCallback(&RingAllreduce::OnGateDone, this).Bind(w));
}

void
RingAllreduce::OnGateDone(uint32_t w)
{
    NS_ABORT_MSG_IF(!m_gated[w], "RingAllreduce: a step gate called done twice");
    m_gated[w] = false;
    OnStepDone(w);
}

void
RingAllreduce::OnStepDone(uint32_t w)
{
    const Time now = Simulator::Now();
    const uint32_t n = GetRanks();
    ++m_sent[w];
    if (m_schedule == PIPELINED)
    {
        Advance(w);
        Advance((w + 1) % n);
    }
    const uint32_t done = *std::min_element(m_sent.begin(), m_sent.end());
    const uint32_t before = m_stepsDone;
    for (; m_stepsDone < done; ++m_stepsDone)
    {
        m_stepDoneTrace(m_iteration, m_stepsDone, now - m_commStart);
    }
    if (done < GetNSteps())
    {
        if (m_schedule == LOCKSTEP && done > before)
        {
            for (uint32_t r = 0; r < n; ++r)
            {
                Advance(r);
            }
        }
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
