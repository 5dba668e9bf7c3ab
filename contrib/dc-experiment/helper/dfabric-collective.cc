#include "dfabric-collective.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(DfabricCollective);

TypeId
DfabricCollective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DfabricCollective")
            .SetParent<Object>()
            .SetGroupName("DcExperiment")
            .AddConstructor<DfabricCollective>()
            .AddAttribute("ModelSize",
                          "Bytes each iteration's allreduce reduces. Default 16 MiB: the "
                          "allreduce of the DFabric Fig. 2 setting (contrib/host/doc/host.md).",
                          UintegerValue(16777216),
                          MakeUintegerAccessor(&DfabricCollective::m_modelBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("ComputeTime",
                          "Compute phase before each iteration's communication. Default 0 s: "
                          "Fig. 2's metric is the allreduce time alone.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&DfabricCollective::m_computeTime),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("Iterations", "Iterations to run, back to back. Default 1.",
                          UintegerValue(1), MakeUintegerAccessor(&DfabricCollective::m_iterations),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("IterationDone",
                            "An iteration's allreduce finished: (iteration, communication "
                            "time).",
                            MakeTraceSourceAccessor(&DfabricCollective::m_iterationDoneTrace),
                            "ns3::MaestroCollective::IterationDoneCallback")
            .AddTraceSource("StepDone",
                            "Every hop of a step has completed: (iteration, step, time since "
                            "the iteration's communication began).",
                            MakeTraceSourceAccessor(&DfabricCollective::m_stepDoneTrace),
                            "ns3::MaestroCollective::StepDoneCallback");
    return tid;
}

DfabricCollective::DfabricCollective()
    : m_modelBytes(16777216)
    , m_iterations(1)
{
}

void
DfabricCollective::DoDispose()
{
    if (m_ring)
    {
        m_ring->Dispose();
    }
    m_ring = nullptr;
    m_gate = nullptr;
    m_racks.clear();
    Object::DoDispose();
}

void
DfabricCollective::SetRacks(const std::vector<DfabricRack>& racks)
{
    m_racks = racks;
    m_ring = CreateObject<DfabricRingAllreduce>();
    for (const DfabricRack& r : racks)
    {
        m_ring->AddRack(r);
    }
    NS_ABORT_MSG_IF(m_ring->GetRanks() < 2, "DfabricCollective: needs at least two ranks");
    m_gate = CreateObject<CxlReduceGate>();
    if (m_gate->AddRacks(racks) > 0)
    {
        m_ring->SetStepGate(m_gate->GetCallback());
    }
    m_ring->TraceConnectWithoutContext("StepComplete",
                                       MakeCallback(&DfabricCollective::OnStep, this));
}

uint64_t
DfabricCollective::GetModelBytes() const
{
    return m_modelBytes;
}

uint64_t
DfabricCollective::GetSegmentBytes() const
{
    const uint32_t p = m_ring->GetRanks();
    return (m_modelBytes + p - 1) / p;
}

const std::vector<Time>&
DfabricCollective::GetCommunicationTimes() const
{
    return m_times;
}

double
DfabricCollective::GetOptimalMicros() const
{
    const uint32_t p = m_ring->GetRanks();
    const double link = m_racks.front().host->GetResource("cxl-cn0")->GetCapacity().GetBitRate();
    return 2.0 * (p - 1) * (static_cast<double>(m_modelBytes) / p) * 8 / link * 1e6;
}

void
DfabricCollective::Start()
{
    Simulator::Schedule(m_computeTime, &DfabricCollective::StartCommunication, this);
}

void
DfabricCollective::StartCommunication()
{
    m_commStart = Simulator::Now();
    m_ring->Start(m_modelBytes, MakeCallback(&DfabricCollective::OnDone, this));
}

void
DfabricCollective::OnStep(uint32_t step, Time /* took */)
{
    m_stepDoneTrace(m_iteration, step, Simulator::Now() - m_commStart);
}

void
DfabricCollective::OnDone(Time took)
{
    m_times.push_back(took);
    m_iterationDoneTrace(m_iteration, took);
    if (++m_iteration < m_iterations)
    {
        // Scheduled, not called: the ring is still in its completion callback.
        Simulator::Schedule(m_computeTime, &DfabricCollective::StartCommunication, this);
    }
}

} // namespace ns3
