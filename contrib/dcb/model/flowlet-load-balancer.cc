#include "flowlet-load-balancer.h"

#include "dcb-net-device.h"

#include "ns3/enum.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FlowletLoadBalancer);

TypeId
FlowletLoadBalancer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FlowletLoadBalancer")
            .SetParent<DcbLoadBalancer>()
            .SetGroupName("Dcb")
            .AddConstructor<FlowletLoadBalancer>()
            .AddAttribute("Gap",
                          "Idle time after which a flow's next packet starts a new flowlet "
                          "(the flowlet timeout). Default 500 us, the flowlet inactivity "
                          "timeout of CONGA (SIGCOMM'14) and LetFlow (NSDI'17) (values still to "
                          "be checked against the papers: load-balancing.md). A gap splits only "
                          "flows that pause that long: a line-rate flow is never split by a gap "
                          "above a few us (measured sweep in load-balancing.md).",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&FlowletLoadBalancer::m_gap), MakeTimeChecker(Time(0)))
            .AddAttribute("TableSize",
                          "Entries in the flowlet table (16 bytes each), indexed by flow hash "
                          "modulo the size. Default 4096: a per-switch table small enough for "
                          "large fabrics in memory; CONGA's switch ASIC holds 64K entries. "
                          "Read at the first packet.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&FlowletLoadBalancer::m_tableSize),
                          MakeUintegerChecker<uint32_t>(1, 1u << 24))
            .AddAttribute("NewFlowletPort",
                          "How a new flowlet picks its port: Random (LetFlow's choice, the "
                          "default) or LeastQueued (fewest bytes queued at the egress port, in "
                          "all classes; ties by flow hash).",
                          EnumValue(RANDOM),
                          MakeEnumAccessor(&FlowletLoadBalancer::m_newFlowletPort),
                          MakeEnumChecker(RANDOM, "Random", LEAST_QUEUED, "LeastQueued"));
    return tid;
}

FlowletLoadBalancer::FlowletLoadBalancer()
    : m_rng(CreateObject<UniformRandomVariable>())
{
}

FlowletLoadBalancer::~FlowletLoadBalancer() = default;

int64_t
FlowletLoadBalancer::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

uint32_t
FlowletLoadBalancer::DoSelect(const DcbSwitch& sw, const DcbEcmpGroup& group, uint32_t flowHash,
                              Time now)
{
    if (m_table.empty())
    {
        m_table.resize(m_tableSize);
    }
    Entry& e = m_table[flowHash % m_table.size()];
    if (e.group != group.id || e.index >= group.size || now - e.lastSeen > m_gap)
    {
        e.group = group.id;
        e.index = m_newFlowletPort == LEAST_QUEUED
                      ? LeastQueued(sw, group, flowHash, DcbNetDevice::N_CLASSES)
                      : m_rng->GetInteger(0, group.size - 1);
    }
    e.lastSeen = now;
    return e.index;
}

} // namespace ns3
